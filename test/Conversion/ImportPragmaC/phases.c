// Statements before and after the time loop: `calc` nests that run once
// (initialization, reductions), resets of the variables they reduce into,
// and stencil_write_raw calls; `distribute(...) resident` marks the arrays
// that exist only as the MPI ranks' blocks.
// RUN: stencil-translate --import-pragma-c %s -I %stencil_src_root/runtime/include --rewrite-c=%t.host.c --manifest=%t.json | FileCheck %s
// RUN: stencil-translate --import-pragma-c %s -I %stencil_src_root/runtime/include | stencil-opt | stencil-opt | FileCheck %s
// RUN: FileCheck %s --check-prefix=HOST --input-file %t.host.c
// RUN: stencil-translate --import-pragma-c %s -I %stencil_src_root/runtime/include --resident-blocks --rewrite-c=%t.mpi.c -o /dev/null
// RUN: FileCheck %s --check-prefix=MPI --input-file %t.mpi.c
// RUN: %clang -fsyntax-only -Wall -Werror -I %stencil_src_root/runtime/include %t.host.c
// RUN: %clang -fsyntax-only -Wall -Werror -I %stencil_src_root/runtime/include %t.mpi.c

#include "stencil_io.h"

#define N 32

static float A[N][N], B[N][N];
static float C[N][N];

// CHECK-LABEL: func.func @stencil_main_0(
// The resident arrays are marked; C, named by no `resident`, is not. The
// arrays come in `data` order, sources first.
// CHECK-SAME: %[[A:[^:]*]]: memref<32x32xf32> {stencil.resident}, %[[C:[^:]*]]: memref<32x32xf32>, %[[B:[^:]*]]: memref<32x32xf32> {stencil.resident}, %[[SUM:[^:]*]]: memref<f64>, %[[HI:[^:]*]]: memref<f32>, %[[PATH0:[^:]*]]: memref<i8>, %[[PATH1:[^:]*]]: memref<i8>, %[[STEPS:[^:]*]]: index)
// CHECK: %[[FA:.*]] = stencil.load %[[A]]
// CHECK: %[[FC:.*]] = stencil.load %[[C]]
// CHECK: %[[FB:.*]] = stencil.load %[[B]]
// CHECK: %[[ALL:.*]] = stencil.grid [0, 0] to [32, 32]
// CHECK: %[[IN:.*]] = stencil.grid [1, 1] to [31, 31]
// CHECK: %[[SUM0:.*]] = memref.load %[[SUM]][]
// CHECK: %[[HI0:.*]] = memref.load %[[HI]][]
// The reset of `sum` after the loop is its reduction's init.
// CHECK: %[[ZERO:.*]] = arith.constant 0.0{{.*}} : f64
// Before the loop: the initialization writes A, C and B from the
// coordinates; C is only read in the loop, so the loop does not carry it.
// CHECK: %[[INIT:.*]]:3 = stencil.apply on %[[ALL]] ins() outs(%[[FA]] : {{.*}}, %[[FC]] : {{.*}}, %[[FB]] : {{.*}})
// CHECK: stencil.index 0
// CHECK: stencil.index 1
// CHECK: stencil.write_raw %[[INIT]]#1 to %[[PATH0]] : !stencil.field<32x32xf32, #stencil.decomp<block, *>> to memref<i8>
// C's halo, exchanged once, before the loop.
// CHECK: %[[XC:.*]] = stencil.exchange %[[INIT]]#1 widths [1, 0]
// CHECK: %[[LOOP:.*]]:2 = stencil.iterate %[[STEPS]] iter_args(%[[LA:.*]] = %[[INIT]]#0, %[[LB:.*]] = %[[INIT]]#2)
// CHECK: stencil.apply on %[[IN]] ins({{.*}} = %[[LA]] : {{.*}}, {{.*}} = %[[XC]] : {{.*}}) outs(%[[LB]] : {{.*}})
// CHECK: stencil.yield
// After the loop: a reduction that writes no field; the field read at its
// points only needs no exchange.
// CHECK: %[[R:.*]]:2 = stencil.apply on %[[ALL]] ins(%{{.*}} = %[[LOOP]]#0 : {{.*}}) outs() reduce(add %[[ZERO]] : f64, max %[[HI0]] : f32)
// CHECK: stencil.write_raw %[[LOOP]]#0 to %[[PATH1]]
// Every array the region writes is stored back, the reductions too.
// CHECK: stencil.store %[[LOOP]]#0 to %[[A]]
// CHECK: stencil.store %[[INIT]]#1 to %[[C]]
// CHECK: stencil.store %[[LOOP]]#1 to %[[B]]
// CHECK: memref.store %[[R]]#0, %[[SUM]][]
// CHECK: memref.store %[[R]]#1, %[[HI]][]
int main(int argc, char **argv) {
  int i, j, t, steps = argc > 1 ? 5 : 3;
  double sum;
  float hi = -1.0f;
#pragma stencil begin
#pragma stencil step(t:10)
#pragma stencil data source(float A[N][N], float C[N][N]) destination(float B[N][N])
#pragma stencil dimension(i, j)
#pragma stencil distribute(block, *) resident(A, B)
#pragma stencil calc
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++) {
      A[i][j] = (float)(i * N + j);
      B[i][j] = 0.0f;
      C[i][j] = (float)(i - j);
    }
  stencil_write_raw(C, "c.raw");
  for (t = 0; t < steps; t++) {
#pragma stencil calc
    for (i = 1; i < N - 1; i++)
      for (j = 1; j < N - 1; j++)
        B[i][j] = A[i][j] + C[i - 1][j] + C[i + 1][j];
#pragma stencil copy
    for (i = 1; i < N - 1; i++)
      for (j = 1; j < N - 1; j++)
        A[i][j] = B[i][j];
  }
  sum = 0.0;
#pragma stencil calc
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++) {
      sum += A[i][j];
      hi = hi > A[i][j] ? hi : A[i][j];
    }
  if (argc > 2)
    stencil_write_raw(A, argv[2]);
#pragma stencil end
  return (int)sum + (int)hi + i + j + t;
}

// The call passes the arrays, the reductions and the file names (null for
// a write whose condition does not hold); it runs whatever the number of
// steps, and the loop variables end as the last nest leaves them.
// HOST: {{^}}__attribute__((aligned(64))) static float A[N][N], B[N][N];
// HOST: {{^}}  stencil_main_0(&A[0][0], &C[0][0], &B[0][0], &sum, &hi, ("c.raw"), (argc > 2) ? (const char *)(argv[2]) : (const char *)0, stencil_main_0_steps);
// HOST-NEXT: {{^}}  i = 32; j = 32;
// HOST-NEXT: if (stencil_main_0_steps > 0) { i = 31; j = 31; }
// HOST-NEXT: i = 32; j = 32;
// Under stencilcc --mpi, A and B have no definition and get null pointers;
// C stays, scattered from every rank's copy.
// MPI: {{^}}/* A, B: resident, held as the MPI ranks' blocks (stencilcc --mpi) */
// MPI-NEXT: {{^}}__attribute__((aligned(64))) static float C[N][N];
// MPI: {{^}}  stencil_main_0((float *)0, &C[0][0], (float *)0, &sum, &hi,
