// The loop indices and the step variable as values. An index is the
// point's coordinate (stencil.index), converted to the C variable's type;
// the step variable is carried by the time loop from the first step's
// value, an argument of the region's function, and grows by one per step.
// Integer arithmetic: %, /, shifts (the count converted to the shifted
// value's width), &, |, ^.
// RUN: stencil-translate --import-pragma-c %s --rewrite-c=%t.host.c | FileCheck %s
// RUN: FileCheck %s --check-prefix=HOST --input-file %t.host.c

#define N 32
float A[N][N], B[N][N];

// CHECK-LABEL: func.func @stencil_source_0(
// CHECK-SAME: %{{[^:]*}}: memref<32x32xf32>, %{{[^:]*}}: memref<32x32xf32>, %[[DT:[^:]*]]: f32, %[[FIRST:[^:]*]]: i32, %[[STEPS:[^:]*]]: index)
// CHECK: stencil.iterate %[[STEPS]] iter_args(%{{[^ ]*}} = %{{[^ ]*}}, %{{[^ ]*}} = %{{[^ ]*}}, %[[T:[^ ]*]] = %[[FIRST]]) : {{.*}}, i32 {
// CHECK: stencil.apply on %{{.*}} ins({{.*}}%[[TIN:[^ ]*]] = %[[T]] : i32
// CHECK: %[[I:.*]] = stencil.index 0
// CHECK-NEXT: %[[II:.*]] = arith.index_cast %[[I]] : index to i32
// CHECK: %[[J:.*]] = stencil.index 1
// CHECK-NEXT: %[[JI:.*]] = arith.index_cast %[[J]] : index to i32
// CHECK: %[[IJ:.*]] = arith.muli %[[II]], %[[JI]] : i32
// CHECK: arith.remsi %[[IJ]], %{{.*}} : i32
// CHECK: arith.shrsi %{{.*}}, %{{.*}} : i32
// CHECK: arith.andi
// CHECK: arith.xori
// CHECK: arith.ori
// CHECK: %[[SHIFT:.*]] = arith.trunci %{{.*}} : i64 to i32
// CHECK-NEXT: arith.shli %{{.*}}, %[[SHIFT]] : i32
// CHECK: arith.sitofp %[[TIN]] : i32 to f32
// CHECK: %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-NEXT: %[[NEXT:.*]] = arith.addi %[[T]], %[[ONE]] : i32
// CHECK-NEXT: stencil.yield %{{.*}}, %{{.*}}, %[[NEXT]] : {{.*}}, i32
void source(int steps, float dt) {
  int t, i, j;
#pragma stencil begin
#pragma stencil step(t:100)
#pragma stencil data source(float A[N][N]) destination(float B[N][N])
#pragma stencil dimension(i, j)
  for (t = 3; t < steps + 3; t++) {
#pragma stencil calc
    for (i = 1; i < N - 1; i++)
      for (j = 1; j < N - 1; j++) {
        int cell = (i * j % 13) + ((i >> 1) & 3) + ((i ^ j) | 1) + (j << 2L);
        B[i][j] = A[i][j] + dt * (float)cell * (float)t;
      }
#pragma stencil copy
    for (i = 1; i < N - 1; i++)
      for (j = 1; j < N - 1; j++)
        A[i][j] = B[i][j];
  }
#pragma stencil end
}

// HOST: extern void stencil_source_0(float *A, float *B, float dt, int t, long long steps);
// HOST: stencil_source_0(&A[0][0], &B[0][0], dt, (3), stencil_source_0_steps);
