/* A Physis program with a struct point type (seed 003's user-defined
   types): a 2-D grid of cells, each a velocity pair and a two-entry
   history, read by member at offsets (also periodically) and written one
   member at a time with PSGridEmitUtype (also from a const struct value's
   array member). Twin: cells.ref.c. */
#include "physis/physis.h"

#define NX 15
#define NY 11

struct Cell {
  double u, v;
  double history[2];
};
DeclareGrid2D(Cell, struct Cell);

static void advect(const int x, const int y, PSGrid2DCell c, double dt) {
  double du = PSGridGet(c, x + 1, y).u - PSGridGet(c, x - 1, y).u;
  double dv = PSGridGet(c, x, y + 1).u - PSGridGet(c, x, y - 1).u;
  const struct Cell old = PSGridGet(c, x, y);
  PSGridEmitUtype(c.history[1], old.history[0]);
  PSGridEmitUtype(c.history[0], du + dv);
  PSGridEmitUtype(c.v, PSGridGet(c, x, y).v - dt * (du + dv));
}

static void wrap(const int x, const int y, PSGrid2DCell from,
                 PSGrid2DCell to) {
  PSGridEmitUtype(to.u, 0.5 * (PSGridGetPeriodic(from, x - 1, y - 1).u +
                               PSGridGetPeriodic(from, x + 1, y + 1).v));
}

int main(int argc, char *argv[]) {
  int steps = argc > 1 ? atoi(argv[1]) : 4;
  PSInit(&argc, &argv, 2, NX, NY);
  PSGrid2DCell a = PSGrid2DCellNew(NX, NY), b = PSGrid2DCellNew(NX, NY);
  struct Cell *h = (struct Cell *)calloc(NX * NY, sizeof(struct Cell));
  for (int i = 0; i < NX * NY; ++i) {
    h[i].u = (i % 7) * 0.25;
    h[i].v = (i % 5) * 0.5 - 1.0;
  }
  PSGridCopyin(a, h);
  PSGridCopyin(b, h);
  PSStencilRun(PSStencilMap(advect, PSDomain2DNew(1, NX - 1, 1, NY - 1), a,
                            0.1),
               PSStencilMap(wrap, PSDomain2DNew(0, NX, 0, NY), a, b),
               PSStencilMap(wrap, PSDomain2DNew(0, NX, 0, NY), b, a), steps);
  PSGridCopyout(a, h);
  double sum = 0;
  for (int i = 0; i < NX * NY; ++i)
    sum += h[i].u * 1.0 + h[i].v * 2.0 + h[i].history[0] * 3.0 +
           h[i].history[1] * 4.0;
  printf("checksum %.12e\n", sum);
  printf("cell 20 %.9e %.9e %.9e %.9e\n", h[20].u, h[20].v, h[20].history[0],
         h[20].history[1]);
  free(h);
  return 0;
}
