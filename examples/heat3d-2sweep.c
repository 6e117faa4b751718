/* Heat diffusion in 3-D written as PolyBench/C's heat-3d: two sweeps per
 * time step (B from A, then A from B), a 7-point stencil with a weight per
 * axis, a run-time size n. Double precision, 15 flops per point and sweep.
 * Usage: heat3d-2sweep [steps [n]]   (n <= N) */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#ifndef N
#define N 120
#endif

static double A[N][N][N], B[N][N][N];

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static void heat(int steps, int n, double a[N][N][N], double b[N][N][N]) {
  int t, i, j, k;
#pragma stencil begin
#pragma stencil step(t:200)
#pragma stencil data source(double a[N][N][N]) destination(double b[N][N][N])
#pragma stencil dimension(i, j, k)
#ifdef DISTRIBUTE /* e.g. -DDISTRIBUTE='block,*,*' for stencilcc --mpi */
#pragma stencil distribute(DISTRIBUTE)
#endif
  for (t = 1; t <= steps; t++) {
#pragma stencil calc
    for (i = 1; i < n - 1; i++)
      for (j = 1; j < n - 1; j++)
        for (k = 1; k < n - 1; k++)
          b[i][j][k] = 0.125 * (a[i + 1][j][k] - 2.0 * a[i][j][k] + a[i - 1][j][k]) +
                       0.125 * (a[i][j + 1][k] - 2.0 * a[i][j][k] + a[i][j - 1][k]) +
                       0.125 * (a[i][j][k + 1] - 2.0 * a[i][j][k] + a[i][j][k - 1]) +
                       a[i][j][k];
#pragma stencil calc
    for (i = 1; i < n - 1; i++)
      for (j = 1; j < n - 1; j++)
        for (k = 1; k < n - 1; k++)
          a[i][j][k] = 0.125 * (b[i + 1][j][k] - 2.0 * b[i][j][k] + b[i - 1][j][k]) +
                       0.125 * (b[i][j + 1][k] - 2.0 * b[i][j][k] + b[i][j - 1][k]) +
                       0.125 * (b[i][j][k + 1] - 2.0 * b[i][j][k] + b[i][j][k - 1]) +
                       b[i][j][k];
  }
#pragma stencil end
  printf("loops left t %d i %d j %d k %d\n", t, i, j, k);
}

int main(int argc, char **argv) {
  int steps = argc > 1 ? atoi(argv[1]) : 20;
  int n = argc > 2 ? atoi(argv[2]) : N;
  if (n < 3 || n > N) {
    fprintf(stderr, "heat3d-2sweep: n must lie in [3, %d]\n", N);
    return 2;
  }
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      for (int k = 0; k < N; k++)
        A[i][j][k] = B[i][j][k] = (double)((i * 7 + j * 3 + k * 5) % 11) / 11;

  double start = now();
  heat(steps, n, A, B);
  double seconds = now() - start;

  double checksum = 0.0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      for (int k = 0; k < N; k++)
        checksum += A[i][j][k] + 0.25 * B[i][j][k];
  double cells = 2.0 * (n - 2) * (n - 2) * (double)(n - 2) * steps;
  printf("heat3d-2sweep n %d steps %d\n", n, steps);
  printf("checksum %.10e\n", checksum);
  printf("time %.6f s\n", seconds);
  printf("GCells/s %.3f\n", cells / seconds * 1e-9);
  return 0;
}
