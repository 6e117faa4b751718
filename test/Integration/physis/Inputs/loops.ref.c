/* loops.c in plain C: the same sweeps, in the same order. */
#include <stdio.h>
#include <stdlib.h>

#define N 10
#define DIM1 2
#define DIM2 3
#define AT(x, y, z) (((size_t)(z) * N + (y)) * N + (x))

struct In {
  float p[DIM1][DIM2];
};
struct Out {
  float q[DIM2][DIM1];
};

static void box(const double *in, double *out) {
  for (int z = 1; z < N - 1; ++z)
    for (int y = 1; y < N - 1; ++y)
      for (int x = 2; x < N - 1; ++x) {
        double s = 0;
        for (int k = -1; k <= 1; ++k)
          for (int j = -1; j <= 1; ++j)
            for (int i = -1; i < 2; i += 1)
              s += in[AT(x + i, y + j, z + k)] *
                   (1.0 + (i == 0) + 2 * (j == 0) + 4 * (k == 0));
        for (int i = 0; i < 3; i++)
          for (int j = 0; j <= i; j++)
            s += 0.01 * in[AT(x + j - i, y, z)];
        out[AT(x, y, z)] = s / 64.0;
      }
}

int main(int argc, char *argv[]) {
  int steps = argc > 1 ? atoi(argv[1]) : 3;
  size_t n = (size_t)N * N * N, i;
  struct In *in = (struct In *)malloc(n * sizeof(struct In));
  struct Out *out = (struct Out *)calloc(n, sizeof(struct Out));
  for (i = 0; i < n; ++i)
    for (int u = 0; u < DIM1; ++u)
      for (int v = 0; v < DIM2; ++v)
        in[i].p[u][v] = (float)((i * 3 + u * 7 + v * 11) % 17);
  for (int z = 0; z < N; ++z)
    for (int y = 0; y < N; ++y)
      for (int x = 1; x < N - 1; ++x)
        for (int u = 0; u < DIM1; ++u)
          for (int v = 0; v < DIM2; ++v) {
            float c = in[AT(x, y, z)].p[u][v];
            float w = in[AT(x - 1, y, z)].p[u][v] + in[AT(x + 1, y, z)].p[u][v];
            out[AT(x, y, z)].q[v][u] = 0.5f * c + 0.25f * w;
          }
  double sum = 0;
  for (i = 0; i < n; ++i)
    for (int u = 0; u < DIM2; ++u)
      for (int v = 0; v < DIM1; ++v)
        sum += out[i].q[u][v] * (double)((i + u * 2 + v) % 5 + 1);
  printf("transposed %.9e\n", sum);

  double *c = (double *)malloc(n * sizeof(double));
  double *d = (double *)malloc(n * sizeof(double));
  for (i = 0; i < n; ++i)
    c[i] = d[i] = (double)((i * 13) % 29) / 29.0;
  for (int s = 0; s < steps; ++s) {
    box(c, d);
    box(d, c);
  }
  sum = 0;
  for (i = 0; i < n; ++i)
    sum += c[i] * (double)(i % 7 + 1);
  printf("checksum %.15e\n", sum);
  printf("weight %g\n", (double)(4 * steps + 6) * N);
  free(in);
  free(out);
  free(c);
  free(d);
  return 0;
}
