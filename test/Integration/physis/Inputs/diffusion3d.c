/* A Physis program: 3-D diffusion over the interior of a box that is not
   a cube, double-buffered by two maps per step, with scalar arguments, and
   a reduction. Its plain-C twin is diffusion3d.ref.c. */
#include "physis/physis.h"

#ifndef NX
#define NX 21
#endif
#define NY (NX + 3)
#define NZ (NX - 4)

static void diffusion(const int x, const int y, const int z, PSGrid3DFloat in,
                      PSGrid3DFloat out, float cc, float cw) {
  float side = PSGridGet(in, x - 1, y, z) + PSGridGet(in, x + 1, y, z) +
               PSGridGet(in, x, y - 1, z) + PSGridGet(in, x, y + 1, z) +
               PSGridGet(in, x, y, z - 1) + PSGridGet(in, x, y, z + 1);
  PSGridEmit(out, cc * PSGridGet(in, x, y, z) + cw * side);
  return;
}

int main(int argc, char *argv[]) {
  int steps = argc > 1 ? atoi(argv[1]) : 10;
  PSInit(&argc, &argv, 3, NX, NY, NZ);
  PSGrid3DFloat a = PSGrid3DFloatNew(NX, NY, NZ);
  PSGrid3DFloat b = PSGrid3DFloatNew(NX, NY, NZ);
  PSDomain3D inner = PSDomain3DNew(1, NX - 1, 1, NY - 1, 1, NZ - 1);
  size_t n = (size_t)NX * NY * NZ, i;
  float *h = (float *)malloc(n * sizeof(float));
  for (i = 0; i < n; ++i)
    h[i] = (float)((i * 7) % 23) / 23.0f;
  PSGridCopyin(a, h);
  PSGridCopyin(b, h);
  PSStencilRun(PSStencilMap(diffusion, inner, a, b, 0.4f, 0.1f),
               PSStencilMap(diffusion, inner, b, a, 0.4f, 0.1f), steps);
  PSGridCopyout(a, h);
  double sum = 0;
  for (i = 0; i < n; ++i)
    sum += h[i] * (double)(i % 5 + 1);
  float top;
  PSReduce(&top, PS_MAX, a);
  printf("checksum %.9e\n", sum);
  printf("max %.6e corner %.6e centre %.6e\n", top, h[0],
         h[(size_t)NZ / 2 * NX * NY + (size_t)NY / 2 * NX + NX / 2]);
  PSGridFree(a);
  PSGridFree(b);
  PSFinalize();
  free(h);
  return 0;
}
