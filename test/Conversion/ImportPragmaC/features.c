// The C subset beyond the seed programs, one region per feature group.
// RUN: stencil-translate --import-pragma-c %s | FileCheck %s
// RUN: stencil-translate --import-pragma-c %s | stencil-opt | stencil-opt | FileCheck %s

#include <math.h>

#define N 16
const int M = 12;
enum { R = 1 };

// Sizes from a macro and a `const int`; a pointer-to-array parameter; a
// `<=` time loop over a `long`; `<=` and `j += 1` loops; a loop that declares
// its variable; int and double scalars passed in; temporaries, `*=`, `+=`
// on a destination (reading the value just written), `?:` and math calls.
// CHECK-LABEL: func.func @stencil_features_0(
// CHECK-SAME: %[[U:.*]]: memref<16x12xf64>, %[[V:.*]]: memref<16x12xf64>, %[[H:.*]]: f64, %[[N:.*]]: i32, %[[STEPS:.*]]: index)
// CHECK: stencil.grid [1, 1] to [15, 11]
// CHECK: stencil.apply
// CHECK-DAG: %[[UP:.*]] = stencil.access %{{.*}}[-1, 0] : !stencil.field<16x12xf64>
// CHECK-DAG: %[[DOWN:.*]] = stencil.access %{{.*}}[1, 0] : !stencil.field<16x12xf64>
// CHECK: %[[S0:.*]] = arith.addf %[[UP]], %[[DOWN]] : f64
// CHECK: %[[S1:.*]] = arith.mulf %[[S0]], %{{.*}} : f64
// CHECK: %[[CMP:.*]] = arith.cmpf ogt, %[[S1]], %{{.*}} : f64
// CHECK: %[[SQ:.*]] = math.sqrt %[[S1]] : f64
// CHECK: %[[AB:.*]] = math.absf %[[S1]] : f64
// CHECK: %[[M:.*]] = arith.select %[[CMP]], %[[SQ]], %[[AB]] : f64
// CHECK: %[[W:.*]] = stencil.access %{{.*}}[0, -1]
// CHECK: %[[E:.*]] = math.exp %[[W]] : f64
// CHECK: %[[MX:.*]] = arith.maxnumf %[[M]], %[[E]] : f64
// CHECK: %[[NF:.*]] = arith.sitofp %{{.*}} : i32 to f64
// CHECK: %[[V1:.*]] = arith.addf %[[MX]], %[[NF]] : f64
// CHECK: %[[MN:.*]] = arith.minnumf %[[V1]], %{{.*}} : f64
// CHECK: %[[Q:.*]] = arith.divf %[[MN]], %{{.*}} : f64
// CHECK: %[[V2:.*]] = arith.addf %[[V1]], %[[Q]] : f64
// CHECK: stencil.return %[[V2]] : f64
void features(double (*U)[12], double V[16][12], int n, double h, long steps) {
  long t;
  int i;
#pragma stencil begin
#pragma stencil step(t:100)
#pragma stencil data source(double U[N][M]) destination(double V[N][M])
#pragma stencil dimension(i, j)
  for (t = 0; t <= steps; ++t) {
#pragma stencil calc
    for (i = R; i <= N - 2; i++)
      for (int j = 1; j < M - 1; j += 1) {
        double s = U[i - 1][j] + U[i + 1][j];
        s *= h;
        double m = s > 0.0 ? sqrt(s) : fabs(s);
        V[i][j] = fmax(m, exp(U[i][j - 1])) + n;
        V[i][j] += fmin(V[i][j], 2.0) / 3;
      }
#pragma stencil copy
    for (i = 1; i < N - 1; i++)
      for (int j = 1; j < M - 1; j++)
        U[i][j] = V[i][j];
  }
#pragma stencil end
}

