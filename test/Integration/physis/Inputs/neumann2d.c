/* A Physis program: a 2-D double grid whose size is read at run time,
   created and stepped in functions of their own (so nothing about the
   grids is known when compiling), over its whole domain; the edges take
   the centre's value where a neighbour is missing (a Neumann boundary,
   written as coordinate tests with PSGridDim). Twin: neumann2d.ref.c. */
#include "physis/physis.h"

static void relax(const int x, const int y, PSGrid2DDouble u,
                  PSGrid2DDouble v, double w) {
  int nx = PSGridDim(u, 0), ny = PSGridDim(u, 1);
  double c = PSGridGet(u, x, y);
  double west, east, south, north;
  if (x == 0)
    west = c;
  else
    west = PSGridGet(u, x - 1, y);
  if (x == nx - 1)
    east = c;
  else
    east = PSGridGet(u, x + 1, y);
  south = y > 0 ? PSGridGet(u, x, y - 1) : c;
  if (y < ny - 1 && !(x == 3 && y == 2))
    north = PSGridGet(u, x, y + 1);
  else
    north = c;
  PSGridEmit(v, c + w * (west + east + south + north - 4.0 * c));
}

static PSGrid2DDouble make(int nx, int ny) {
  return PSGrid2DDoubleNew(nx, ny);
}

static void step(PSGrid2DDouble u, PSGrid2DDouble v, int nx, int ny,
                 int steps) {
  PSDomain2D all = PSDomain2DNew(0, nx, 0, ny);
  PSStencil forth = PSStencilMap(relax, all, u, v, 0.2);
  PSStencilRun(forth, PSStencilMap(relax, all, v, u, 0.2), steps);
}

int main(int argc, char *argv[]) {
  int steps = argc > 1 ? atoi(argv[1]) : 10;
  int nx = argc > 2 ? atoi(argv[2]) : 19, ny = nx + 5;
  PSInit(&argc, &argv, 2, nx, ny);
  PSGrid2DDouble u = make(nx, ny), v = make(nx, ny);
  double *h = (double *)malloc(sizeof(double) * nx * ny);
  for (int i = 0; i < nx * ny; ++i)
    h[i] = (i % 11 == 0) ? 1.0 : 0.0;
  PSGridCopyin(u, h);
  step(u, v, nx, ny, steps);
  PSGridCopyout(u, h);
  double sum = 0, total;
  for (int i = 0; i < nx * ny; ++i)
    sum += h[i] * (i % 7 + 1);
  PSReduce(&total, PS_SUM, u);
  printf("checksum %.12e total %.9e\n", sum, total);
  printf("corners %.9e %.9e %.9e\n", h[0], h[nx - 1], h[nx * ny - 1]);
  PSGridFree(u);
  PSGridFree(v);
  PSFinalize();
  free(h);
  return 0;
}
