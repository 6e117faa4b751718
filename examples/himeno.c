/* Himeno benchmark in the shape of RIKEN's static-array C version 3.0:
 * a Jacobi point iteration for a pressure Poisson equation, 19-point
 * stencil, 34 floating-point operations per point, with the coefficient
 * arrays a[4], b[3], c[3] of RIKEN's code, the loop bounds imax-1, jmax-1,
 * kmax-1 set at run time, and the residual gosa summed in the loop nest.
 * The jacobi() loop is written as RIKEN writes it (C89 temporaries
 * declared at the top, gosa reset at the start of each iteration); the
 * `#pragma stencil` lines around it are all this compiler needs.
 *
 * Usage: himeno [iterations [size]]
 *   size: XS (32x32x64), S (64x64x128), M (128x128x256), L (256x256x512) as
 *   RIKEN's set_param chooses them, or `max` for the arrays' capacity
 *   MIMAX x MJMAX x MKMAX (compile-time macros, size M by default). The
 *   default is the largest preset that fits, else `max`. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef MIMAX
#define MIMAX 129
#endif
#ifndef MJMAX
#define MJMAX 129
#endif
#ifndef MKMAX
#define MKMAX 257
#endif

static float p[MIMAX][MJMAX][MKMAX];
static float a[4][MIMAX][MJMAX][MKMAX], b[3][MIMAX][MJMAX][MKMAX],
    c[3][MIMAX][MJMAX][MKMAX];
static float bnd[MIMAX][MJMAX][MKMAX];
static float wrk1[MIMAX][MJMAX][MKMAX], wrk2[MIMAX][MJMAX][MKMAX];

static int imax, jmax, kmax;
static float omega;

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

/* Sets imax, jmax, kmax for a size name (RIKEN's mimax - 1, ...): 1 when
 * done, 0 for a size larger than the arrays, -1 for an unknown name. */
