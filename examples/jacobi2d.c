/* Two-sweep Jacobi in 2-D, written the way PolyBench/C writes its
 * jacobi-2d kernel: a kernel function over fixed-size arrays, a run-time
 * problem size n and step count, and two nests per time step (B from A,
 * then A from B) instead of a copy section. Double precision, 5 points,
 * 5 flops per point and sweep.
 * Usage: jacobi2d [steps [n]]   (n <= N) */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#ifndef N
#define N 2000
#endif

static double A[N][N], B[N][N];

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static void jacobi(int steps, int n, double a[N][N], double b[N][N]) {
  int t, i, j;
#pragma stencil begin
#pragma stencil step(t:500)
#pragma stencil data source(double a[N][N]) destination(double b[N][N])
#pragma stencil dimension(i, j)
#ifdef DISTRIBUTE /* e.g. -DDISTRIBUTE='block,*' for stencilcc --mpi */
#pragma stencil distribute(DISTRIBUTE)
#endif
  for (t = 0; t < steps; t++) {
#pragma stencil calc
    for (i = 1; i < n - 1; i++)
      for (j = 1; j < n - 1; j++)
        b[i][j] = 0.2 * (a[i][j] + a[i][j - 1] + a[i][j + 1] + a[i + 1][j] +
                         a[i - 1][j]);
#pragma stencil calc
    for (i = 1; i < n - 1; i++)
      for (j = 1; j < n - 1; j++)
        a[i][j] = 0.2 * (b[i][j] + b[i][j - 1] + b[i][j + 1] + b[i + 1][j] +
                         b[i - 1][j]);
  }
#pragma stencil end
  printf("loops left t %d i %d j %d\n", t, i, j);
}

int main(int argc, char **argv) {
  int steps = argc > 1 ? atoi(argv[1]) : 100;
  int n = argc > 2 ? atoi(argv[2]) : N;
  if (n < 3 || n > N) {
    fprintf(stderr, "jacobi2d: n must lie in [3, %d]\n", N);
    return 2;
  }
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      A[i][j] = ((double)i * (j + 2) + 2) / N;
      B[i][j] = ((double)i * (j + 3) + 3) / N;
    }

  double start = now();
  jacobi(steps, n, A, B);
  double seconds = now() - start;

  double checksum = 0.0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      checksum += A[i][j] + 0.25 * B[i][j];
  double cells = 2.0 * (n - 2) * (n - 2) * steps;
  printf("jacobi2d n %d steps %d\n", n, steps);
  printf("checksum %.10e\n", checksum);
  printf("time %.6f s\n", seconds);
  printf("GCells/s %.3f\n", cells / seconds * 1e-9);
  return 0;
}
