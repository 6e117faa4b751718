/* Every reduction form and type of the importer, on a 1-, a 2- and a 3-D
 * grid: float, double, int and long; sums, products, minima and maxima;
 * variables reset at the top of each step and variables that accumulate
 * across steps. The 2-D region resets all its variables, so time blocks
 * apply to it; the others carry values from step to step.
 * Usage: reductions [steps]. Prints each variable; `checksum` lines sum the
 * arrays. With -DDISTRIBUTE (stencilcc --mpi) the regions are split across
 * ranks. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define N1 5003
#define N2Y 97
#define N2X 131
#define N3Z 23
#define N3Y 29
#define N3X 37

static float a1[N1], b1[N1];
static double a2[N2Y][N2X], b2[N2Y][N2X];
static float a3[N3Z][N3Y][N3X], b3[N3Z][N3Y][N3X];

/* A value in [0, 1) from a position, the same for every compiler. */
static double hash(unsigned x) {
  x = (x ^ 61u) ^ (x >> 16);
  x *= 9u;
  x ^= x >> 4;
  x *= 0x27d4eb2du;
  x ^= x >> 15;
  return (x % 10007u) / 10007.0;
}

static void run1(int steps) {
  int i, t;
  float fsum = 123.0f, fmx = 0.0f;
  double dsum = 0.5, dmn = 2.0;
  long lsum = -7;
  int icount = 3;
  for (i = 0; i < N1; i++)
    a1[i] = b1[i] = (float)hash(i);
#pragma stencil begin
#pragma stencil step(t:100)
#pragma stencil data source(float a1[N1]) destination(float b1[N1])
#pragma stencil dimension(i)
#ifdef DISTRIBUTE
#pragma stencil distribute(block)
#endif
  for (t = 0; t < steps; t++) {
    fsum = 0.0f;
    fmx = -1e30f;
    icount = 0;
#pragma stencil calc
    for (i = 1; i < N1 - 1; i++) {
      float v = 0.25f * a1[i - 1] + 0.5f * a1[i] + 0.25f * a1[i + 1];
      float d = a1[i + 1] - a1[i - 1];
      long k = (long)(v * 1000.0f);
      b1[i] = v;
      fsum += d * d;
      fmx = fmaxf(fmx, d);
      dsum -= 0.5 * v;
      dmn = dmn < v ? dmn : v;
      lsum += k;
      icount += (int)(v * 4.0f) > 1 ? 1 : 0;
    }
#pragma stencil copy
    for (i = 1; i < N1 - 1; i++)
      a1[i] = b1[i];
  }
#pragma stencil end
  double checksum = 0;
  for (i = 0; i < N1; i++)
    checksum += a1[i] + 2.0 * b1[i];
  printf("1-D checksum %.10e\n", checksum);
  printf("1-D fsum %.8e fmx %.8e dsum %.15e dmn %.15e\n", fsum, fmx, dsum,
         dmn);
  printf("1-D lsum %ld icount %d t %d i %d\n", lsum, icount, t, i);
}

