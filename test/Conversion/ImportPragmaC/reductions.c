// Reductions: variables of the enclosing function that the calc body
// updates. Every C form maps to one kind; the contribution is the other
// operand converted to the variable's type; several updates of one
// variable at a point combine; a reset before the calc nest becomes the
// reduction's init, otherwise the loop carries the variable's value.
// RUN: stencil-translate --import-pragma-c %s --manifest=%t.json --rewrite-c=%t.host.c | FileCheck %s
// RUN: stencil-translate --import-pragma-c %s | stencil-opt | stencil-opt | FileCheck %s
// RUN: FileCheck %s --check-prefix=HOST --input-file %t.host.c
// RUN: FileCheck %s --check-prefix=MANIFEST --input-file %t.json
// RUN: %clang -fsyntax-only -Wall -Werror -Wno-unused-but-set-variable %t.host.c

#include <math.h>

#define N 16

// CHECK-LABEL: func.func @stencil_kinds_0(
// CHECK-SAME: %[[A:[^:]*]]: memref<16xf32>, %[[B:[^:]*]]: memref<16xf32>, %[[SUM:[^:]*]]: memref<f32>, %[[PROD:[^:]*]]: memref<f64>, %[[HI:[^:]*]]: memref<f32>, %[[LO:[^:]*]]: memref<f32>, %[[COUNT:[^:]*]]: memref<i32>, %[[BIG:[^:]*]]: memref<i64>, %[[STEPS:[^:]*]]: index)
// CHECK-DAG: %[[SUM0:.*]] = memref.load %[[SUM]][] : memref<f32>
// CHECK-DAG: %[[PROD0:.*]] = memref.load %[[PROD]][] : memref<f64>
// sum = 0.0 resets every step: its init is the constant, converted.
// CHECK: %[[ZERO:.*]] = arith.truncf %{{.*}} : f64 to f32
// CHECK: %[[LOOP:.*]]:8 = stencil.iterate %[[STEPS]] iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %[[SUM0]], %[[P:.*]] = %[[PROD0]], %[[H:[^ ]*]] = %{{.*}}, %[[L:[^ ]*]] = %{{.*}}, %[[C:[^ ]*]] = %{{.*}}, %[[G:[^ ]*]] = %{{.*}}) : !stencil.field<16xf32>, !stencil.field<16xf32>, f32, f64, f32, f32, i32, i64 {
// CHECK: stencil.apply {{.*}} reduce(add %[[ZERO]] : f32, mul %[[P]] : f64, max %[[H]] : f32, min %[[L]] : f32, add %[[C]] : i32, max %[[G]] : i64) {
// CHECK: %[[X:.*]] = stencil.access %{{.*}}[-1]
// sum += x; sum -= 0.5f * x; sum = sum + x: one contribution, x + (-(0.5 x)) + x.
// CHECK: %[[HALF:.*]] = arith.mulf %{{.*}}, %{{.*}} : f32
// CHECK: %[[NEG:.*]] = arith.negf %[[HALF]] : f32
// CHECK: %[[S1:.*]] = arith.addf %{{.*}}, %[[NEG]] : f32
// CHECK: %[[S2:.*]] = arith.addf %[[S1]], %{{.*}} : f32
// prod *= x (promoted to double), prod = 2.0 * prod.
// CHECK: %[[XD:.*]] = arith.extf %{{.*}} : f32 to f64
// CHECK: %[[P2:.*]] = arith.mulf %[[XD]], %{{.*}} : f64
// fmaxf(hi, x), hi > x ? hi : x, x < hi ? hi : x: three contributions x
// to a maximum; fminf(x, lo), lo <= x ? lo : x: two to a minimum.
// CHECK: %[[M1:.*]] = arith.maxnumf %[[X]], %[[X]] : f32
// CHECK: %[[M3:.*]] = arith.maxnumf %[[M1]], %[[X]] : f32
// CHECK: %[[N2:.*]] = arith.minnumf %[[X]], %[[X]] : f32
// count -= 1 on an int: 0 - 1.
// CHECK: %[[ONE:.*]] = arith.constant 1 : i32
// CHECK: %[[ZI:.*]] = arith.constant 0 : i32
// CHECK: %[[MINUS:.*]] = arith.subi %[[ZI]], %[[ONE]] : i32
// big = big > k ? big : k on a long, k an int.
// CHECK: %[[K:.*]] = arith.extsi %{{.*}} : i32 to i64
// CHECK: stencil.return %{{.*}}, %[[S2]], %[[P2]], %[[M3]], %[[N2]], %[[MINUS]], %[[K]] : f32, f32, f64, f32, f32, i32, i64
// CHECK: stencil.yield %{{.*}}, %{{.*}}, %{{.*}}#1, %{{.*}}#2, %{{.*}}#3, %{{.*}}#4, %{{.*}}#5, %{{.*}}#6 :
// CHECK: memref.store %[[LOOP]]#2, %[[SUM]][] : memref<f32>
// CHECK: memref.store %[[LOOP]]#7, %[[BIG]][] : memref<i64>
void kinds(float A[N], float B[N], int steps) {
  float sum = 0, hi = -1e30f, lo = 1e30f;
  double prod = 1;
  int count = 0, i, t;
  long big = 0;
#pragma stencil begin
#pragma stencil step(t:10)
#pragma stencil data source(float A[N]) destination(float B[N])
#pragma stencil dimension(i)
  for (t = 0; t < steps; t++) {
    sum = 0.0;
#pragma stencil calc
    for (i = 1; i < N - 1; i++) {
      float x = A[i - 1];
      int k = (int)x;
      B[i] = x;
      sum += x;
      sum -= 0.5f * x;
      sum = sum + x;
      prod *= x;
      prod = 2.0 * prod;
      hi = fmaxf(hi, x);
      hi = hi > x ? hi : x;
      hi = x < hi ? hi : x;
      lo = fminf(x, lo);
      lo = lo <= x ? lo : x;
      count -= 1;
      big = big > k ? big : k;
    }
#pragma stencil copy
    for (i = 1; i < N - 1; i++) A[i] = B[i];
  }
#pragma stencil end
}

