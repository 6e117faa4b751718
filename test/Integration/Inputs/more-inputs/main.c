/* A pragma-C program whose helpers live in other files: scale() in
 * scale.c, report() in report.c, given as an object. Usage: main STEPS */
#include <stdlib.h>

#define N 40

double scale(double x);
void report(const char *name, double value);

static double A[N], B[N];

int main(int argc, char **argv) {
  int i, t;
  int steps = argc > 1 ? atoi(argv[1]) : 3;
  double w = scale(0.125);
  for (i = 0; i < N; i++)
    A[i] = B[i] = (i * 7) % 5;
#pragma stencil begin
#pragma stencil step(t:10)
#pragma stencil data source(double A[N]) destination(double B[N])
#pragma stencil dimension(i)
  for (t = 0; t < steps; t++) {
#pragma stencil calc
    for (i = 1; i < N - 1; i++)
      B[i] = (1 - 2 * w) * A[i] + w * (A[i - 1] + A[i + 1]);
#pragma stencil copy
    for (i = 1; i < N - 1; i++)
      A[i] = B[i];
  }
#pragma stencil end
  double checksum = 0;
  for (i = 0; i < N; i++)
    checksum += A[i] * (i + 1);
  report("checksum", checksum);
  return 0;
}
