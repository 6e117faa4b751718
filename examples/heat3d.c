/* Heat diffusion in 3-D, 7-point stencil (seed 000 Fig. 5 and Table 5:
 * 256^3 points, float). Prints a checksum of the result, the time of the
 * stencil region and its speed. Usage: heat3d [steps] */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#ifndef NX
#define NX 256
#endif
#ifndef NY
#define NY 256
#endif
#ifndef NZ
#define NZ 256
#endif
#define C_0 0.4f
#define C_1 0.1f

static float A[NZ][NY][NX], B[NZ][NY][NX];

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

int main(int argc, char **argv) {
  int i, j, k, t;
  int total_step = argc > 1 ? atoi(argv[1]) : 100;

  for (i = 0; i < NZ; i++)
    for (j = 0; j < NY; j++)
      for (k = 0; k < NX; k++) {
        A[i][j][k] = (float)((i * 7 + j * 3 + k) % 17) / 17.0f;
        B[i][j][k] = A[i][j][k];
      }

  double start = now();
#pragma stencil begin
#pragma stencil step(t:1000)
#pragma stencil data source(float A[NZ][NY][NX]) destination(float B[NZ][NY][NX])
#pragma stencil dimension(i, j, k)
#ifdef DISTRIBUTE /* e.g. -DDISTRIBUTE='block,*' for stencilcc --mpi */
#pragma stencil distribute(DISTRIBUTE)
#endif
  for (t = 0; t < total_step; t++) {
#pragma stencil calc
    for (i = 1; i < NZ - 1; i++)
      for (j = 1; j < NY - 1; j++)
        for (k = 1; k < NX - 1; k++)
          B[i][j][k] = C_0 * A[i][j][k] +
                       C_1 * (A[i - 1][j][k] + A[i + 1][j][k] +
                              A[i][j - 1][k] + A[i][j + 1][k] +
                              A[i][j][k - 1] + A[i][j][k + 1]);
#pragma stencil copy
    for (i = 1; i < NZ - 1; i++)
      for (j = 1; j < NY - 1; j++)
        for (k = 1; k < NX - 1; k++)
          A[i][j][k] = B[i][j][k];
  }
#pragma stencil end
  double seconds = now() - start;

  double checksum = 0.0;
  for (i = 0; i < NZ; i++)
    for (j = 0; j < NY; j++)
      for (k = 0; k < NX; k++)
        checksum += A[i][j][k] + 0.5 * B[i][j][k];
  double cells = (double)(NZ - 2) * (NY - 2) * (NX - 2) * total_step;
  printf("heat3d %dx%dx%d steps %d t %d i %d j %d k %d\n", NZ, NY, NX,
         total_step, t, i, j, k);
  printf("checksum %.10e\n", checksum);
  printf("time %.6f s\n", seconds);
  printf("GCells/s %.3f\n", cells / seconds * 1e-9);
  return 0;
}
