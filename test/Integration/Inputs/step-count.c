/* A time loop whose variable has the type STEP_TYPE and whose bound comes
 * from the command line: `step-count STEPS`. Prints a checksum. */
#include <stdio.h>
#include <stdlib.h>

#ifndef STEP_TYPE
#define STEP_TYPE int
#endif
#define N 64

static float A[N], B[N];

int main(int argc, char **argv) {
  unsigned long long steps = argc > 1 ? strtoull(argv[1], 0, 10) : 5;
  STEP_TYPE t;
  int i;
  for (i = 0; i < N; i++)
    A[i] = B[i] = (float)(i % 7);
#pragma stencil begin
#pragma stencil step(t:1000)
#pragma stencil data source(float A[N]) destination(float B[N])
#pragma stencil dimension(i)
  for (t = 0; t < steps; t++) {
#pragma stencil calc
    for (i = 1; i < N - 1; i++)
      B[i] = 0.25f * A[i - 1] + 0.5f * A[i] + 0.25f * A[i + 1];
#pragma stencil copy
    for (i = 1; i < N - 1; i++)
      A[i] = B[i];
  }
#pragma stencil end
  double sum = 0;
  for (i = 0; i < N; i++)
    sum += A[i] * (i + 1);
  printf("checksum %.6f\n", sum);
  return 0;
}
