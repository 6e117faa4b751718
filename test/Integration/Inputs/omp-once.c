/* Regions of one loop nest in seed 004's spelling, run once each, beside
 * host code: a `target map(...)` construct around a `teams distribute
 * parallel for` nest, and `target teams distribute parallel for map(...)`
 * lines, one over C99 pointer parameters whose map sections give their
 * first extent (`x[0:n]`), one that reads an array it does not map (OpenMP
 * maps it `tofrom`). The host changes the arrays between the regions.
 * Usage: omp-once [rounds] */
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N 67
#endif
#define M (N + 3)

static double u[N][M], v[N][M], w[N][M];

/* A five-point sweep of x into y, on arrays the caller passes. */
static void smooth(int n, int m, double (*restrict x)[m],
                   double (*restrict y)[m]) {
#pragma omp target teams distribute parallel for map(to: x[0:n]) map(tofrom: y[0:n]) layout(block, *) shadow(1)
  for (int j = 1; j < n - 1; j++)
    for (int i = 1; i < m - 1; i++)
      y[j][i] = 0.25 * (x[j - 1][i] + x[j + 1][i] + x[j][i - 1] + x[j][i + 1]);
}

int main(int argc, char **argv) {
  int rounds = argc > 1 ? atoi(argv[1]) : 3;
  for (int j = 0; j < N; j++)
    for (int i = 0; i < M; i++) {
      u[j][i] = (j * 7 + i * 3) % 11;
      v[j][i] = -1.0;
      w[j][i] = 5.0;
    }
  for (int r = 0; r < rounds; r++) {
#pragma omp target map(to: u) map(tofrom: v) device(0:4) layout(block, *) shadow(1)
#pragma omp teams distribute parallel for layout(v)
    for (int j = 1; j < N - 1; j++)
      for (int i = 1; i < M - 1; i++)
        v[j][i] = (u[j - 1][i] + u[j + 1][i] + u[j][i - 1] + u[j][i + 1]) /
                      4.0 - u[j][i] + 0.5 * v[j][i];
    /* u is read but not mapped: mapped tofrom, as OpenMP says. */
#pragma omp target teams distribute parallel for map(to: v) map(from: w) layout(block, *) shadow(1)
    for (int j = 1; j < N - 1; j++)
      for (int i = 1; i < M - 1; i++)
        w[j][i] = v[j][i - 1] + v[j][i + 1] - v[j - 1][i] + u[j][i];
    smooth(N, M, w, u);
    for (int j = 0; j < N; j++) /* the host's own work between regions */
      u[j][r % M] += 1.0;
  }
  double s = 0;
  for (int j = 0; j < N; j++)
    for (int i = 0; i < M; i++)
      s += (u[j][i] + 2 * v[j][i] + 3 * w[j][i]) * (1 + (i + j) % 3);
  printf("omp-once N %d M %d rounds %d\n", N, M, rounds);
  printf("checksum %.10e\n", s);
  return 0;
}
