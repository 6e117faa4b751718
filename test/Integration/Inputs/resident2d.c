/* A 2-D Jacobi whose arrays are resident in the ranks' blocks under
 * stencilcc --mpi (file-scope arrays of compile-time size, distributed
 * along DISTRIBUTE): the region initializes them from the coordinates,
 * runs the time loop, reduces a sum, a maximum and a minimum, and writes
 * both arrays. Usage: resident2d [steps [A-file [B-file]]] */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "stencil_io.h"

#ifndef N
#define N 61
#endif
#ifndef M
#define M 47
#endif
#ifndef DISTRIBUTE
#define DISTRIBUTE block, *
#endif

static double A[N][M];
static double B[N][M];

int main(int argc, char **argv) {
  int i, j, t;
  int steps = argc > 1 ? atoi(argv[1]) : 10;
  const char *fileA = argc > 2 ? argv[2] : NULL;
  double sum, high = -1e300, low;
#pragma stencil begin
#pragma stencil step(t:100)
#pragma stencil data source(double A[N][M]) destination(double B[N][M])
#pragma stencil dimension(i, j)
#pragma stencil distribute(DISTRIBUTE) resident
#pragma stencil calc
  for (i = 0; i < N; i++)
    for (j = 0; j < M; j++) {
      A[i][j] = (i == 0 || j == M - 1) ? 1.0 : (double)((i * 5 + j * 3) % 11) / 11.0;
      B[i][j] = A[i][j];
    }
  if (fileA)
    stencil_write_raw(A, argc > 3 ? argv[3] : "/dev/null");
  for (t = 0; t < steps; t++) {
#pragma stencil calc
    for (i = 1; i < N - 1; i++)
      for (j = 1; j < M - 1; j++)
        B[i][j] = 0.25 * (A[i - 1][j] + A[i + 1][j] + A[i][j - 1] + A[i][j + 1]);
#pragma stencil copy
    for (i = 1; i < N - 1; i++)
      for (j = 1; j < M - 1; j++)
        A[i][j] = B[i][j];
  }
  sum = 0.0;
  low = 1e300;
#pragma stencil calc
  for (i = 0; i < N; i++)
    for (j = 0; j < M; j++) {
      sum += A[i][j] * (1 + (i + j) % 3);
      high = fmax(high, A[i][j]);
      low = fmin(low, B[i][j]);
    }
  if (fileA)
    stencil_write_raw(A, fileA);
#pragma stencil end
  printf("resident2d %dx%d steps %d i %d j %d t %d\n", N, M, steps, i, j, t);
  printf("sum %.12e max %.12e min %.12e\n", sum, high, low);
  return 0;
}
