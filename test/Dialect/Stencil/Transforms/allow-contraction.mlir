// RUN: stencil-opt %s --stencil-allow-contraction | FileCheck %s

// Every floating-point arith operation gets `contract`, inside apply
// bodies and around them; flags it had stay; integer operations, which
// take no fast-math flags, are left alone.
// CHECK-LABEL: func.func @allow(
// CHECK: arith.mulf %{{.*}}, %{{.*}} fastmath<contract> : f32
// CHECK: stencil.apply
// CHECK: arith.mulf %{{.*}}, %{{.*}} fastmath<contract> : f32
// CHECK-NEXT: arith.addf %{{.*}}, %{{.*}} fastmath<nnan,contract> : f32
// CHECK-NEXT: arith.subf %{{.*}}, %{{.*}} fastmath<contract> : f32
// CHECK-NEXT: arith.negf %{{.*}} fastmath<contract> : f32
// CHECK: arith.addi %{{[^ ,]+}}, %{{[^ ,]+}} : i32
!f = !stencil.field<8x8xf32>
!i = !stencil.field<8x8xi32>
func.func @allow(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xi32>, %c: f32) {
  %a = stencil.load %A : memref<8x8xf32> -> !f
  %b = stencil.load %B : memref<8x8xf32> -> !f
  %k = stencil.load %C : memref<8x8xi32> -> !i
  %g = stencil.grid [1, 1] to [7, 7] : !stencil.grid<2>
  %c2 = arith.mulf %c, %c : f32
  %r:2 = stencil.apply on %g ins(%x = %a : !f, %y = %k : !i) outs(%b : !f, %k : !i) {
    %n = stencil.access %x[-1, 0] : !f
    %s = stencil.access %x[1, 0] : !f
    %m = arith.mulf %n, %s : f32
    %t = arith.addf %m, %s fastmath<nnan> : f32
    %u = arith.subf %t, %n : f32
    %v = arith.negf %u : f32
    %j = stencil.access %y[0, 0] : !i
    %l = arith.addi %j, %j : i32
    stencil.return %v, %l : f32, i32
  }
  stencil.store %r#0 to %B : !f to memref<8x8xf32>
  stencil.store %r#1 to %C : !i to memref<8x8xi32>
  return
}
