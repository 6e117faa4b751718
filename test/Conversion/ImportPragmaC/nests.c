// Several loop nests per time step: each `calc` or `copy` directive governs
// the nest after it, and each nest becomes a stencil.apply on its own grid,
// in order, reading the fields as the nests before it left them. A nest may
// write any array of `data`, in place at the point; every array written
// anywhere is carried by the time loop. Nests over the same range share a
// grid and a run-time bound argument.
// RUN: stencil-translate --import-pragma-c %s --manifest=%t.json --rewrite-c=%t.host.c | FileCheck %s
// RUN: FileCheck %s --check-prefix=MANIFEST --input-file %t.json
// RUN: FileCheck %s --check-prefix=HOST --input-file %t.host.c

#define N 40

// Two sweeps, B from A then A from B, over a run-time n: one bound
// argument for both nests and both axes, one grid.
// CHECK-LABEL: func.func @stencil_jacobi_0(
// CHECK-SAME: %[[A:[^:]*]]: memref<40x40xf64>, %[[B:[^:]*]]: memref<40x40xf64>, %[[UP:[^:]*]]: index, %[[STEPS:[^:]*]]: index)
// CHECK: %[[HI:.*]] = arith.maxsi %{{.*}}, %[[UP]] : index
// CHECK: %[[G:.*]] = stencil.grid [1, 1] to [%[[HI]], %{{.*}}] : !stencil.grid<2>
// CHECK-NOT: stencil.grid
// CHECK: %{{.*}}:2 = stencil.iterate %[[STEPS]] iter_args(%[[AK:[^ ]*]] = %{{.*}}, %[[BK:[^ ]*]] = %{{.*}})
// CHECK: %[[B1:.*]] = stencil.apply on %[[G]] ins(%[[X:[^ ]*]] = %[[AK]] : {{.*}}) outs(%[[BK]] : {{.*}})
// CHECK: stencil.access %[[X]][0, -1]
// CHECK: %[[A1:.*]] = stencil.apply on %[[G]] ins(%[[Y:[^ ]*]] = %[[B1]] : {{.*}}) outs(%[[AK]] : {{.*}})
// CHECK: stencil.access %[[Y]][1, 0]
// CHECK: stencil.yield %[[A1]], %[[B1]]
void jacobi(int steps, int n, double A[N][N], double B[N][N]) {
  int t, i, j;
#pragma stencil begin
#pragma stencil step(t:100)
#pragma stencil data source(double A[N][N]) destination(double B[N][N])
#pragma stencil dimension(i, j)
  for (t = 0; t < steps; t++) {
#pragma stencil calc
    for (i = 1; i < n - 1; i++)
      for (j = 1; j < n - 1; j++)
        B[i][j] = 0.2 * (A[i][j] + A[i][j - 1] + A[i][j + 1] + A[i + 1][j] +
                         A[i - 1][j]);
#pragma stencil calc
    for (i = 1; i < n - 1; i++)
      for (j = 1; j < n - 1; j++)
        A[i][j] = 0.2 * (B[i][j] + B[i][j - 1] + B[i][j + 1] + B[i + 1][j] +
                         B[i - 1][j]);
  }
#pragma stencil end
}