// float arithmetic stays float; a double literal promotes, as in C.
// CHECK-LABEL: func.func @stencil_promote_0(
// CHECK: %[[X:.*]] = stencil.access %{{.*}}[0] : !stencil.field<8xf32>
// CHECK: %[[XD:.*]] = arith.extf %[[X]] : f32 to f64
// CHECK: %[[P:.*]] = arith.mulf %{{.*}}, %[[XD]] : f64
// CHECK: %[[T:.*]] = arith.truncf %[[P]] : f64 to f32
// CHECK: %[[F:.*]] = arith.mulf %{{.*}}, %[[T]] : f32
// CHECK: stencil.return %[[F]] : f32
// A second region in the same function gets the next name.
// CHECK-LABEL: func.func @stencil_promote_1(
void promote(float A[8], float B[8], int steps) {
  int t, i;
#pragma stencil begin
#pragma stencil step(t:10)
#pragma stencil data source(float A[8]) destination(float B[8])
#pragma stencil dimension(i)
  for (t = 0; t < steps; t++) {
#pragma stencil calc
    for (i = 1; i < 7; i++)
      B[i] = 0.5f * (float)(0.25 * A[i]);
#pragma stencil copy
    for (i = 1; i < 7; i++)
      A[i] = B[i];
  }
#pragma stencil end
#pragma stencil begin
#pragma stencil step(t:10)
#pragma stencil data source(float A[8]) destination(float B[8])
#pragma stencil dimension(i)
  for (int t = 0; t < steps; t++) {
#pragma stencil calc
    for (i = 1; i < 7; i++)
      B[i] = A[i - 1];
#pragma stencil copy
    for (i = 1; i < 7; i++)
      A[i] = B[i];
  }
#pragma stencil end
}

// Distribution: every field carries the decomposition; a read-only source
// read off-centre is exchanged once before the loop, a carried one every
// step, both along distributed axes only and at least the halo(2) width.
// Two destinations are copied into two sources by one copy apply.
// Arguments follow the `data` order: P, K, S, then Q, D.
// CHECK-LABEL: func.func @stencil_dist_0(
// CHECK: stencil.load
// CHECK-NEXT: %[[K:.*]] = stencil.load %{{.*}} : memref<8x8x8xf32> -> !stencil.field<8x8x8xf32, #stencil.decomp<block, block, *>>
// CHECK: %[[KX:.*]] = stencil.exchange %[[K]] widths [0, 2, 0]
// CHECK: stencil.iterate
// CHECK: %[[PX:.*]] = stencil.exchange %{{.*}} widths [2, 0, 0]
// CHECK: %[[NEW:.*]]:2 = stencil.apply on %{{.*}} ins({{.*}}%[[PX]]{{.*}}%[[KX]]{{.*}}) outs(
// CHECK: %[[COPY:.*]]:2 = stencil.apply on %{{.*}} ins(%{{.*}} = %[[NEW]]#0 {{.*}}, %{{.*}} = %[[NEW]]#1 {{.*}})
// CHECK: stencil.yield %[[COPY]]#0, %[[COPY]]#1, %[[NEW]]#0, %[[NEW]]#1
void dist(float P[8][8][8], float Q[8][8][8], float K[8][8][8],
          float D[8][8][8], float S[8][8][8], int steps) {
  int t, i, j, k;
#pragma stencil begin
#pragma stencil step(t:10)
#pragma stencil data source(float P[8][8][8], float K[8][8][8], float S[8][8][8]) destination(float Q[8][8][8], float D[8][8][8])
#pragma stencil dimension(i, j, k)
#pragma stencil distribute(block, block, *) halo(2)
  for (t = 0; t < steps; t++) {
#pragma stencil calc
    for (i = 2; i < 6; i++)
      for (j = 2; j < 6; j++)
        for (k = 1; k < 7; k++) {
          Q[i][j][k] = P[i - 1][j][k] + K[i][j + 1][k] + P[i][j][k - 1];
          D[i][j][k] = S[i][j][k] * 0.5f;
        }
#pragma stencil copy
    for (i = 2; i < 6; i++)
      for (j = 2; j < 6; j++)
        for (k = 1; k < 7; k++) {
          P[i][j][k] = Q[i][j][k];
          S[i][j][k] = D[i][j][k];
        }
  }
#pragma stencil end
}
