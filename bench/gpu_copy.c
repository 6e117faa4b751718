/* The device's copy bandwidth, measured with our own kernel: a 2-D region
 * whose calc copies A into B (one read and one write of 4 bytes per cell).
 * The copy section is the pointer swap of the GPU lowering, so each step
 * is one kernel that moves 8 bytes per cell. Prints GCells/s like the
 * examples; bench/gpu.sh turns it into GB/s.
 * Usage: gpu_copy [steps] */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#ifndef N
#define N 4096
#endif

static float A[N][N], B[N][N];

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

int main(int argc, char **argv) {
  int i, j, t;
  int steps = argc > 1 ? atoi(argv[1]) : 100;
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      A[i][j] = B[i][j] = (float)((i + j) % 13);
  double start = now();
#pragma stencil begin
#pragma stencil step(t : 100000)
#pragma stencil data source(float A[N][N]) destination(float B[N][N])
#pragma stencil dimension(i, j)
  for (t = 0; t < steps; t++) {
#pragma stencil calc
    for (i = 0; i < N; i++)
      for (j = 0; j < N; j++)
        B[i][j] = A[i][j];
#pragma stencil copy
    for (i = 0; i < N; i++)
      for (j = 0; j < N; j++)
        A[i][j] = B[i][j];
  }
#pragma stencil end
  double seconds = now() - start;
  double checksum = 0;
  for (i = 0; i < N; i += 7)
    checksum += A[i][i] + B[i][N - 1 - i];
  printf("checksum %.6e\n", checksum);
  printf("time %.6f s\n", seconds);
  printf("GCells/s %.3f\n", (double)N * N * steps / seconds * 1e-9);
  return 0;
}
