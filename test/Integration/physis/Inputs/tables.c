/* A Physis program whose stencil functions read grids of fewer axes than
   their own (tables): a 3-D diffusion on a stretched mesh, with inverse
   spacings per axis (1-D grids longer or shorter than the box), a 2-D
   depth factor over (x, y), a 2-D damping table indexed (z, x), PSGridDim
   of a table; and a 2-D filter that reads one 1-D table along both of its
   axes. Its plain-C twin is tables.ref.c. */
#include "physis/physis.h"

#define NX 19
#define NY 14
#define NZ 11
#define MX 23
#define MY 17

static void diffuse(const int x, const int y, const int z, PSGrid3DDouble in,
                    PSGrid3DDouble out, PSGrid1DDouble rx, PSGrid1DDouble ry,
                    PSGrid1DDouble rz, PSGrid2DDouble depth,
                    PSGrid2DDouble damp, double nu) {
  double c = PSGridGet(in, x, y, z);
  double dx = (PSGridGet(in, x + 1, y, z) - c) * PSGridGet(rx, x + 1) -
              (c - PSGridGet(in, x - 1, y, z)) * PSGridGet(rx, x);
  double dy = (PSGridGet(in, x, y + 1, z) - c) * PSGridGet(ry, y) -
              (c - PSGridGet(in, x, y - 1, z)) * PSGridGet(ry, y - 1);
  double dz = (PSGridGet(in, x, y, z + 1) - c) * PSGridGet(rz, z) -
              (c - PSGridGet(in, x, y, z - 1)) * PSGridGet(rz, z - 1);
  double v = c + nu * PSGridGet(depth, x, y) * (dx + dy + dz);
  /* The last interior row is damped by the table of its plane. */
  if (y == PSGridDim(depth, 1) - 2)
    v = v * PSGridGet(damp, z, x);
  PSGridEmit(out, v);
}

/* A separable filter: one table along y and along x in one point. */
static void filter(const int x, const int y, PSGrid2DFloat in,
                   PSGrid2DFloat out, PSGrid1DFloat k) {
  PSGridEmit(out, PSGridGet(in, x, y) * PSGridGet(k, y) +
                      PSGridGet(in, x - 2, y) * PSGridGet(k, y + 2) +
                      PSGridGet(in, x + 1, y) * PSGridGet(k, x - 1));
}

int main(int argc, char *argv[]) {
  int steps = argc > 1 ? atoi(argv[1]) : 4;
  PSInit(&argc, &argv, 3, NX, NY, NZ);
  PSGrid3DDouble a = PSGrid3DDoubleNew(NX, NY, NZ);
  PSGrid3DDouble b = PSGrid3DDoubleNew(NX, NY, NZ);
  PSGrid1DDouble rx = PSGrid1DDoubleNew(NX + 1);
  PSGrid1DDouble ry = PSGrid1DDoubleNew(NY - 1);
  PSGrid1DDouble rz = PSGrid1DDoubleNew(NZ);
  PSGrid2DDouble depth = PSGrid2DDoubleNew(NX, NY);
  PSGrid2DDouble damp = PSGrid2DDoubleNew(NZ, NX);
  size_t n = (size_t)NX * NY * NZ, i;
  double *h = (double *)malloc(n * sizeof(double));
  for (i = 0; i < n; ++i)
    h[i] = (double)((i * 7) % 29) / 29.0;
  PSGridCopyin(a, h);
  PSGridCopyin(b, h);
  for (i = 0; i < NX + 1; ++i)
    h[i] = 1.0 / (1.0 + 0.05 * (double)i);
  PSGridCopyin(rx, h);
  for (i = 0; i < NY - 1; ++i)
    h[i] = 1.0 / (0.8 + 0.03 * (double)(i * i % 7));
  PSGridCopyin(ry, h);
  for (i = 0; i < NZ; ++i)
    h[i] = 1.2 - 0.04 * (double)i;
  PSGridCopyin(rz, h);
  for (i = 0; i < (size_t)NX * NY; ++i)
    h[i] = 0.5 + (double)(i % 11) / 40.0;
  PSGridCopyin(depth, h);
  for (i = 0; i < (size_t)NZ * NX; ++i)
    h[i] = 0.9 + (double)(i % 5) / 50.0;
  PSGridCopyin(damp, h);
  PSDomain3D inner = PSDomain3DNew(1, NX - 1, 1, NY - 1, 1, NZ - 1);
  PSStencilRun(PSStencilMap(diffuse, inner, a, b, rx, ry, rz, depth, damp, 0.1),
               PSStencilMap(diffuse, inner, b, a, rx, ry, rz, depth, damp, 0.1),
               steps);
  PSGridCopyout(a, h);
  double sum = 0;
  for (i = 0; i < n; ++i)
    sum += h[i] * (double)(i % 5 + 1);
  printf("checksum %.15e\n", sum);
  printf("centre %.15e\n",
         h[(size_t)NZ / 2 * NX * NY + (size_t)(NY - 2) * NX + NX / 2]);

  PSGrid2DFloat p = PSGrid2DFloatNew(MX, MY);
  PSGrid2DFloat q = PSGrid2DFloatNew(MX, MY);
  PSGrid1DFloat k = PSGrid1DFloatNew(MX + 1);
  float *f = (float *)malloc((size_t)MX * MY * sizeof(float));
  for (i = 0; i < (size_t)MX * MY; ++i)
    f[i] = (float)((i * 5) % 13) / 13.0f;
  PSGridCopyin(p, f);
  PSGridCopyin(q, f);
  for (i = 0; i < MX + 1; ++i)
    f[i] = 0.25f + (float)(i % 4) / 16.0f;
  PSGridCopyin(k, f);
  PSDomain2D rows = PSDomain2DNew(2, MX - 1, 0, MY - 2);
  PSStencilRun(PSStencilMap(filter, rows, p, q, k),
               PSStencilMap(filter, rows, q, p, k), steps);
  PSGridCopyout(p, f);
  double fsum = 0;
  for (i = 0; i < (size_t)MX * MY; ++i)
    fsum += f[i] * (double)(i % 3 + 1);
  printf("filter %.9e\n", fsum);

  PSGridFree(a);
  PSGridFree(b);
  PSGridFree(rx);
  PSGridFree(ry);
  PSGridFree(rz);
  PSGridFree(depth);
  PSGridFree(damp);
  PSGridFree(p);
  PSGridFree(q);
  PSGridFree(k);
  PSFinalize();
  free(h);
  free(f);
  return 0;
}
