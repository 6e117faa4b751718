/* Residuals reset every step, as iterative solvers print them: a 2-D and a
 * 3-D Jacobi sweep whose calc also sums the squared change, takes its
 * largest and smallest values, a product and an integer count. The rows
 * are vectors whose partial ends are masked (no integer division), and
 * the values are chosen so that a lane past a row's end (zero) would move
 * every minimum and maximum: the field lies in [0.25, 1.25), the maximum
 * is taken of negated values.
 * -DDIMS=2 or -DDIMS=3 builds one of the two (a --schedule with a work
 * group has the rank of its regions). With -DDISTRIBUTE (stencilcc --mpi)
 * the regions are split across ranks; -DALONG_ROWS makes the 2-D sweep
 * read along its rows only, so that split by rows it needs no halo.
 * Usage: residuals [steps]. */
#include <stdio.h>
#include <stdlib.h>

#ifndef NY
#define NY 45
#endif
#ifndef NX
#define NX 83
#endif
#ifndef NZ
#define NZ 19
#endif

#ifndef DIMS
#define DIMS 0
#endif

static float u2[NY][NX], v2[NY][NX];
static float u3[NZ][NY][NX], v3[NZ][NY][NX];

/* A value in [0.25, 1.25) from a position, the same for every compiler. */
static float field(unsigned x) {
  x = (x ^ 61u) ^ (x >> 16);
  x *= 9u;
  x ^= x >> 4;
  x *= 0x27d4eb2du;
  x ^= x >> 15;
  return 0.25f + (float)(x % 10007u) / 10007.0f;
}

#if DIMS != 3
static void run2(int steps) {
  int i, j, t;
  float res = -1.0f, top = 0.0f, low = 0.0f, prod = 0.0f;
  int above = -1;
  for (j = 0; j < NY; j++)
    for (i = 0; i < NX; i++)
      u2[j][i] = v2[j][i] = field(j * NX + i);
#pragma stencil begin
#pragma stencil step(t:1000)
#pragma stencil data source(float u2[NY][NX]) destination(float v2[NY][NX])
#pragma stencil dimension(j, i)
#ifdef DISTRIBUTE
#pragma stencil distribute(DISTRIBUTE)
#endif
  for (t = 0; t < steps; t++) {
    res = 0.0f;
    top = -1e30f;
    low = 1e30f;
    prod = 1.0f;
    above = 0;
#pragma stencil calc
    for (j = 1; j < NY - 1; j++)
      for (i = 1; i < NX - 1; i++) {
#ifdef ALONG_ROWS
        float n = 0.5f * (u2[j][i - 1] + u2[j][i + 1]);
#else
        float n = 0.25f * (u2[j - 1][i] + u2[j + 1][i] + u2[j][i - 1] +
                           u2[j][i + 1]);
#endif
        float d = n - u2[j][i];
        v2[j][i] = n;
        res += d * d;
        top = -n > top ? -n : top;
        low = n < low ? n : low;
        prod *= 1.0f + 1e-4f * n;
        above += n > 0.75f ? 1 : 0;
      }
#pragma stencil copy
    for (j = 1; j < NY - 1; j++)
      for (i = 1; i < NX - 1; i++)
        u2[j][i] = v2[j][i];
  }
#pragma stencil end
  double checksum = 0;
  for (j = 0; j < NY; j++)
    for (i = 0; i < NX; i++)
      checksum += u2[j][i] + 0.5 * v2[j][i];
  printf("2-D checksum %.10e\n", checksum);
  printf("2-D res %.8e top %.8e low %.8e prod %.8e above %d\n", res, top, low,
         prod, above);
}
#endif

#if DIMS != 2
static void run3(int steps) {
  int i, j, k, t;
  float res = -1.0f, low = 0.0f;
  for (k = 0; k < NZ; k++)
    for (j = 0; j < NY; j++)
      for (i = 0; i < NX; i++)
        u3[k][j][i] = v3[k][j][i] = field((k * NY + j) * NX + i + 5);
#pragma stencil begin
#pragma stencil step(t:1000)
#pragma stencil data source(float u3[NZ][NY][NX]) destination(float v3[NZ][NY][NX])
#pragma stencil dimension(k, j, i)
#ifdef DISTRIBUTE
#pragma stencil distribute(*, block, *)
#endif
  for (t = 0; t < steps; t++) {
    res = 0.0f;
    low = 1e30f;
#pragma stencil calc
    for (k = 1; k < NZ - 1; k++)
      for (j = 1; j < NY - 1; j++)
        for (i = 1; i < NX - 1; i++) {
          float n = (u3[k - 1][j][i] + u3[k + 1][j][i] + u3[k][j - 1][i] +
                     u3[k][j + 1][i] + u3[k][j][i - 1] + u3[k][j][i + 1]) /
                    6.0f;
          float d = n - u3[k][j][i];
          v3[k][j][i] = n;
          res += d * d;
          low = n < low ? n : low;
        }
#pragma stencil copy
    for (k = 1; k < NZ - 1; k++)
      for (j = 1; j < NY - 1; j++)
        for (i = 1; i < NX - 1; i++)
          u3[k][j][i] = v3[k][j][i];
  }
#pragma stencil end
  double checksum = 0;
  for (k = 0; k < NZ; k++)
    for (j = 0; j < NY; j++)
      for (i = 0; i < NX; i++)
        checksum += u3[k][j][i] + 0.5 * v3[k][j][i];
  printf("3-D checksum %.10e\n", checksum);
  printf("3-D res %.8e low %.8e\n", res, low);
}
#endif

int main(int argc, char **argv) {
  int steps = argc > 1 ? atoi(argv[1]) : 5;
#if DIMS != 3
  run2(steps);
#endif
#if DIMS != 2
  run3(steps);
#endif
  return 0;
}
