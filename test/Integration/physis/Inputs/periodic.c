/* A Physis program: periodic reads. A 1-D ring read two cells away, and a
   2-D 9-point torus (its corners wrap on both axes at once), each with a
   map that reads one grid and emits another. Twin: periodic.ref.c. */
#include "physis/physis.h"

#define N1 37
#define NX 13
#define NY 10

static void ring(const int i, PSGrid1DFloat a, PSGrid1DFloat b) {
  PSGridEmit(b, 0.5f * PSGridGet(a, i) +
                    0.125f * (PSGridGetPeriodic(a, i - 2) +
                              PSGridGetPeriodic(a, i - 1) +
                              PSGridGetPeriodic(a, i + 1) +
                              PSGridGetPeriodic(a, i + 2)));
}

static void torus(const int x, const int y, PSGrid2DDouble a,
                  PSGrid2DDouble b) {
  double s = 0;
  s += PSGridGetPeriodic(a, x - 1, y - 1) + PSGridGetPeriodic(a, x, y - 1) +
       PSGridGetPeriodic(a, x + 1, y - 1);
  s += PSGridGetPeriodic(a, x - 1, y) + PSGridGetPeriodic(a, x + 1, y);
  s += PSGridGetPeriodic(a, x - 1, y + 1) + PSGridGetPeriodic(a, x, y + 1) +
       PSGridGetPeriodic(a, x + 1, y + 1);
  PSGridEmit(b, 0.2 * PSGridGet(a, x, y) + 0.1 * s);
}

int main(int argc, char *argv[]) {
  int steps = argc > 1 ? atoi(argv[1]) : 5;
  PSInit(&argc, &argv, 2, NX, NY);
  PSGrid1DFloat r1 = PSGrid1DFloatNew(N1), r2 = PSGrid1DFloatNew(N1);
  PSGrid2DDouble t1 = PSGrid2DDoubleNew(NX, NY), t2 = PSGrid2DDoubleNew(NX, NY);
  float hr[N1];
  double ht[NX * NY];
  for (int i = 0; i < N1; ++i)
    hr[i] = (float)(i % 4);
  for (int i = 0; i < NX * NY; ++i)
    ht[i] = i == 0 ? 100.0 : (double)(i % 3);
  PSGridCopyin(r1, hr);
  PSGridCopyin(t1, ht);
  PSStencilRun(PSStencilMap(ring, PSDomain1DNew(0, N1), r1, r2),
               PSStencilMap(ring, PSDomain1DNew(0, N1), r2, r1), steps);
  PSDomain2D all = PSDomain2DNew(0, NX, 0, NY);
  PSStencilRun(PSStencilMap(torus, all, t1, t2),
               PSStencilMap(torus, all, t2, t1), steps);
  PSGridCopyout(r1, hr);
  PSGridCopyout(t1, ht);
  for (int i = 0; i < N1; i += 6)
    printf("ring %d %.7e\n", i, hr[i]);
  for (int i = 0; i < NX * NY; i += 17)
    printf("torus %d %.12e\n", i, ht[i]);
  printf("torus corners %.12e %.12e\n", ht[NX - 1], ht[NX * NY - 1]);
  double sum = 0;
  for (int i = 0; i < NX * NY; ++i)
    sum += ht[i] * (i % 4 + 1);
  printf("checksum %.12e\n", sum);
  return 0;
}
