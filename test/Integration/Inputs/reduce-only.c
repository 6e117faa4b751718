/* Nests that only reduce (write no array), in the time loop and after it:
 * a per-step norm and a final sum. Usage: reduce-only [steps] */
#include <stdio.h>
#include <stdlib.h>

#define N 40

static float A[N][N], B[N][N];

int main(int argc, char **argv) {
  int i, j, t, steps = argc > 1 ? atoi(argv[1]) : 6;
  double norm = 0.0, total;
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      A[i][j] = B[i][j] = (float)((i * 3 + j) % 7);
#pragma stencil begin
#pragma stencil step(t:100)
#pragma stencil data source(float A[N][N]) destination(float B[N][N])
#pragma stencil dimension(i, j)
#ifdef DISTRIBUTE
#pragma stencil distribute(DISTRIBUTE)
#endif
  for (t = 0; t < steps; t++) {
    norm = 0.0;
#pragma stencil calc
    for (i = 1; i < N - 1; i++)
      for (j = 1; j < N - 1; j++)
        B[i][j] = 0.25f * (A[i - 1][j] + A[i + 1][j] + A[i][j - 1] + A[i][j + 1]);
#pragma stencil calc
    for (i = 1; i < N - 1; i++)
      for (j = 1; j < N - 1; j++)
        norm += (double)B[i][j] * B[i][j] + 0.5 * A[i][j];
#pragma stencil copy
    for (i = 1; i < N - 1; i++)
      for (j = 1; j < N - 1; j++)
        A[i][j] = B[i][j];
  }
  total = 0.0;
#pragma stencil calc
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      total += A[i][j];
#pragma stencil end
  printf("norm %.9e total %.9e\n", norm, total);
  return 0;
}
