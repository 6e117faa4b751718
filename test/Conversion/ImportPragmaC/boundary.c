// Boundary statements: statements of the time loop outside the marked nests
// that loop over some dimensions and write at constant subscripts along the
// others. Each is an apply on a grid one cell wide along its fixed axes; a
// one-dimensional array read at the step variable (a step table) is an
// argument of the function, read on the host once per step.
// RUN: stencil-translate --import-pragma-c %s --manifest=%t.json --rewrite-c=%t.host.c | FileCheck %s
// RUN: FileCheck %s --check-prefix=MANIFEST --input-file %t.json
// RUN: FileCheck %s --check-prefix=HOST --input-file %t.host.c

#define N 16
#define TMAX 50
double ey[N][N], hz[N][N];

// CHECK-LABEL: func.func @stencil_fdtd_0(
// CHECK-SAME: %[[FICT:[^:]*]]: memref<50xf64>, %[[FIRST:[^:]*]]: i32, %{{[^:]*}}: index)
// CHECK-DAG: %[[ROW:.*]] = stencil.grid [0, 0] to [1, 16]
// CHECK-DAG: %[[CELL:.*]] = stencil.grid [15, 15] to [16, 16]
// CHECK: stencil.iterate %{{.*}} iter_args(%[[EY:[^ ]*]] = %{{[^ ]*}}, %[[T:[^ ]*]] = %[[FIRST]])
// CHECK: %[[TI:.*]] = arith.index_cast %[[T]] : i32 to index
// CHECK: %[[LO:.*]] = arith.maxsi %[[TI]], %c0 : index
// CHECK: %[[IN:.*]] = arith.minsi %[[LO]], %c49 : index
// CHECK: %[[V:.*]] = memref.load %[[FICT]][%[[IN]]] : memref<50xf64>
// CHECK: %[[EY1:.*]] = stencil.apply on %[[ROW]] ins(%[[X:[^ ]*]] = %[[V]] : f64) outs(%[[EY]] : {{.*}}) {
// CHECK-NEXT: stencil.return %[[X]] : f64
// CHECK: %[[EY2:.*]] = stencil.apply on %[[CELL]] ins(%[[Y:[^ ]*]] = %[[EY1]] : {{.*}}) outs(%[[EY1]] : {{.*}}) {
// CHECK: stencil.access %[[Y]][-1, 0]
// CHECK: stencil.apply on %{{.*}} ins(%{{.*}} = %[[EY2]]
void fdtd(int steps, const double fict[TMAX]) {
  int t, i, j;
#pragma stencil begin
#pragma stencil step(t:TMAX)
#pragma stencil data source(double hz[N][N]) destination(double ey[N][N])
#pragma stencil dimension(i, j)
  for (t = 0; t < steps; t++) {
    for (j = 0; j < N; j++)
      ey[0][j] = fict[t];
    ey[N - 1][N - 1] = 0.5 * ey[N - 2][N - 1];
#pragma stencil calc
    for (i = 1; i < N; i++)
      for (j = 0; j < N; j++)
        ey[i][j] = ey[i][j] - 0.5 * (hz[i][j] - hz[i - 1][j]);
  }
#pragma stencil end
}

// MANIFEST: "kind": "boundary",
// MANIFEST-NEXT: "lower": [
// MANIFEST-NEXT: 0,
// MANIFEST-NEXT: 0
// MANIFEST: "upper": [
// MANIFEST-NEXT: 1,
// MANIFEST-NEXT: 16
// MANIFEST: "prototype": "void stencil_fdtd_0(double *hz, double *ey, const double *fict, int t, long long steps)"
// HOST: if (stencil_fdtd_0_steps > 0) { { if ((long long)(0) + 0 < 0) stencil_bound_error("{{.*}}boundary.c:31: the step table 'fict' is read at t = %lld, before its first element", (long long)(0) + 0); if ((long long)(0) + stencil_fdtd_0_steps - 1 + 0 >= 50) stencil_bound_error(
// HOST: stencil_fdtd_0(&hz[0][0], &ey[0][0], &fict[0], (0), stencil_fdtd_0_steps);
