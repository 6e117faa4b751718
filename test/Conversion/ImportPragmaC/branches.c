// if / else if / else in a calc body (IfConversion.cpp): both branches are
// translated and what either changes is selected by the condition. A
// destination a path leaves alone keeps its value at the point (read
// through its field); a reduction gets its identity there; an integer
// division on a path C may not take divides by 1 instead of trapping; the
// right operand of && is evaluated under the left one's guard.
// RUN: stencil-translate --import-pragma-c %s | FileCheck %s

#define N 64
static float total;

// CHECK-LABEL: func.func @stencil_sweep_0(
// CHECK: stencil.apply on %{{.*}} ins(%[[M:[^ ]*]] = %{{.*}}, %[[A:[^ ]*]] = %{{.*}}, %[[OLD:[^ ]*]] = %{{.*}}) outs(%{{.*}}) reduce(add %{{.*}} : f32) {
// CHECK: %[[MV:.*]] = stencil.access %[[M]][0]
// CHECK: %[[MI:.*]] = arith.fptosi %[[MV]] : f32 to i32
// CHECK: %[[POS:.*]] = arith.cmpi sgt, %[[MI]], %{{.*}} : i32
// CHECK: %[[NZ:.*]] = arith.cmpf une, %{{.*}}, %{{.*}} : f32
// CHECK: %[[THEN:.*]] = arith.andi %[[POS]], %[[NZ]] : i1
// CHECK: %[[WEST:.*]] = stencil.access %[[A]][-1]
// CHECK: %[[C1:.*]] = arith.constant 1 : i32
// CHECK: %[[SAFE:.*]] = arith.select %[[THEN]], %[[MI]], %[[C1]] : i32
// CHECK: arith.divsi %{{.*}}, %[[SAFE]] : i32
// CHECK: %[[NEW:.*]] = arith.addf %[[WEST]], %{{.*}} : f32
// CHECK: %[[MNZ:.*]] = arith.cmpi ne, %[[MI]], %{{.*}} : i32
// CHECK-NEXT: %{{.*}} = arith.constant true
// CHECK-NEXT: %[[ISZERO:.*]] = arith.xori %[[MNZ]], %{{.*}} : i1
// CHECK: %[[CENTRE:.*]] = stencil.access %[[A]][0]
// CHECK: %[[INNER:.*]] = arith.select %[[ISZERO]], %[[CENTRE]], %[[ZERO:.*]] : f32
// CHECK: %[[KEEP:.*]] = stencil.access %[[OLD]][0]
// CHECK: %[[B:.*]] = arith.select %[[THEN]], %[[NEW]], %[[KEEP]] : f32
// CHECK: %[[SUM:.*]] = arith.select %[[THEN]], %{{.*}}, %[[INNER]] : f32
// CHECK: stencil.return %[[B]], %[[SUM]] : f32, f32
void sweep(float M[N], float A[N], float B[N], int steps) {
  int i, t;
#pragma stencil begin
#pragma stencil step(t:100)
#pragma stencil data source(float M[N], float A[N]) destination(float B[N])
#pragma stencil dimension(i)
  for (t = 0; t < steps; t++) {
#pragma stencil calc
    for (i = 1; i < N - 1; i++) {
      int m = (int)M[i];
      if (m > 0 && A[i] != 0.0f)
        B[i] = A[i - 1] + (float)(7 / m);
      else if (!m)
        total += A[i];
    }
#pragma stencil copy
    for (i = 1; i < N - 1; i++) A[i] = B[i];
  }
#pragma stencil end
}
