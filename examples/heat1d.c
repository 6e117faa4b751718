/* Heat diffusion in 1-D, 3-point stencil (seed 000 Table 5: 2^22 points,
 * float). Usage: heat1d [steps] */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#ifndef N
#define N 4194304
#endif

static float A[N], B[N];

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

int main(int argc, char **argv) {
  int i, t;
  int total_step = argc > 1 ? atoi(argv[1]) : 100;
  float alpha = 0.25f;

  for (i = 0; i < N; i++) {
    A[i] = (float)(i % 29) / 29.0f;
    B[i] = A[i];
  }

  double start = now();
#pragma stencil begin
#pragma stencil step(t:1000)
#pragma stencil data source(float A[N]) destination(float B[N])
#pragma stencil dimension(i)
#ifdef DISTRIBUTE /* e.g. -DDISTRIBUTE=block for stencilcc --mpi */
#pragma stencil distribute(DISTRIBUTE)
#endif
  for (t = 0; t < total_step; t++) {
#pragma stencil calc
    for (i = 1; i < N - 1; i++)
      B[i] = (1.0f - 2.0f * alpha) * A[i] + alpha * (A[i - 1] + A[i + 1]);
#pragma stencil copy
    for (i = 1; i < N - 1; i++)
      A[i] = B[i];
  }
#pragma stencil end
  double seconds = now() - start;

  double checksum = 0.0;
  for (i = 0; i < N; i++)
    checksum += A[i] + 0.5 * B[i];
  double cells = (double)(N - 2) * total_step;
  printf("heat1d %d steps %d t %d i %d\n", N, total_step, t, i);
  printf("checksum %.10e\n", checksum);
  printf("time %.6f s\n", seconds);
  printf("GCells/s %.3f\n", cells / seconds * 1e-9);
  return 0;
}
