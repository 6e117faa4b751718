// Seed 004's OpenMP spelling: `target enter data` opens a region, the loop
// constructs are its nests, `target exit data` closes it. The arrays are
// typed and sized by their declarations, the dimensions named by the first
// nest's loops, the layout and shadow become the distribution and halo.
// RUN: stencil-translate --import-pragma-c %s | FileCheck %s
// RUN: stencil-translate --frontend=omp-devices --import-pragma-c %s | FileCheck %s
// With --frontend=stencil the lines are OpenMP's: no region.
// RUN: stencil-translate --frontend=stencil --import-pragma-c %s | FileCheck %s --check-prefix=NONE
// The rewritten C computes on a copy of u, which is not mapped back.
// RUN: stencil-translate --import-pragma-c %s --rewrite-c=%t.c -o /dev/null && FileCheck %s --check-prefix=REWRITE --input-file %t.c

#define W 1
static double u[64][40], v[64][40];

// CHECK-LABEL: func.func @stencil_laplace_0(
// CHECK-SAME: %[[U:.*]]: memref<64x40xf64>, %[[V:.*]]: memref<64x40xf64>, %{{.*}}: index)
// CHECK: stencil.load %[[U]] : memref<64x40xf64> -> !stencil.field<64x40xf64, #stencil.decomp<block, *>>
// CHECK: stencil.grid [1, 1] to [63, 39]
// CHECK: stencil.iterate
// The copy nest, then v's halo (shadow 1 along the distributed rows only),
// then the average.
// CHECK: %[[COPY:.*]] = stencil.apply
// CHECK: stencil.exchange %[[COPY]] widths [1, 0]
// CHECK: stencil.access %{{.*}}[-1, 0]
// NONE-NOT: func.func
// REWRITE: void *stencil_laplace_0_copy0 = __builtin_malloc(sizeof(u));
// REWRITE: __builtin_memcpy(stencil_laplace_0_copy0, u, sizeof(u));
// REWRITE: stencil_laplace_0((double *)stencil_laplace_0_copy0, &v[0][0],
// REWRITE: __builtin_free(stencil_laplace_0_copy0);
void laplace(int steps) {
  int i, j, k;
#pragma omp target enter data map(to: u) device(0:4) layout(block, *)
#pragma omp target enter data map(to: v) device(0:4) layout(block, *) shadow(W)
  for (k = 0; k < steps; k++) {
#pragma omp target teams distribute parallel for layout(v)
    for (j = 1; j < 63; j++)
      for (i = 1; i < 39; i++)
        v[j][i] = u[j][i];
#pragma omp target reflect(v)
#pragma omp target teams distribute parallel for layout(v)
    for (j = 1; j < 63; j++)
      for (i = 1; i < 39; i++)
        u[j][i] = (v[j - 1][i] + v[j + 1][i] + v[j][i - 1] + v[j][i + 1]) / 4.0;
  }
#pragma omp target exit data map(from: v) layout(v)
}

// A run-time size (C99 array parameters) and no layout: the host's cores.
// CHECK-LABEL: func.func @stencil_scale_0(
// CHECK-SAME: %[[X:[^:]*]]: memref<f32>, %{{[^:]*}}: memref<f32>, %{{[^:]*}}: index, %[[N:[^:]*]]: index, %{{[^:]*}}: index)
// CHECK: memref.reinterpret_cast %[[X]] to offset: [0], sizes: [%[[N]]], strides: [1] : memref<f32> to memref<?xf32>
// CHECK-NOT: decomp
// CHECK: stencil.iterate
void scale(int n, int times, float x[n], float y[n]) {
  int i, t;
#pragma omp target enter data map(to: x) map(tofrom: y) device(*)
  for (t = 0; t < times; t++) {
#pragma omp target teams distribute parallel for collapse(1)
    for (i = 1; i < n - 1; i++)
      y[i] = 0.5f * (x[i - 1] + x[i + 1]) + y[i];
  }
#pragma omp target exit data map(release: x) layout(y)
}
