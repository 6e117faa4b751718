/* A Physis program whose stencil functions read grids at constant indices
   along some axes (slices): a 3-D diffusion driven by the bottom plane
   (z = 0) of a forcing grid of one plane and by a column (x = 2, z = NZ -
   1) of another, which the run reads whole too and mirrored along z; a
   2-D sweep that reads its source's left column (x = 0) at offsets along
   y, and the source mirrored along x (9 - x, 10 - x). Its plain-C twin is
   slices.ref.c. */
#include "physis/physis.h"

#define NX 12
#define NY 9
#define NZ 7

static void drive(const int x, const int y, const int z, PSGrid3DDouble in,
                  PSGrid3DDouble out, PSGrid3DDouble force,
                  PSGrid3DDouble wall) {
  double side = PSGridGet(in, x - 1, y, z) + PSGridGet(in, x + 1, y, z) +
                PSGridGet(in, x, y - 1, z) + PSGridGet(in, x, y + 1, z) +
                PSGridGet(in, x, y, z - 1) + PSGridGet(in, x, y, z + 1);
  double v = 0.4 * PSGridGet(in, x, y, z) + 0.1 * side +
             0.01 * PSGridGet(force, x, y + 1, 0) -
             0.02 * PSGridGet(wall, 2, y, NZ - 1) +
             0.001 * PSGridGet(wall, x, y, z) +
             0.003 * PSGridGet(wall, x, y, NZ - 1 - z);
  PSGridEmit(out, v);
}

static void edge(const int x, const int y, PSGrid2DFloat in,
                 PSGrid2DFloat out) {
  PSGridEmit(out, PSGridGet(in, x, y) +
                      0.5f * (PSGridGet(in, 0, y - 1) - PSGridGet(in, 0, y + 1)) +
                      0.25f * (PSGridGet(in, 9 - x, y) + PSGridGet(in, 10 - x, y + 1)));
}

int main(int argc, char *argv[]) {
  int steps = argc > 1 ? atoi(argv[1]) : 4;
  PSInit(&argc, &argv, 3, NX, NY, NZ);
  PSGrid3DDouble a = PSGrid3DDoubleNew(NX, NY, NZ);
  PSGrid3DDouble b = PSGrid3DDoubleNew(NX, NY, NZ);
  PSGrid3DDouble force = PSGrid3DDoubleNew(NX, NY, 1);
  PSGrid3DDouble wall = PSGrid3DDoubleNew(NX, NY, NZ);
  size_t n = (size_t)NX * NY * NZ, i;
  double *h = (double *)malloc(n * sizeof(double));
  for (i = 0; i < n; ++i)
    h[i] = (double)((i * 7) % 19) / 19.0;
  PSGridCopyin(a, h);
  PSGridCopyin(b, h);
  for (i = 0; i < n; ++i)
    h[i] = (double)((i * 3) % 23) / 23.0;
  PSGridCopyin(wall, h);
  for (i = 0; i < (size_t)NX * NY; ++i)
    h[i] = 1.0 + (double)(i % 13) / 8.0;
  PSGridCopyin(force, h);
  PSDomain3D inner = PSDomain3DNew(1, NX - 1, 1, NY - 2, 1, NZ - 1);
  PSStencilRun(PSStencilMap(drive, inner, a, b, force, wall),
               PSStencilMap(drive, inner, b, a, force, wall), steps);
  PSGridCopyout(a, h);
  double sum = 0;
  for (i = 0; i < n; ++i)
    sum += h[i] * (double)(i % 5 + 1);
  printf("checksum %.15e\n", sum);

  PSGrid2DFloat p = PSGrid2DFloatNew(10, 8), q = PSGrid2DFloatNew(10, 8);
  float *f = (float *)malloc(10 * 8 * sizeof(float));
  for (i = 0; i < 10 * 8; ++i)
    f[i] = (float)((i * 5) % 11);
  PSGridCopyin(p, f);
  PSStencilRun(PSStencilMap(edge, PSDomain2DNew(1, 10, 1, 7), p, q));
  PSGridCopyout(q, f);
  for (i = 0; i < 10 * 8; ++i)
    printf("%g%c", f[i], i % 10 == 9 ? '\n' : ' ');

  PSGridFree(a);
  PSGridFree(b);
  PSGridFree(force);
  PSGridFree(wall);
  PSGridFree(p);
  PSGridFree(q);
  PSFinalize();
  free(h);
  free(f);
  return 0;
}
