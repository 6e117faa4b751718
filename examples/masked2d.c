/* A masked 2-D diffusion with a coordinate-dependent source: the cells of
 * a window in the middle of the plate diffuse, except a lattice of pins
 * chosen from their coordinates; a heat source that depends on the cell's
 * coordinates (i*j % 13) switches sign with the step. The loop indices and
 * the step variable are values here, and the calc body branches.
 * Double precision. Usage: masked2d [steps [n]]   (n <= N) */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#ifndef N
#define N 1024
#endif

static double A[N][N], B[N][N];

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static void diffuse(int steps, int n, double a[N][N], double b[N][N]) {
  const double nu = 0.2, dt = 0.01, h = 0.5;
  int t, i, j;
#pragma stencil begin
#pragma stencil step(t:1000)
#pragma stencil data source(double a[N][N]) destination(double b[N][N])
#pragma stencil dimension(i, j)
#ifdef DISTRIBUTE /* e.g. -DDISTRIBUTE='block,*' for stencilcc --mpi */
#pragma stencil distribute(DISTRIBUTE)
#endif
  for (t = 0; t < steps; t++) {
#pragma stencil calc
    for (i = 1; i < n - 1; i++)
      for (j = 1; j < n - 1; j++) {
        int inside = i > n / 4 && i < 3 * n / 4 && j > n / 4 && j < 3 * n / 4;
        int pinned = ((i >> 2) & 3) == 0 && (j ^ i) % 5 == 0;
        if (inside && !pinned) {
          double source = dt * h * (double)(i * j % 13) * (t % 2 ? 1.0 : -1.0);
          b[i][j] = a[i][j] +
                    nu * (a[i - 1][j] + a[i + 1][j] + a[i][j - 1] +
                          a[i][j + 1] - 4.0 * a[i][j]) +
                    source;
        } else {
          b[i][j] = a[i][j];
        }
      }
#pragma stencil copy
    for (i = 1; i < n - 1; i++)
      for (j = 1; j < n - 1; j++)
        a[i][j] = b[i][j];
  }
#pragma stencil end
  printf("loops left t %d i %d j %d\n", t, i, j);
}

int main(int argc, char **argv) {
  int steps = argc > 1 ? atoi(argv[1]) : 100;
  int n = argc > 2 ? atoi(argv[2]) : N;
  if (n < 3 || n > N) {
    fprintf(stderr, "masked2d: n must lie in [3, %d]\n", N);
    return 2;
  }
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      A[i][j] = B[i][j] = (double)((i * 5 + j * 11) % 23) / 23.0;

  double start = now();
  diffuse(steps, n, A, B);
  double seconds = now() - start;

  double checksum = 0.0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      checksum += A[i][j] + 0.5 * B[i][j];
  double cells = (double)(n - 2) * (n - 2) * steps;
  printf("masked2d n %d steps %d\n", n, steps);
  printf("checksum %.10e\n", checksum);
  printf("time %.6f s\n", seconds);
  printf("GCells/s %.3f\n", cells / seconds * 1e-9);
  return 0;
}