// HOST: extern void stencil_kinds_0(float *A, float *B, float *sum, double *prod, float *hi, float *lo, int *count, long *big, long long steps);
// HOST-NEXT: long long stencil_kinds_0_steps; extern void stencil_bound_error(const char *, long long); if (__builtin_sub_overflow((steps), (0), &stencil_kinds_0_steps)) stencil_bound_error("{{.*}}: the time loop over 't' from (0) to (steps) counts more steps than 64 bits hold (%lld after wrapping)", stencil_kinds_0_steps); if (stencil_kinds_0_steps > 0 && __builtin_add_overflow((0), stencil_kinds_0_steps - 1, &(int){0})) stencil_bound_error("{{.*}}: the time loop over 't' from (0) to (steps) runs %lld steps, beyond what 't' (int) can count to", stencil_kinds_0_steps);
// HOST-NEXT: stencil_kinds_0(&A[0], &B[0], &sum, &prod, &hi, &lo, &count, &big, stencil_kinds_0_steps);

// MANIFEST: "reductions": [
// MANIFEST-NEXT: {
// MANIFEST-NEXT: "kind": "add",
// MANIFEST-NEXT: "name": "sum",
// MANIFEST-NEXT: "reset": "0.0",
// MANIFEST-NEXT: "type": "float"
// MANIFEST-NEXT: },
// MANIFEST-NEXT: {
// MANIFEST-NEXT: "kind": "mul",
// MANIFEST-NEXT: "name": "prod",
// MANIFEST-NEXT: "reset": null,
// MANIFEST-NEXT: "type": "double"
