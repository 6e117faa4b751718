/* sizes.c in plain C: the same sweeps, in the same order. */
#include <stdio.h>
#include <stdlib.h>

#define NX 13
#define NY 10
#define NZ 9
#define A(g, x, y, z) g[((size_t)(z) * NY + (y)) * NX + (x)]
#define FACE(x, y, z) face[(size_t)(z) * NY + (y)]
#define PART(x, y, z) part[((size_t)(z) * (NY - 3) + (y)) * NX + (x)]

static void relax(const float *in, float *out) {
  int x, y, z;
  for (z = 1; z < NZ - 1; ++z)
    for (y = 1; y < NY - 1; ++y)
      for (x = 1; x < NX - 1; ++x) {
        float side = A(in, x - 1, y, z) + A(in, x + 1, y, z) +
                     A(in, x, y - 1, z) + A(in, x, y + 1, z) +
                     A(in, x, y, z - 1) + A(in, x, y, z + 1);
        A(out, x, y, z) = 0.5f * A(in, x, y, z) + side / 12.0f;
      }
}

int main(int argc, char *argv[]) {
  int steps = argc > 1 ? atoi(argv[1]) : 4, s, x, y, z;
  size_t n = (size_t)NX * NY * NZ, i;
  float *a = (float *)malloc(n * sizeof(float));
  float *b = (float *)malloc(n * sizeof(float));
  float *face = (float *)calloc((size_t)NY * NZ, sizeof(float));
  float *part = (float *)calloc((size_t)NX * (NY - 3) * (NZ - 2), sizeof(float));
  for (i = 0; i < n; ++i)
    a[i] = b[i] = (float)((i * 11) % 31) / 31.0f;
  for (s = 0; s < steps; ++s) {
    relax(a, b);
    relax(b, a);
    for (z = 0; z < NZ; ++z)
      for (y = 0; y < NY; ++y) {
        float v = 0.75f * FACE(0, y, z) + A(a, 0, y, z) - 0.25f * A(a, 1, y, z);
        if (y == NY - 1)
          v = v + 1.0f;
        FACE(0, y, z) = v;
      }
    for (z = 0; z < NZ - 2; ++z)
      for (y = 0; y < NY - 3; ++y)
        for (x = 0; x < NX; ++x)
          PART(x, y, z) = PART(x, y, z) + A(a, x, y + 1, z) * (float)(NZ - 2);
  }
  double sum = 0;
  for (i = 0; i < n; ++i)
    sum += a[i] * (double)(i % 7 + 1);
  printf("checksum %.9e\n", sum);
  sum = 0;
  for (i = 0; i < (size_t)NY * NZ; ++i)
    sum += face[i] * (double)(i % 3 + 1);
  printf("face %.9e\n", sum);
  sum = 0;
  for (i = 0; i < (size_t)NX * (NY - 3) * (NZ - 2); ++i)
    sum += part[i] * (double)(i % 5 + 1);
  printf("part %.9e\n", sum);

  int m = 7 + steps % 3;
  double p[11][12], q[9][9] = {{0}};
  for (i = 0; i < 12 * 11; ++i)
    p[i / 12][i % 12] = (double)(i % 17) / 4.0;
  for (y = 0; y < m - 1; ++y)
    for (x = 1; x < m; ++x)
      q[y][x] = 0.5 * (p[y][x] + p[y + 1][x + 1]);
  for (i = 0; i < 9 * 9; ++i)
    printf("%g%c", q[i / 9][i % 9], i % 9 == 8 ? '\n' : ' ');
  free(a);
  free(b);
  free(face);
  free(part);
  return 0;
}
