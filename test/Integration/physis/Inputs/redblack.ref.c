/* redblack.c in plain C: the sequential red-black sweeps. */
#include <stdio.h>
#include <stdlib.h>

#define N 18

static void sweep(double *u, const double *f, double h2, int colour) {
  for (int y = 1; y < N - 1; ++y)
    for (int x = 1; x < N - 1; ++x)
      if ((x + y) % 2 == colour)
        u[y * N + x] = 0.25 * (u[y * N + x - 1] + u[y * N + x + 1] +
                               u[(y - 1) * N + x] + u[(y + 1) * N + x] -
                               h2 * f[y * N + x]);
}

int main(int argc, char *argv[]) {
  int steps = argc > 1 ? atoi(argv[1]) : 10;
  double u[N * N], f[N * N];
  for (int i = 0; i < N * N; ++i) {
    f[i] = (i % 13 == 0) ? 1.0 : 0.0;
    u[i] = (i / N == 0) ? 1.0 : 0.0;
  }
  for (int run = 0; run < 2; ++run)
    for (int s = 0; s < steps; ++s) {
      sweep(u, f, 0.01, 0);
      sweep(u, f, 0.01, 1);
    }
  double sum = 0;
  for (int i = 0; i < N * N; ++i)
    sum += u[i] * (i % 9 + 1);
  printf("checksum %.15e\n", sum);
  printf("middle %.15e\n", u[N * N / 2 + N / 2]);
  return 0;
}
