/* A Physis program that handles whole struct values in its stencil
   functions (Physis's test_user-defined-type1 and -7-pt-periodic-complex
   do): points read whole into struct locals (also periodically), struct
   locals made from braces (missing members zero), copied, changed member
   by member, and emitted whole with PSGridEmit. Twin: structs.ref.c. */
#include "physis/physis.h"

#define SQ(a) ((a) * (a))
#define NX 13
#define NY 9
#define NZ 7

struct Complex {
  float re, im;
};
DeclareGrid3D(Complex, struct Complex);

static void rotate(const int x, const int y, const int z, PSGrid3DComplex from,
                   PSGrid3DComplex to, float angle) {
  struct Complex c = PSGridGet(from, x, y, z);
  struct Complex e = PSGridGetPeriodic(from, x + 1, y, z);
  struct Complex w = PSGridGetPeriodic(from, x - 1, y - 1, z);
  struct Complex s = {e.re + w.re, e.im - w.im};
  struct Complex half = {0.5f};
  struct Complex d = {PSGridGet(from, x, y + 1, z).re,
                      PSGridGet(from, x, y - 1, z).im};
  struct Complex out = s;
  out.re = c.re * half.re + angle * s.im + d.re * SQ(d.im);
  if (c.im > 0.0f)
    out.im = c.im - angle * s.re + half.im;
  PSGridEmit(to, out);
}

int main(int argc, char *argv[]) {
  int steps = argc > 1 ? atoi(argv[1]) : 4;
  PSInit(&argc, &argv, 3, NX, NY, NZ);
  PSGrid3DComplex a = PSGrid3DComplexNew(NX, NY, NZ);
  PSGrid3DComplex b = PSGrid3DComplexNew(NX, NY, NZ);
  struct Complex *h =
      (struct Complex *)calloc(NX * NY * NZ, sizeof(struct Complex));
  for (int i = 0; i < NX * NY * NZ; ++i) {
    h[i].re = (i % 11) * 0.125f;
    h[i].im = (i % 7) * 0.25f - 0.75f;
  }
  PSGridCopyin(a, h);
  PSGridCopyin(b, h);
  PSDomain3D inner = PSDomain3DNew(0, NX, 1, NY - 1, 0, NZ);
  PSStencilRun(PSStencilMap(rotate, inner, a, b, 0.25f),
               PSStencilMap(rotate, inner, b, a, -0.125f), steps);
  PSGridCopyout(a, h);
  double sum = 0;
  for (int i = 0; i < NX * NY * NZ; ++i)
    sum += h[i].re * (1 + i % 3) + h[i].im * (2 + i % 5);
  printf("checksum %.9e\n", sum);
  printf("point 100 %.9e %.9e\n", h[100].re, h[100].im);
  free(h);
  return 0;
}