static int set_param(const char *size) {
  static const struct {
    const char *name;
    int mi, mj, mk;
  } sizes[] = {{"XS", 33, 33, 65},
               {"S", 65, 65, 129},
               {"M", 129, 129, 257},
               {"L", 257, 257, 513}};
  int mi = 0, mj = 0, mk = 0;
  if (strcmp(size, "max") == 0) {
    mi = MIMAX, mj = MJMAX, mk = MKMAX;
  } else {
    for (unsigned s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
      if (strcmp(size, sizes[s].name) == 0)
        mi = sizes[s].mi, mj = sizes[s].mj, mk = sizes[s].mk;
    if (mi == 0)
      return -1;
  }
  if (mi > MIMAX || mj > MJMAX || mk > MKMAX)
    return 0;
  imax = mi - 1;
  jmax = mj - 1;
  kmax = mk - 1;
  return 1;
}

static void initmt(void) {
  int i, j, k;
  for (i = 0; i < MIMAX; i++)
    for (j = 0; j < MJMAX; j++)
      for (k = 0; k < MKMAX; k++) {
        a[0][i][j][k] = a[1][i][j][k] = a[2][i][j][k] = 0.0f;
        a[3][i][j][k] = 0.0f;
        b[0][i][j][k] = b[1][i][j][k] = b[2][i][j][k] = 0.0f;
        c[0][i][j][k] = c[1][i][j][k] = c[2][i][j][k] = 0.0f;
        p[i][j][k] = wrk1[i][j][k] = wrk2[i][j][k] = bnd[i][j][k] = 0.0f;
      }
  for (i = 0; i < imax; i++)
    for (j = 0; j < jmax; j++)
      for (k = 0; k < kmax; k++) {
        a[0][i][j][k] = a[1][i][j][k] = a[2][i][j][k] = 1.0f;
        a[3][i][j][k] = 1.0f / 6.0f;
        b[0][i][j][k] = b[1][i][j][k] = b[2][i][j][k] = 0.0f;
        c[0][i][j][k] = c[1][i][j][k] = c[2][i][j][k] = 1.0f;
        p[i][j][k] = (float)(i * i) / (float)((imax - 1) * (imax - 1));
        wrk1[i][j][k] = 0.0f;
        bnd[i][j][k] = 1.0f;
      }
}

static float jacobi(int nn) {
  int i, j, k, n;
  float gosa = 0.0f, s0, ss;

#pragma stencil begin
#pragma stencil step(n:1000)
#pragma stencil data source(float p[MIMAX][MJMAX][MKMAX], float a[4][MIMAX][MJMAX][MKMAX], float b[3][MIMAX][MJMAX][MKMAX], float c[3][MIMAX][MJMAX][MKMAX], float bnd[MIMAX][MJMAX][MKMAX], float wrk1[MIMAX][MJMAX][MKMAX]) destination(float wrk2[MIMAX][MJMAX][MKMAX])
#pragma stencil dimension(i, j, k)
#ifdef DISTRIBUTE /* e.g. -DDISTRIBUTE='block,*,*' for stencilcc --mpi */
#pragma stencil distribute(DISTRIBUTE)
#endif
  for (n = 0; n < nn; ++n) {
    gosa = 0.0;

#pragma stencil calc
    for (i = 1; i < imax - 1; i++)
      for (j = 1; j < jmax - 1; j++)
        for (k = 1; k < kmax - 1; k++) {
          s0 = a[0][i][j][k] * p[i + 1][j][k] +
               a[1][i][j][k] * p[i][j + 1][k] +
               a[2][i][j][k] * p[i][j][k + 1] +
               b[0][i][j][k] * (p[i + 1][j + 1][k] - p[i + 1][j - 1][k] -
                                p[i - 1][j + 1][k] + p[i - 1][j - 1][k]) +
               b[1][i][j][k] * (p[i][j + 1][k + 1] - p[i][j - 1][k + 1] -
                                p[i][j + 1][k - 1] + p[i][j - 1][k - 1]) +
               b[2][i][j][k] * (p[i + 1][j][k + 1] - p[i - 1][j][k + 1] -
                                p[i + 1][j][k - 1] + p[i - 1][j][k - 1]) +
               c[0][i][j][k] * p[i - 1][j][k] +
               c[1][i][j][k] * p[i][j - 1][k] +
               c[2][i][j][k] * p[i][j][k - 1] + wrk1[i][j][k];

          ss = (s0 * a[3][i][j][k] - p[i][j][k]) * bnd[i][j][k];

          gosa += ss * ss;

          wrk2[i][j][k] = p[i][j][k] + omega * ss;
        }

#pragma stencil copy
    for (i = 1; i < imax - 1; i++)
      for (j = 1; j < jmax - 1; j++)
        for (k = 1; k < kmax - 1; k++)
          p[i][j][k] = wrk2[i][j][k];
  }
#pragma stencil end

  return gosa;
}

int main(int argc, char **argv) {
  int nn = argc > 1 ? atoi(argv[1]) : 50;
  const char *size = argc > 2 ? argv[2] : NULL;
  if (!size) {
    static const char *presets[] = {"L", "M", "S", "XS", "max"};
    for (unsigned s = 0; !size; s++)
      if (set_param(presets[s]) == 1)
        size = presets[s];
  } else {
    int set = set_param(size);
    if (set < 0) {
      fprintf(stderr, "himeno: unknown size '%s'; use XS, S, M, L or max\n",
              size);
      return 1;
    }
    if (set == 0) {
      fprintf(stderr,
              "himeno: size %s exceeds the arrays (%dx%dx%d); rebuild with "
              "larger -DMIMAX -DMJMAX -DMKMAX\n",
              size, MIMAX, MJMAX, MKMAX);
      return 1;
    }
  }
  omega = 0.8f;
  initmt();

  double start = now();
  float gosa = jacobi(nn);
  double seconds = now() - start;

  double checksum = 0.0;
  int i, j, k;
  for (i = 0; i < MIMAX; i++)
    for (j = 0; j < MJMAX; j++)
      for (k = 0; k < MKMAX; k++)
        checksum += p[i][j][k];
  double flops = 34.0 * (imax - 2) * (jmax - 2) * (kmax - 2) * nn;
  printf("himeno %dx%dx%d grid %dx%dx%d iterations %d\n", MIMAX, MJMAX, MKMAX,
         imax, jmax, kmax, nn);
  printf("gosa %.7e\n", gosa);
  printf("checksum %.15e\n", checksum);
  printf("time %.6f s\n", seconds);
  printf("GFLOP/s %.3f\n", flops / seconds * 1e-9);
  return 0;
}