static void run2(int steps) {
  int i, j, t;
  double dsum = 1.0, dprod = 1.0, dmx = 0.0;
  float fmn = 0.0f;
  int imin = 0, isum = 0;
  long lmax = 0;
  for (j = 0; j < N2Y; j++)
    for (i = 0; i < N2X; i++)
      a2[j][i] = b2[j][i] = hash(j * N2X + i + 1);
#pragma stencil begin
#pragma stencil step(t:100)
#pragma stencil data source(double a2[N2Y][N2X]) destination(double b2[N2Y][N2X])
#pragma stencil dimension(j, i)
#ifdef DISTRIBUTE
#pragma stencil distribute(block, block)
#endif
  for (t = 0; t < steps; t++) {
    dsum = 0;
    dprod = 1.0;
    dmx = -1.0;
    fmn = 1e30f;
    imin = 1000000;
    isum = 0;
    lmax = -1;
#pragma stencil calc
    for (j = 1; j < N2Y - 1; j++)
      for (i = 1; i < N2X - 1; i++) {
        double v = 0.2 * (a2[j][i] + a2[j - 1][i] + a2[j + 1][i] +
                          a2[j][i - 1] + a2[j][i + 1]);
        int k = (int)(v * 10000.0);
        b2[j][i] = v;
        dsum = dsum + (v - a2[j][i]) * (v - a2[j][i]);
        dprod = dprod * (1.0 + 1e-5 * v);
        dmx = v > dmx ? v : dmx;
        fmn = fminf(fmn, (float)v);
        imin = k < imin ? k : imin;
        isum += k % 7;
        isum -= 1;
        lmax = lmax > k ? lmax : k;
      }
#pragma stencil copy
    for (j = 1; j < N2Y - 1; j++)
      for (i = 1; i < N2X - 1; i++)
        a2[j][i] = b2[j][i];
  }
#pragma stencil end
  double checksum = 0;
  for (j = 0; j < N2Y; j++)
    for (i = 0; i < N2X; i++)
      checksum += a2[j][i] + 2.0 * b2[j][i];
  printf("2-D checksum %.10e\n", checksum);
  printf("2-D dsum %.15e dprod %.15e dmx %.15e fmn %.8e\n", dsum, dprod, dmx,
         fmn);
  printf("2-D imin %d isum %d lmax %ld t %d\n", imin, isum, lmax, t);
}

static void run3(int steps) {
  int i, j, k, t;
  float fprod = 1.0f, fsum = 0.0f;
  double dmn = 0.0;
  long lsum = 0;
  int imax = 0;
  for (k = 0; k < N3Z; k++)
    for (j = 0; j < N3Y; j++)
      for (i = 0; i < N3X; i++)
        a3[k][j][i] = b3[k][j][i] = (float)hash((k * N3Y + j) * N3X + i + 7);
#pragma stencil begin
#pragma stencil step(t:100)
#pragma stencil data source(float a3[N3Z][N3Y][N3X]) destination(float b3[N3Z][N3Y][N3X])
#pragma stencil dimension(k, j, i)
#ifdef DISTRIBUTE
#pragma stencil distribute(*, block, block)
#endif
  for (t = 0; t < steps; t++) {
    fprod = 1.0f;
    dmn = 1e300;
#pragma stencil calc
    for (k = 1; k < N3Z - 1; k++)
      for (j = 1; j < N3Y - 1; j++)
        for (i = 1; i < N3X - 1; i++) {
          float v = (a3[k - 1][j][i] + a3[k + 1][j][i] + a3[k][j - 1][i] +
                     a3[k][j + 1][i] + a3[k][j][i - 1] + a3[k][j][i + 1]) /
                    6.0f;
          int q = (int)(v * 100.0f);
          b3[k][j][i] = v;
          fprod *= 1.0f + 1e-6f * v;
          fsum = v * v + fsum;
          dmn = v <= dmn ? v : dmn;
          lsum += q;
          imax = q > imax ? q : imax;
        }
#pragma stencil copy
    for (k = 1; k < N3Z - 1; k++)
      for (j = 1; j < N3Y - 1; j++)
        for (i = 1; i < N3X - 1; i++)
          a3[k][j][i] = b3[k][j][i];
  }
#pragma stencil end
  double checksum = 0;
  for (k = 0; k < N3Z; k++)
    for (j = 0; j < N3Y; j++)
      for (i = 0; i < N3X; i++)
        checksum += a3[k][j][i] + 2.0 * b3[k][j][i];
  printf("3-D checksum %.10e\n", checksum);
  printf("3-D fprod %.8e fsum %.8e dmn %.15e\n", fprod, fsum, dmn);
  printf("3-D lsum %ld imax %d t %d\n", lsum, imax, t);
}

int main(int argc, char **argv) {
  int steps = argc > 1 ? atoi(argv[1]) : 7;
  run1(steps);
  run2(steps);
  run3(steps);
  return 0;
}
