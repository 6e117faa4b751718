/* A Physis program of the forms the front end must keep C's meaning for:
   a stencil kept in a variable (bound to its arguments' values there),
   runs in ?:, a scalar parameter named like a global another stencil
   reads, an int parameter after the coordinate, a local named like a
   grid, an argument written with a macro, a domain without points, and
   lines after a run written over several lines. Twin: forms.ref.c. */
#include "physis/physis.h"

#define N 12
#define HALF(v) ((v) / 2)

const float scale = 10.0f;

static void scaled(const int x, PSGrid1DFloat in, PSGrid1DFloat out,
                   float scale) {
  PSGridEmit(out, scale * PSGridGet(in, x));
}

static void global_scale(const int x, PSGrid1DFloat in, PSGrid1DFloat out) {
  PSGridEmit(out, scale + PSGridGet(in, x));
}

static void shifted(const int x, int by, PSGrid1DFloat in, PSGrid1DFloat out) {
  float a = PSGridGet(in, x + 1);
  PSGridEmit(out, a + by + x);
}

static void first(const int x, PSGrid1DFloat in, PSGrid1DFloat out) {
  PSGridEmit(out, PSGridGet(in, x) + 1.0f);
}

static void second(const int x, PSGrid1DFloat in, PSGrid1DFloat out) {
  PSGridEmit(out, PSGridGet(in, x) * 3.0f);
}

static void print(const char *what, PSGrid1DFloat g) {
  float h[N];
  PSGridCopyout(g, h);
  printf("%s", what);
  for (int i = 0; i < N; ++i)
    printf(" %g", h[i]);
  printf("\n");
}

int main(int argc, char *argv[]) {
  int pick = argc > 1 ? atoi(argv[1]) : 1;
  PSGrid1DFloat a = PSGrid1DFloatNew(N), b = PSGrid1DFloatNew(N);
  float h[N];
  for (int i = 0; i < N; ++i)
    h[i] = (float)i;
  PSGridCopyin(a, h);
  PSDomain1D all = PSDomain1DNew(0, N);
  float w = 4.0f;
  PSStencil s = PSStencilMap(scaled, all, a, b, HALF(w));
  /* A stencil binds its arguments' values where it is made. */
  w = 100.0f;
  {
    float w = 1000.0f;
    (void)w;
    PSStencilRun(s);
  }
  print("closure", b);
  PSStencilRun(PSStencilMap(scaled, all, a, b, 2.0f),
               PSStencilMap(global_scale, all, b, a));
  print("global", a);
  PSStencilRun(PSStencilMap(shifted, PSDomain1DNew(0, N - 1), 5, a, b));
  print("shifted", b);
  pick ? PSStencilRun(PSStencilMap(first, all, a, b))
       : PSStencilRun(PSStencilMap(second, all, a, b));
  print("pick", b);
  PSStencilRun(PSStencilMap(second, PSDomain1DNew(3, 3), a, b),
               3);
  print("empty", b);
  printf("line %d\n", __LINE__);
  printf("checksum done\n");
  return 0;
}
