// Arrays of run-time extent: C99 variably modified parameters
// (`double A[n][n]`, `double (*u)[m]`), the extents of `data` integer
// expressions of the program's variables. Extents of the same linear form
// (`n` and `n + 0`, as PolyBench writes them) are one argument of the
// region's function, after the run-time bounds; each array comes as a 0-d
// memref (the C caller's pointer to its first element) reinterpreted
// row-major with its extents. The call block computes the extents once and
// checks constant loop bounds against them too.
// RUN: stencil-translate --import-pragma-c %s --manifest=%t.json --rewrite-c=%t.host.c | FileCheck %s
// RUN: FileCheck %s --check-prefix=HOST --input-file %t.host.c
// RUN: FileCheck %s --check-prefix=MANIFEST --input-file %t.json
// RUN: %clang -fsyntax-only -Wall -Werror -Wno-unused-but-set-variable %t.host.c

// CHECK-LABEL: func.func @stencil_square_0(
// CHECK-SAME: %[[A:[^:]*]]: memref<f64>, %[[B:[^:]*]]: memref<f64>, %[[IUP:[^:]*]]: index, %[[N:[^:]*]]: index, %[[STEPS:[^:]*]]: index)
// CHECK: %[[AM:.*]] = memref.reinterpret_cast %[[A]] to offset: [0], sizes: [%[[N]], %[[N]]], strides: [%[[N]], 1] : memref<f64> to memref<?x?xf64>
// CHECK: %[[BM:.*]] = memref.reinterpret_cast %[[B]] to offset: [0], sizes: [%[[N]], %[[N]]], strides: [%[[N]], 1] : memref<f64> to memref<?x?xf64>
// CHECK: stencil.load %[[AM]] : memref<?x?xf64> -> !stencil.field<?x?xf64>
// CHECK: stencil.iterate %[[STEPS]]
// CHECK: stencil.store %{{.*}} to %[[AM]] : !stencil.field<?x?xf64> to memref<?x?xf64>
void square(int steps, int n, double A[n + 0][n], double B[n][n + 0]) {
  int t, i, j;
#pragma stencil begin
#pragma stencil step(t:10)
#pragma stencil data source(double A[n + 0][n + 0]) destination(double B[n + 0][n + 0])
#pragma stencil dimension(i, j)
  for (t = 0; t < steps; t++) {
#pragma stencil calc
    for (i = 1; i < n - 1; i++)
      for (j = 1; j < n - 1; j++)
        B[i][j] = 0.25 * (A[i - 1][j] + A[i + 1][j] + A[i][j - 1] + A[i][j + 1]);
#pragma stencil calc
    for (i = 1; i < n - 1; i++)
      for (j = 1; j < n - 1; j++)
        A[i][j] = B[i][j];
  }
#pragma stencil end
}
// HOST: extern void stencil_square_0(double *A, double *B, long long i_upper, long long extent0, long long steps);
// HOST: long long stencil_square_0_i_upper = (long long)(n - 1), stencil_square_0_extent0 = (long long)(n + 0);
// HOST-NEXT: if (stencil_square_0_steps > 0 && 1 < stencil_square_0_i_upper && 1 < stencil_square_0_i_upper) { if (stencil_square_0_i_upper + 1 > stencil_square_0_extent0) stencil_bound_error("{{.*}}c99-params.c:{{[0-9]+}}: the upper bound 'n - 1' of the loop over 'i' is %lld, but 'A' is read at i+1, beyond its n + 0 elements along dimension 0", stencil_square_0_i_upper);
// HOST: if (stencil_square_0_steps > 0) stencil_square_0(&A[0][0], &B[0][0], stencil_square_0_i_upper, stencil_square_0_extent0, stencil_square_0_steps);
// MANIFEST: "shape": [
// MANIFEST-NEXT: "n + 0",
// MANIFEST-NEXT: "n + 0"

// A constant extent beside a run-time one, the first extent given by `data`
// only (`(*u)[m]`), and constant loop bounds: the rows are checked against
// the constant at compile time, the columns against `m` on entry.
// CHECK-LABEL: func.func @stencil_rows_0(
// CHECK-SAME: %[[U:[^:]*]]: memref<f32>, %[[V:[^:]*]]: memref<f32>, %[[M:[^:]*]]: index, %{{[^:]*}}: index)
// CHECK: memref.reinterpret_cast %[[U]] to offset: [0], sizes: [6, %[[M]]], strides: [%[[M]], 1] : memref<f32> to memref<6x?xf32>
// CHECK: stencil.grid [1, 1] to [5, 7] : !stencil.grid<2>
void rows(int steps, int m, float (*u)[2 * m], float (*v)[m + m]) {
  int t, i, j;
#pragma stencil begin
#pragma stencil step(t:10)
#pragma stencil data source(float u[6][2 * m]) destination(float v[6][2 * m])
#pragma stencil dimension(i, j)
  for (t = 0; t < steps; t++) {
#pragma stencil calc
    for (i = 1; i < 5; i++)
      for (j = 1; j < 7; j++)
        v[i][j] = u[i][j - 1] + u[i][j + 1];
#pragma stencil copy
    for (i = 1; i < 5; i++)
      for (j = 1; j < 7; j++)
        u[i][j] = v[i][j];
  }
#pragma stencil end
}
// HOST: extern void stencil_rows_0(float *u, float *v, long long extent0, long long steps);
// HOST: long long stencil_rows_0_extent0 = (long long)(2 * m);
// HOST-NEXT: if (stencil_rows_0_steps > 0) { if (7 + 1 > stencil_rows_0_extent0) stencil_bound_error("{{.*}}c99-params.c:{{[0-9]+}}: the upper bound '7' of the loop over 'j' is %lld, but 'u' is read at j+1, beyond its 2 * m elements along dimension 1", 7); }
