/* tables.c in plain C: the same sweeps, in the same order. */
#include <stdio.h>
#include <stdlib.h>

#define NX 19
#define NY 14
#define NZ 11
#define MX 23
#define MY 17
#define A3(g, x, y, z) g[((size_t)(z) * NY + (y)) * NX + (x)]
#define A2(g, x, y) g[(size_t)(y) * MX + (x)]

static double rx[NX + 1], ry[NY - 1], rz[NZ], depth[NY][NX], damp[NX][NZ];
static float k[MX + 1];

static void diffuse(const double *in, double *out, double nu) {
  int x, y, z;
  for (z = 1; z < NZ - 1; ++z)
    for (y = 1; y < NY - 1; ++y)
      for (x = 1; x < NX - 1; ++x) {
        double c = A3(in, x, y, z);
        double dx = (A3(in, x + 1, y, z) - c) * rx[x + 1] -
                    (c - A3(in, x - 1, y, z)) * rx[x];
        double dy = (A3(in, x, y + 1, z) - c) * ry[y] -
                    (c - A3(in, x, y - 1, z)) * ry[y - 1];
        double dz = (A3(in, x, y, z + 1) - c) * rz[z] -
                    (c - A3(in, x, y, z - 1)) * rz[z - 1];
        double v = c + nu * depth[y][x] * (dx + dy + dz);
        if (y == NY - 2)
          v = v * damp[x][z];
        A3(out, x, y, z) = v;
      }
}

static void filter(const float *in, float *out) {
  int x, y;
  for (y = 0; y < MY - 2; ++y)
    for (x = 2; x < MX - 1; ++x)
      A2(out, x, y) = A2(in, x, y) * k[y] + A2(in, x - 2, y) * k[y + 2] +
                      A2(in, x + 1, y) * k[x - 1];
}

int main(int argc, char *argv[]) {
  int steps = argc > 1 ? atoi(argv[1]) : 4, s;
  size_t n = (size_t)NX * NY * NZ, i;
  double *a = (double *)malloc(n * sizeof(double));
  double *b = (double *)malloc(n * sizeof(double));
  for (i = 0; i < n; ++i)
    a[i] = b[i] = (double)((i * 7) % 29) / 29.0;
  for (i = 0; i < NX + 1; ++i)
    rx[i] = 1.0 / (1.0 + 0.05 * (double)i);
  for (i = 0; i < NY - 1; ++i)
    ry[i] = 1.0 / (0.8 + 0.03 * (double)(i * i % 7));
  for (i = 0; i < NZ; ++i)
    rz[i] = 1.2 - 0.04 * (double)i;
  for (i = 0; i < (size_t)NX * NY; ++i)
    depth[i / NX][i % NX] = 0.5 + (double)(i % 11) / 40.0;
  for (i = 0; i < (size_t)NZ * NX; ++i)
    damp[i / NZ][i % NZ] = 0.9 + (double)(i % 5) / 50.0;
  for (s = 0; s < steps; ++s) {
    diffuse(a, b, 0.1);
    diffuse(b, a, 0.1);
  }
  double sum = 0;
  for (i = 0; i < n; ++i)
    sum += a[i] * (double)(i % 5 + 1);
  printf("checksum %.15e\n", sum);
  printf("centre %.15e\n",
         a[(size_t)NZ / 2 * NX * NY + (size_t)(NY - 2) * NX + NX / 2]);

  float *p = (float *)malloc((size_t)MX * MY * sizeof(float));
  float *q = (float *)malloc((size_t)MX * MY * sizeof(float));
  for (i = 0; i < (size_t)MX * MY; ++i)
    p[i] = q[i] = (float)((i * 5) % 13) / 13.0f;
  for (i = 0; i < MX + 1; ++i)
    k[i] = 0.25f + (float)(i % 4) / 16.0f;
  for (s = 0; s < steps; ++s) {
    filter(p, q);
    filter(q, p);
  }
  double fsum = 0;
  for (i = 0; i < (size_t)MX * MY; ++i)
    fsum += p[i] * (double)(i % 3 + 1);
  printf("filter %.9e\n", fsum);
  free(a);
  free(b);
  free(p);
  free(q);
  return 0;
}
