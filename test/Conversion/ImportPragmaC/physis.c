// A Physis program becomes one region per PSStencilRun: the stencil
// functions' bodies as calc nests over their domains, in grids stored with
// a margin as wide as the widest offset read (here 2), the coordinates the
// loop variables less that margin.
// RUN: stencil-translate --import-physis %s --write-regions-c=%t.regions.c -o - | FileCheck %s
// RUN: FileCheck %s --check-prefix=REGIONS --input-file %t.regions.c
// Detected from the include, and the IR does not depend on the spelling.
// RUN: stencil-translate --import-pragma-c %s -o - | FileCheck %s

#include "physis/physis.h"

#define N 16

static void smooth(const int x, const int y, PSGrid2DFloat in,
                   PSGrid2DFloat out, float w) {
  float v = PSGridGet(in, x - 2, y) + PSGridGet(in, x + 1, y + 1);
  if (x == 0)
    v = 0.0f;
  PSGridEmit(out, w * v + PSGridDim(in, 1));
  return;
}

static void mark(const int i, const int j, PSGrid2DFloat g) {
  PSGridEmit(g, PSGridGetPeriodic(g, i, j) + 1.0f);
}

int main(int argc, char *argv[]) {
  PSInit(&argc, &argv, 2, N, N + 4);
  PSGrid2DFloat a = PSGrid2DFloatNew(N, N + 4);
  PSGrid2DFloat b = PSGrid2DFloatNew(N, N + 4);
  PSDomain2D d = PSDomain2DNew(2, N - 1, 0, N + 3);
  PSStencilRun(PSStencilMap(smooth, d, a, b, 0.5f),
               PSStencilMap(mark, PSDomain2DNew(0, N, 0, N + 4), a), 10);
  PSFinalize();
  return 0;
}

// REGIONS: #define PHYSIS_MARGIN 2
// REGIONS: static void physis_main_run0(float a[24][20], float b[24][20], float w, int __ps_count);
// REGIONS: physis_main_run0(__PSGridData(a), __PSGridData(b), (0.5f), (10));
// REGIONS: #pragma stencil data source(float a[24][20]) destination(float b[24][20])
// REGIONS: #pragma stencil dimension(__y, __x)
// REGIONS: #define __PS_GET_in(__ps_i0, __ps_i1) a[(__ps_i1) + 2][(__ps_i0) + 2]
// REGIONS: #define __PS_EMIT_out(__ps_v) b[__y][__x] = (__ps_v)
// REGIONS: for (__y = 2; __y < 21; __y++)
// REGIONS: for (__x = 4; __x < 17; __x++)
// REGIONS: float v = PSGridGet(in, (__x - 2) - 2, (__y - 2)) + PSGridGet(in, (__x - 2) + 1, (__y - 2) + 1);
// REGIONS: if ((__x - 2) == 0)
// REGIONS: PSGridEmit(out, w * v + (20));
// The periodic read: the margins filled from the other side, rows first.
// REGIONS: #define __PS_GET_g(__ps_i0, __ps_i1) a[(__ps_i1) + 2][(__ps_i0) + 2]
// REGIONS: for (__x = 0; __x < 20; __x++)
// REGIONS-NEXT: a[0][__x] = a[20][__x];
// REGIONS: a[22][__x] = a[2][__x];
// REGIONS: for (__y = 0; __y < 24; __y++)
// REGIONS-NEXT: a[__y][0] = a[__y][16];
// REGIONS: a[__y][19] = a[__y][3];
// REGIONS: for (__y = 2; __y < 22; __y++)
// REGIONS: for (__x = 2; __x < 18; __x++)

// CHECK-LABEL: func.func @stencil_physis_main_run0_0
// CHECK: stencil.apply
// CHECK-DAG: stencil.access %{{.*}}[0, -2]
// CHECK-DAG: stencil.access %{{.*}}[1, 1]
// CHECK-DAG: stencil.index 1
// CHECK: stencil.store
