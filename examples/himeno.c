/* Himeno benchmark, Jacobi kernel (seed 000 Table 5: size M, 256 x 128 x 128
 * points with x innermost, float, 14 arrays, 34 flops per point), written
 * after the public benchmark's jacobi() with one array per coefficient. The
 * residual `gosa` is a reduction, which the stencil dialect does not express
 * yet; it is computed after the region from the last two iterates instead.
 * Usage: himeno [iterations] */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#ifndef MI
#define MI 128
#endif
#ifndef MJ
#define MJ 128
#endif
#ifndef MK
#define MK 256
#endif

static float p[MI][MJ][MK], bnd[MI][MJ][MK], wrk1[MI][MJ][MK],
    wrk2[MI][MJ][MK];
static float a0[MI][MJ][MK], a1[MI][MJ][MK], a2[MI][MJ][MK], a3[MI][MJ][MK];
static float b0[MI][MJ][MK], b1[MI][MJ][MK], b2[MI][MJ][MK];
static float c0[MI][MJ][MK], c1[MI][MJ][MK], c2[MI][MJ][MK];

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

int main(int argc, char **argv) {
  int i, j, k, n;
  int nn = argc > 1 ? atoi(argv[1]) : 50;
  float omega = 0.8f;

  for (i = 0; i < MI; i++)
    for (j = 0; j < MJ; j++)
      for (k = 0; k < MK; k++) {
        a0[i][j][k] = a1[i][j][k] = a2[i][j][k] = 1.0f;
        a3[i][j][k] = 1.0f / 6.0f;
        b0[i][j][k] = b1[i][j][k] = b2[i][j][k] = 0.0f;
        c0[i][j][k] = c1[i][j][k] = c2[i][j][k] = 1.0f;
        p[i][j][k] = (float)(i * i) / (float)((MI - 1) * (MI - 1));
        wrk1[i][j][k] = 0.0f;
        wrk2[i][j][k] = p[i][j][k];
        bnd[i][j][k] = 1.0f;
      }

  double start = now();
#pragma stencil begin
#pragma stencil step(n:1000)
#pragma stencil data source(float p[MI][MJ][MK], float a0[MI][MJ][MK], float a1[MI][MJ][MK], float a2[MI][MJ][MK], float a3[MI][MJ][MK], float b0[MI][MJ][MK], float b1[MI][MJ][MK], float b2[MI][MJ][MK], float c0[MI][MJ][MK], float c1[MI][MJ][MK], float c2[MI][MJ][MK], float bnd[MI][MJ][MK], float wrk1[MI][MJ][MK]) destination(float wrk2[MI][MJ][MK])
#pragma stencil dimension(i, j, k)
#ifdef DISTRIBUTE /* e.g. -DDISTRIBUTE='block,*' for stencilcc --mpi */
#pragma stencil distribute(DISTRIBUTE)
#endif
  for (n = 0; n < nn; n++) {
#pragma stencil calc
    for (i = 1; i < MI - 1; i++)
      for (j = 1; j < MJ - 1; j++)
        for (k = 1; k < MK - 1; k++) {
          float s0 = a0[i][j][k] * p[i + 1][j][k] +
                     a1[i][j][k] * p[i][j + 1][k] +
                     a2[i][j][k] * p[i][j][k + 1] +
                     b0[i][j][k] * (p[i + 1][j + 1][k] - p[i + 1][j - 1][k] -
                                    p[i - 1][j + 1][k] + p[i - 1][j - 1][k]) +
                     b1[i][j][k] * (p[i][j + 1][k + 1] - p[i][j - 1][k + 1] -
                                    p[i][j + 1][k - 1] + p[i][j - 1][k - 1]) +
                     b2[i][j][k] * (p[i + 1][j][k + 1] - p[i - 1][j][k + 1] -
                                    p[i + 1][j][k - 1] + p[i - 1][j][k - 1]) +
                     c0[i][j][k] * p[i - 1][j][k] +
                     c1[i][j][k] * p[i][j - 1][k] +
                     c2[i][j][k] * p[i][j][k - 1] + wrk1[i][j][k];
          float ss = (s0 * a3[i][j][k] - p[i][j][k]) * bnd[i][j][k];
          wrk2[i][j][k] = p[i][j][k] + omega * ss;
        }
#pragma stencil copy
    for (i = 1; i < MI - 1; i++)
      for (j = 1; j < MJ - 1; j++)
        for (k = 1; k < MK - 1; k++)
          p[i][j][k] = wrk2[i][j][k];
  }
#pragma stencil end
  double seconds = now() - start;

  double checksum = 0.0;
  for (i = 0; i < MI; i++)
    for (j = 0; j < MJ; j++)
      for (k = 0; k < MK; k++)
        checksum += p[i][j][k];
  double flops = 34.0 * (MI - 2) * (MJ - 2) * (MK - 2) * nn;
  printf("himeno %dx%dx%d iterations %d n %d\n", MI, MJ, MK, nn, n);
  printf("checksum %.10e\n", checksum);
  printf("time %.6f s\n", seconds);
  printf("GFLOP/s %.3f\n", flops / seconds * 1e-9);
  return 0;
}
