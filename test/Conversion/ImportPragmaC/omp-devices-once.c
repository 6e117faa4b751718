// Seed 004's `target` construct over one loop nest (its Fig. 4) and the
// one-line `target teams distribute parallel for map(...)`: each a region
// of one nest with no time loop. Its function takes no step count and runs
// the nest's apply once, with no stencil.iterate; the rewritten C calls it
// without one.
// RUN: stencil-translate --import-pragma-c %s | FileCheck %s
// RUN: stencil-translate --import-pragma-c %s --rewrite-c=%t.c -o /dev/null && FileCheck %s --check-prefix=REWRITE --input-file %t.c
// RUN: stencil-translate --import-pragma-c %s --manifest=%t.json -o /dev/null && FileCheck %s --check-prefix=MANIFEST --input-file %t.json

#define N 1000
double a[N], b[N], c[N], scalar = 1.0;

// CHECK-LABEL: func.func @stencil_triad_0(
// CHECK-SAME: %[[B:[^:]*]]: memref<1000xf64>, %[[C:[^:]*]]: memref<1000xf64>, %[[A:[^:]*]]: memref<1000xf64>, %[[S:[^:]*]]: f64)
// CHECK-SAME: {
// CHECK-NOT: stencil.iterate
// CHECK: %[[GRID:.*]] = stencil.grid [0] to [1000] : !stencil.grid<1>
// CHECK: %[[R:.*]] = stencil.apply on %[[GRID]]
// CHECK-SAME: outs(%{{.*}} : !stencil.field<1000xf64, #stencil.decomp<block>>)
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK-NOT: stencil.iterate
// CHECK: stencil.store %[[R]] to %[[A]]
// CHECK-NEXT: return
// A call block longer than the region goes on one line, so the lines after
// it keep their numbers.
// REWRITE: {   extern void stencil_triad_0(double *b, double *c, double *a, double scalar);   stencil_triad_0(&b[0], &c[0], &a[0], scalar); }{{$}}
// REWRITE-EMPTY:
// REWRITE-EMPTY:
// REWRITE-EMPTY:
// REWRITE-NEXT: {{^}}}
// MANIFEST: "name": "stencil_triad_0"
// MANIFEST: "steps": null
void triad(void) {
#pragma omp target map(to: b,c) map(from: a) device(0:4) layout(block) // Fig. 4
#pragma omp teams distribute parallel for device(0:4) layout(block)
  for(int i=0;i<N;i++)
    a[i] = b[i] + scalar * c[i];
}

// The sections give the pointers' first extent (n); the bounds n - 1 and
// m - 1 come first, then the extents.
// CHECK-LABEL: func.func @stencil_smooth_0(
// CHECK-SAME: %[[X:[^:]*]]: memref<f64>, %[[Y:[^:]*]]: memref<f64>, %{{[^:]*}}: index, %{{[^:]*}}: index, %[[N:[^:]*]]: index, %[[M:[^:]*]]: index)
// CHECK-SAME: {
// CHECK: memref.reinterpret_cast %[[X]] to offset: [0], sizes: [%[[N]], %[[M]]]
// CHECK-NOT: stencil.iterate
// CHECK: stencil.exchange %{{.*}} widths [1, 0]
// CHECK: stencil.apply
// CHECK: stencil.access %{{.*}}[-1, 0]
// CHECK-NOT: stencil.iterate
// CHECK: return
// REWRITE: stencil_smooth_0(&x[0][0], &y[0][0], stencil_smooth_0_j_upper, stencil_smooth_0_i_upper, stencil_smooth_0_extent0, stencil_smooth_0_extent1); }
void smooth(int n, int m, double (*restrict x)[m], double (*restrict y)[m]) {
#pragma omp target teams distribute parallel for map(to: x[0:n]) map(tofrom: y[0:n]) layout(block, *) shadow(1)
  for (int j = 1; j < n - 1; j++)
    for (int i = 1; i < m - 1; i++)
      y[j][i] = 0.25 * (x[j - 1][i] + x[j + 1][i] + x[j][i - 1] + x[j][i + 1]);
}

// u is read but not mapped, so OpenMP maps it tofrom: it is the region's
// last array. k, a table of another rank, stays a coefficient array.
static double u[64][40], v[64][40], w[64][40];
static const double k[40] = {0.25, 0.5, 0.25};
// CHECK-LABEL: func.func @stencil_blend_0(
// CHECK-SAME: %[[V:[^:]*]]: memref<64x40xf64>, %[[W:[^:]*]]: memref<64x40xf64>, %[[U:[^:]*]]: memref<64x40xf64>, %{{[^:]*}}: memref<40xf64>)
// CHECK-SAME: {
// CHECK-NOT: stencil.iterate
// CHECK: stencil.apply
// CHECK: stencil.store %{{.*}} to %[[W]]
// CHECK-NOT: stencil.store
// CHECK: return
void blend(void) {
#pragma omp target teams distribute parallel for map(to: v) map(from: w) layout(block, *)
  for (int j = 1; j < 63; j++)
    for (int i = 1; i < 39; i++)
      w[j][i] = k[i] * (v[j][i - 1] + v[j][i + 1]) + u[j][i];
}

// Comments in the copied bounds go: the call block is on one line.
// REWRITE-LABEL: void cols(
// REWRITE: stencil_cols_0_i_upper = (long long)(m   - 1);
void cols(int n, int m, double (*restrict x)[m], double (*restrict y)[m]) {
#pragma omp target teams distribute parallel for map(to: x[0:n]) map(tofrom: y[0:n]) layout(block, *)
  for (int j = 1; j < n - 1; j++)
    for (int i = 1; i < m // columns
                        - 1; i++)
      y[j][i] = x[j][i - 1] + x[j][i + 1];
}
