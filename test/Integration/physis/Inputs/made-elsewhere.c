/* Grids made in another C file of the program (made-elsewhere-grids.c):
   stencilcc compiles it with the margin this file's runs expect. */
#include "physis/physis.h"

PSGrid1DFloat make(int n);

static void left(const int x, PSGrid1DFloat in, PSGrid1DFloat out) {
  PSGridEmit(out, PSGridGet(in, x - 1) + 10.0f * PSGridGet(in, x));
}

int main(void) {
  float h[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  PSGrid1DFloat a = make(8), b = make(8);
  PSGridCopyin(a, h);
  PSStencilRun(PSStencilMap(left, PSDomain1DNew(1, 8), a, b));
  PSGridCopyout(b, h);
  for (int i = 0; i < 8; ++i)
    printf("%g ", h[i]);
  printf("\n");
  return 0;
}
