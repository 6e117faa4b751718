/* A domain known only at run time that reaches outside its grid, or
   outside a smaller grid it emits: the compiled run stops with a message
   before computing anything. */
#include "physis/physis.h"

static void copy(const int x, const int y, PSGrid2DFloat a, PSGrid2DFloat b) {
  PSGridEmit(b, PSGridGet(a, x, y));
}

int main(int argc, char *argv[]) {
  int reach = argc > 1 ? atoi(argv[1]) : 10;
  int small = argc > 2 ? atoi(argv[2]) : 5;
  PSGrid2DFloat a = PSGrid2DFloatNew(10, 6), b = PSGrid2DFloatNew(10, 6);
  PSGrid2DFloat c = PSGrid2DFloatNew(5, 6);
  PSStencilRun(PSStencilMap(copy, PSDomain2DNew(0, reach, 0, 6), a, b));
  PSStencilRun(PSStencilMap(copy, PSDomain2DNew(0, small, 0, 6), a, c));
  printf("ran\n");
  return 0;
}
