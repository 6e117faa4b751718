/* slices.c in plain C: the same sweeps, in the same order. */
#include <stdio.h>
#include <stdlib.h>

#define NX 12
#define NY 9
#define NZ 7
#define A(g, x, y, z) g[((size_t)(z) * NY + (y)) * NX + (x)]

static double force[NY][NX];

static void drive(const double *in, double *out, const double *wall) {
  int x, y, z;
  for (z = 1; z < NZ - 1; ++z)
    for (y = 1; y < NY - 2; ++y)
      for (x = 1; x < NX - 1; ++x) {
        double side = A(in, x - 1, y, z) + A(in, x + 1, y, z) +
                      A(in, x, y - 1, z) + A(in, x, y + 1, z) +
                      A(in, x, y, z - 1) + A(in, x, y, z + 1);
        A(out, x, y, z) = 0.4 * A(in, x, y, z) + 0.1 * side +
                          0.01 * force[y + 1][x] -
                          0.02 * A(wall, 2, y, NZ - 1) +
                          0.001 * A(wall, x, y, z) +
                          0.003 * A(wall, x, y, NZ - 1 - z);
      }
}

int main(int argc, char *argv[]) {
  int steps = argc > 1 ? atoi(argv[1]) : 4, s, x, y;
  size_t n = (size_t)NX * NY * NZ, i;
  double *a = (double *)malloc(n * sizeof(double));
  double *b = (double *)malloc(n * sizeof(double));
  double *wall = (double *)malloc(n * sizeof(double));
  for (i = 0; i < n; ++i) {
    a[i] = b[i] = (double)((i * 7) % 19) / 19.0;
    wall[i] = (double)((i * 3) % 23) / 23.0;
  }
  for (i = 0; i < (size_t)NX * NY; ++i)
    force[i / NX][i % NX] = 1.0 + (double)(i % 13) / 8.0;
  for (s = 0; s < steps; ++s) {
    drive(a, b, wall);
    drive(b, a, wall);
  }
  double sum = 0;
  for (i = 0; i < n; ++i)
    sum += a[i] * (double)(i % 5 + 1);
  printf("checksum %.15e\n", sum);

  float p[8][10], q[8][10] = {{0}};
  for (i = 0; i < 10 * 8; ++i)
    p[i / 10][i % 10] = (float)((i * 5) % 11);
  for (y = 1; y < 7; ++y)
    for (x = 1; x < 10; ++x)
      q[y][x] = p[y][x] + 0.5f * (p[y - 1][0] - p[y + 1][0]) +
                0.25f * (p[y][9 - x] + p[y + 1][10 - x]);
  for (i = 0; i < 10 * 8; ++i)
    printf("%g%c", q[i / 10][i % 10], i % 10 == 9 ? '\n' : ' ');
  free(a);
  free(b);
  free(wall);
  return 0;
}
