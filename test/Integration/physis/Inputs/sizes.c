/* A Physis program whose runs take grids of different sizes: a 3-D
   diffusion that also accumulates, each step, the first two x-planes into
   a grid of one x-plane (smaller than the box along x, as Physis's own
   test_08 writes it) and a sum over a shorter box into a grid smaller along
   y and z; PSGridDim of a smaller grid. A 2-D run whose domain is known
   only at run time emits into a grid smaller than its source; such a domain
   past the smaller grid stops the program (domain-check.c). Its plain-C
   twin is sizes.ref.c. */
#include "physis/physis.h"

#define NX 13
#define NY 10
#define NZ 9

static void relax(const int x, const int y, const int z, PSGrid3DFloat in,
                  PSGrid3DFloat out) {
  float side = PSGridGet(in, x - 1, y, z) + PSGridGet(in, x + 1, y, z) +
               PSGridGet(in, x, y - 1, z) + PSGridGet(in, x, y + 1, z) +
               PSGridGet(in, x, y, z - 1) + PSGridGet(in, x, y, z + 1);
  PSGridEmit(out, 0.5f * PSGridGet(in, x, y, z) + side / 12.0f);
}

/* Over x = 0 only: the grid `face` has one point along x. */
static void collect(const int x, const int y, const int z, PSGrid3DFloat in,
                    PSGrid3DFloat face) {
  float v = 0.75f * PSGridGet(face, x, y, z) + PSGridGet(in, x, y, z) -
            0.25f * PSGridGet(in, x + 1, y, z);
  if (y == PSGridDim(face, 1) - 1)
    v = v + 1.0f;
  PSGridEmit(face, v);
}

/* Over the box of `part`, smaller along y and z. */
static void accumulate(const int x, const int y, const int z, PSGrid3DFloat in,
                       PSGrid3DFloat part) {
  PSGridEmit(part, PSGridGet(part, x, y, z) +
                       PSGridGet(in, x, y + 1, z) * (float)PSGridDim(part, 2));
}

static void halve(const int x, const int y, PSGrid2DDouble in,
                  PSGrid2DDouble out) {
  PSGridEmit(out, 0.5 * (PSGridGet(in, x, y) + PSGridGet(in, x + 1, y + 1)));
}

int main(int argc, char *argv[]) {
  int steps = argc > 1 ? atoi(argv[1]) : 4;
  PSInit(&argc, &argv, 3, NX, NY, NZ);
  PSGrid3DFloat a = PSGrid3DFloatNew(NX, NY, NZ);
  PSGrid3DFloat b = PSGrid3DFloatNew(NX, NY, NZ);
  PSGrid3DFloat face = PSGrid3DFloatNew(1, NY, NZ);
  PSGrid3DFloat part = PSGrid3DFloatNew(NX, NY - 3, NZ - 2);
  size_t n = (size_t)NX * NY * NZ, i;
  float *h = (float *)malloc(n * sizeof(float));
  for (i = 0; i < n; ++i)
    h[i] = (float)((i * 11) % 31) / 31.0f;
  PSGridCopyin(a, h);
  PSGridCopyin(b, h);
  PSDomain3D inner = PSDomain3DNew(1, NX - 1, 1, NY - 1, 1, NZ - 1);
  PSDomain3D plane = PSDomain3DNew(0, 1, 0, NY, 0, NZ);
  PSDomain3D box = PSDomain3DNew(0, NX, 0, NY - 3, 0, NZ - 2);
  PSStencilRun(PSStencilMap(relax, inner, a, b),
               PSStencilMap(relax, inner, b, a),
               PSStencilMap(collect, plane, a, face),
               PSStencilMap(accumulate, box, a, part), steps);
  PSGridCopyout(a, h);
  double sum = 0;
  for (i = 0; i < n; ++i)
    sum += h[i] * (double)(i % 7 + 1);
  printf("checksum %.9e\n", sum);
  PSGridCopyout(face, h);
  sum = 0;
  for (i = 0; i < (size_t)NY * NZ; ++i)
    sum += h[i] * (double)(i % 3 + 1);
  printf("face %.9e\n", sum);
  PSGridCopyout(part, h);
  sum = 0;
  for (i = 0; i < (size_t)NX * (NY - 3) * (NZ - 2); ++i)
    sum += h[i] * (double)(i % 5 + 1);
  printf("part %.9e\n", sum);

  int m = 7 + steps % 3;
  PSGrid2DDouble p = PSGrid2DDoubleNew(12, 11);
  PSGrid2DDouble q = PSGrid2DDoubleNew(9, 9);
  double *d = (double *)malloc(12 * 11 * sizeof(double));
  for (i = 0; i < 12 * 11; ++i)
    d[i] = (double)(i % 17) / 4.0;
  PSGridCopyin(p, d);
  PSStencilRun(PSStencilMap(halve, PSDomain2DNew(1, m, 0, m - 1), p, q));
  PSGridCopyout(q, d);
  for (i = 0; i < 9 * 9; ++i)
    printf("%g%c", d[i], i % 9 == 8 ? '\n' : ' ');

  PSGridFree(a);
  PSGridFree(b);
  PSGridFree(face);
  PSGridFree(part);
  PSGridFree(p);
  PSGridFree(q);
  PSFinalize();
  free(h);
  free(d);
  return 0;
}
