/* Heat diffusion in 2-D, 5-point stencil (seed 000 Table 5: 2048 x 2048
 * points, float). Usage: heat2d [steps] */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#ifndef N
#define N 2048
#endif

static float A[N][N], B[N][N];

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

int main(int argc, char **argv) {
  int i, j, t;
  int total_step = argc > 1 ? atoi(argv[1]) : 100;
  const float c0 = 0.6f, c1 = 0.1f;

  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++) {
      A[i][j] = (float)((i * 5 + j * 11) % 23) / 23.0f;
      B[i][j] = A[i][j];
    }

  double start = now();
#pragma stencil begin
#pragma stencil step(t:1000)
#pragma stencil data source(float A[N][N]) destination(float B[N][N])
#pragma stencil dimension(i, j)
#ifdef DISTRIBUTE /* e.g. -DDISTRIBUTE='block,*' for stencilcc --mpi */
#pragma stencil distribute(DISTRIBUTE)
#endif
  for (t = 0; t < total_step; t++) {
#pragma stencil calc
    for (i = 1; i < N - 1; i++)
      for (j = 1; j < N - 1; j++)
        B[i][j] = c0 * A[i][j] +
                  c1 * (A[i - 1][j] + A[i + 1][j] + A[i][j - 1] + A[i][j + 1]);
#pragma stencil copy
    for (i = 1; i < N - 1; i++)
      for (j = 1; j < N - 1; j++)
        A[i][j] = B[i][j];
  }
#pragma stencil end
  double seconds = now() - start;

  double checksum = 0.0;
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      checksum += A[i][j] + 0.5 * B[i][j];
  double cells = (double)(N - 2) * (N - 2) * total_step;
  printf("heat2d %dx%d steps %d t %d i %d j %d\n", N, N, total_step, t, i, j);
  printf("checksum %.10e\n", checksum);
  printf("time %.6f s\n", seconds);
  printf("GCells/s %.3f\n", cells / seconds * 1e-9);
  return 0;
}
