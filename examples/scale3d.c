/* Heat diffusion in 3-D (7-point stencil) on an N^3 grid that no single
 * node needs to hold: under `stencilcc --mpi` its arrays are resident in
 * the ranks' blocks (docs/MPI.md, "Resident arrays"). The region itself
 * initializes them, runs the time loop, reduces a checksum and writes the
 * result with a collective write, so nothing outside it touches them.
 * Prints the checksum, the time of the region and its speed.
 *
 * Usage: scale3d [N [STEPS [FILE]]]   (default 128 20; FILE: the final
 * array A, N^3 floats in C order, when given)
 *
 *   stencilcc --mpi examples/scale3d.c -o scale3d
 *   mpirun -np 4 ./scale3d 512 20 A.raw
 *
 * Compiled as plain C (the pragmas ignored) A and B are variable-length
 * arrays on the stack: raise the stack limit (ulimit -s unlimited) beyond
 * N = 100 or so. Under --mpi their definitions are dropped and each rank
 * allocates its block plus halo. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "stencil_io.h"

#ifndef DISTRIBUTE
#define DISTRIBUTE block, block, *
#endif

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static int run(int n, int steps, const char *file) {
  int i, j, k, t;
  double checksum;
  float A[n][n][n], B[n][n][n];

  double start = now();
#pragma stencil begin
#pragma stencil step(t:100)
#pragma stencil data source(float A[n][n][n]) destination(float B[n][n][n])
#pragma stencil dimension(i, j, k)
#pragma stencil distribute(DISTRIBUTE) resident
#pragma stencil calc
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      for (k = 0; k < n; k++) {
        A[i][j][k] = (float)((i * 7 + j * 3 + k) % 17) / 17.0f;
        B[i][j][k] = A[i][j][k];
      }
  for (t = 0; t < steps; t++) {
#pragma stencil calc
    for (i = 1; i < n - 1; i++)
      for (j = 1; j < n - 1; j++)
        for (k = 1; k < n - 1; k++)
          B[i][j][k] = 0.4f * A[i][j][k] +
                       0.1f * (A[i - 1][j][k] + A[i + 1][j][k] +
                               A[i][j - 1][k] + A[i][j + 1][k] +
                               A[i][j][k - 1] + A[i][j][k + 1]);
#pragma stencil copy
    for (i = 1; i < n - 1; i++)
      for (j = 1; j < n - 1; j++)
        for (k = 1; k < n - 1; k++)
          A[i][j][k] = B[i][j][k];
  }
  checksum = 0.0;
#pragma stencil calc
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      for (k = 0; k < n; k++)
        checksum += A[i][j][k] + 0.5 * B[i][j][k];
  if (file)
    stencil_write_raw(A, file);
#pragma stencil end
  double seconds = now() - start;

  double cells = (double)(n - 2) * (n - 2) * (n - 2) * steps;
  printf("scale3d %d^3 steps %d\n", n, steps);
  printf("checksum %.10e\n", checksum);
  printf("time %.6f s\n", seconds);
  printf("GCells/s %.3f\n", seconds > 0 ? cells / seconds * 1e-9 : 0.0);
  return 0;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 128;
  int steps = argc > 2 ? atoi(argv[2]) : 20;
  if (n < 3 || steps < 0) {
    fprintf(stderr, "usage: scale3d [N [STEPS [FILE]]] with N >= 3\n");
    return 1;
  }
  return run(n, steps, argc > 3 ? argv[3] : NULL);
}