// FDTD's updates: in place at the point, each nest over its own range; the
// third reads what the first two wrote in this step; a reduction in the
// third nest; a copy nest over a range of its own. The source hz is written
// too, so it is carried.
// CHECK-LABEL: func.func @stencil_fdtd_0(
// CHECK-DAG: %[[GEY:.*]] = stencil.grid [1, 0] to [40, 40]
// CHECK-DAG: %[[GEX:.*]] = stencil.grid [0, 1] to [40, 40]
// CHECK-DAG: %[[GHZ:.*]] = stencil.grid [0, 0] to [39, 39]
// CHECK-DAG: %[[GCP:.*]] = stencil.grid [2, 2] to [38, 38]
// CHECK: stencil.iterate %{{.*}} iter_args(%[[HZ:[^ ]*]] = %{{[^ ]*}}, %[[W:[^ ]*]] = %{{[^ ]*}}, %[[EX:[^ ]*]] = %{{[^ ]*}}, %[[EY:[^ ]*]] = %{{[^ ]*}}, %{{[^ ]*}} = %{{[^ ]*}}, %{{[^ ]*}} = %{{[^ ]*}})
// CHECK: %[[EY1:.*]] = stencil.apply on %[[GEY]] ins(%[[P:[^ ]*]] = %[[EY]] : {{.*}}, %[[Q:[^ ]*]] = %[[HZ]] : {{.*}}) outs(%[[EY]] : {{.*}})
// CHECK: stencil.access %[[P]][0, 0]
// CHECK: stencil.access %[[Q]][-1, 0]
// CHECK: %[[EX1:.*]] = stencil.apply on %[[GEX]] ins(%{{.*}} = %[[EX]] : {{.*}}, %{{.*}} = %[[HZ]] : {{.*}}) outs(%[[EX]] : {{.*}})
// CHECK: %[[HZ1:.*]]:2 = stencil.apply on %[[GHZ]] ins(%{{.*}} = %[[HZ]] : {{.*}}, %{{.*}} = %[[EX1]] : {{.*}}, %{{.*}} = %[[EY1]] : {{.*}}) outs(%[[HZ]] : {{.*}}) reduce(add %{{.*}} : f64)
// CHECK: %[[V1:.*]] = stencil.apply on %[[GHZ]] ins(%{{.*}} = %[[W]] : {{.*}}) outs(%{{.*}} : {{.*}})
// CHECK: %[[W1:.*]] = stencil.apply on %[[GCP]] ins(%{{.*}} = %[[V1]] : {{.*}}) outs(%[[W]] : {{.*}})
// CHECK: stencil.yield %[[HZ1]]#0, %[[W1]], %[[EX1]], %[[EY1]], %[[V1]], %[[HZ1]]#1
double ex[N][N], ey[N][N], hz[N][N], w[N][N], v[N][N];
double energy;
void fdtd(int steps) {
  int t, i, j;
#pragma stencil begin
#pragma stencil step(t:100)
#pragma stencil data source(double hz[N][N], double w[N][N]) destination(double ex[N][N], double ey[N][N], double v[N][N])
#pragma stencil dimension(i, j)
  for (t = 0; t < steps; t++) {
    energy = 0.0;
#pragma stencil calc
    for (i = 1; i < N; i++)
      for (j = 0; j < N; j++)
        ey[i][j] = ey[i][j] - 0.5 * (hz[i][j] - hz[i - 1][j]);
#pragma stencil calc
    for (i = 0; i < N; i++)
      for (j = 1; j < N; j++)
        ex[i][j] = ex[i][j] - 0.5 * (hz[i][j] - hz[i][j - 1]);
#pragma stencil calc
    for (i = 0; i < N - 1; i++)
      for (j = 0; j < N - 1; j++) {
        hz[i][j] -= 0.7 * (ex[i][j + 1] - ex[i][j] + ey[i + 1][j] - ey[i][j]);
        energy += hz[i][j];
      }
#pragma stencil calc
    for (i = 0; i < N - 1; i++)
      for (j = 0; j < N - 1; j++)
        v[i][j] = w[i][j];
#pragma stencil copy
    for (i = 2; i < N - 2; i++)
      for (j = 2; j < N - 2; j++)
        w[i][j] = v[i][j];
  }
#pragma stencil end
}

// MANIFEST: "name": "stencil_jacobi_0"
// MANIFEST: "nests": [
// MANIFEST: "kind": "calc",
// MANIFEST: "writes": [
// MANIFEST-NEXT: "B"
// MANIFEST: "kind": "calc",
// MANIFEST: "writes": [
// MANIFEST-NEXT: "A"
// MANIFEST: "prototype": "void stencil_jacobi_0(double *A, double *B, long long i_upper, long long steps)"

// The bounds are checked once for both nests, which reach as far.
// HOST: long long stencil_jacobi_0_i_upper = (long long)(n - 1);
// HOST-NEXT: if (stencil_jacobi_0_steps > 0 && 1 < stencil_jacobi_0_i_upper && 1 < stencil_jacobi_0_i_upper) { if (stencil_jacobi_0_i_upper + 1 > 40)
// HOST-NOT: if (stencil_jacobi_0_steps > 0 &&
// HOST: stencil_jacobi_0(&A[0][0], &B[0][0], stencil_jacobi_0_i_upper, stencil_jacobi_0_steps);
