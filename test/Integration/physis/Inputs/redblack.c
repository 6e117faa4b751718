/* A Physis program with red-black sweeps: Gauss-Seidel for a 2-D Poisson
   problem, updated in place, red points (x + y even) first, then black,
   also as PSStencilMapRed and PSStencilMapBlack in one run. Twin:
   redblack.ref.c. */
#include "physis/physis.h"

#define N 18

static void relax(const int x, const int y, PSGrid2DDouble u,
                  PSGrid2DDouble f, double h2) {
  PSGridEmit(u, 0.25 * (PSGridGet(u, x - 1, y) + PSGridGet(u, x + 1, y) +
                        PSGridGet(u, x, y - 1) + PSGridGet(u, x, y + 1) -
                        h2 * PSGridGet(f, x, y)));
}

int main(int argc, char *argv[]) {
  int steps = argc > 1 ? atoi(argv[1]) : 10;
  PSInit(&argc, &argv, 2, N, N);
  PSGrid2DDouble u = PSGrid2DDoubleNew(N, N), f = PSGrid2DDoubleNew(N, N);
  double h[N * N];
  for (int i = 0; i < N * N; ++i)
    h[i] = (i % 13 == 0) ? 1.0 : 0.0;
  PSGridCopyin(f, h);
  for (int i = 0; i < N * N; ++i)
    h[i] = (i / N == 0) ? 1.0 : 0.0;
  PSGridCopyin(u, h);
  PSDomain2D inner = PSDomain2DNew(1, N - 1, 1, N - 1);
  PSStencilRun(PSStencilMapRedBlack(relax, inner, u, f, 0.01), steps);
  PSStencilRun(PSStencilMapRed(relax, inner, u, f, 0.01),
               PSStencilMapBlack(relax, inner, u, f, 0.01), steps);
  PSGridCopyout(u, h);
  double sum = 0;
  for (int i = 0; i < N * N; ++i)
    sum += h[i] * (i % 9 + 1);
  printf("checksum %.15e\n", sum);
  printf("middle %.15e\n", h[N * N / 2 + N / 2]);
  return 0;
}
