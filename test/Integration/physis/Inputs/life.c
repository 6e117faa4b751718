/* A Physis program on an integer grid: Conway's game of life on a torus
   (PSGridGetPeriodic), two generations per step, the live cells counted
   with PSReduce. Twin: life.ref.c. */
#include "physis/physis.h"

#define NX 23
#define NY 17

static void generation(const int x, const int y, PSGrid2DInt now,
                       PSGrid2DInt next) {
  int n = PSGridGetPeriodic(now, x - 1, y - 1) +
          PSGridGetPeriodic(now, x, y - 1) +
          PSGridGetPeriodic(now, x + 1, y - 1) +
          PSGridGetPeriodic(now, x - 1, y) + PSGridGetPeriodic(now, x + 1, y) +
          PSGridGetPeriodic(now, x - 1, y + 1) +
          PSGridGetPeriodic(now, x, y + 1) +
          PSGridGetPeriodic(now, x + 1, y + 1);
  int alive = PSGridGet(now, x, y);
  PSGridEmit(next, (n == 3 || (alive && n == 2)) ? 1 : 0);
}

int main(int argc, char *argv[]) {
  int steps = argc > 1 ? atoi(argv[1]) : 10;
  PSInit(&argc, &argv, 2, NX, NY);
  PSGrid2DInt a = PSGrid2DIntNew(NX, NY), b = PSGrid2DIntNew(NX, NY);
  int h[NX * NY];
  for (int i = 0; i < NX * NY; ++i)
    h[i] = (i * 7 + i / 5) % 3 == 0;
  PSGridCopyin(a, h);
  PSDomain2D all = PSDomain2DNew(0, NX, 0, NY);
  PSStencilRun(PSStencilMap(generation, all, a, b),
               PSStencilMap(generation, all, b, a), steps);
  int live;
  PSReduce(&live, PS_SUM, a);
  PSGridCopyout(a, h);
  long signature = 0;
  for (int i = 0; i < NX * NY; ++i)
    signature = signature * 3 % 1000003 + h[i] * (i + 1);
  printf("checksum live %d signature %ld\n", live, signature);
  return 0;
}
