// RUN: stencil-opt %s -canonicalize -split-input-file | FileCheck %s

// An apply whose second result is unused keeps one output and returns one
// value; the input only the dropped output needed goes too.
// CHECK-LABEL: func.func @unused_result
// CHECK-SAME: (%[[A:.*]]: !stencil.field<8xf32>, %[[B:.*]]: !stencil.field<8xf32>, %[[C:.*]]: !stencil.field<8xf32>, %[[D:.*]]: !stencil.field<8xf32>)
// CHECK: %[[R:.*]] = stencil.apply on %{{.*}} ins(%[[X:.*]] = %[[A]] : !stencil.field<8xf32>) outs(%[[C]] : !stencil.field<8xf32>) {
// CHECK-NEXT: %[[V:.*]] = stencil.access %[[X]][-1]
// CHECK-NEXT: stencil.return %[[V]] : f32
// CHECK-NEXT: }
// CHECK-NEXT: return %[[R]]
func.func @unused_result(%a: !stencil.field<8xf32>, %b: !stencil.field<8xf32>,
                         %c: !stencil.field<8xf32>, %d: !stencil.field<8xf32>) -> !stencil.field<8xf32> {
  %g = stencil.grid [1] to [7] : !stencil.grid<1>
  %r:2 = stencil.apply on %g ins(%x = %a : !stencil.field<8xf32>, %y = %b : !stencil.field<8xf32>)
      outs(%c : !stencil.field<8xf32>, %d : !stencil.field<8xf32>) {
    %u = stencil.access %x[-1] : !stencil.field<8xf32>
    %v = stencil.access %y[1] : !stencil.field<8xf32>
    stencil.return %u, %v : f32, f32
  }
  return %r#0 : !stencil.field<8xf32>
}

// -----

// An apply none of whose results is used is dead.
// CHECK-LABEL: func.func @dead_apply
// CHECK-NOT: stencil.apply
// CHECK: return
func.func @dead_apply(%a: !stencil.field<8xf32>, %c: !stencil.field<8xf32>) {
  %g = stencil.grid [1] to [7] : !stencil.grid<1>
  %r = stencil.apply on %g ins(%x = %a : !stencil.field<8xf32>) outs(%c : !stencil.field<8xf32>) {
    %u = stencil.access %x[-1] : !stencil.field<8xf32>
    stencil.return %u : f32
  }
  return
}

// -----

// Unused inputs are dropped and an operand passed twice is read through one
// argument.
// CHECK-LABEL: func.func @inputs
// CHECK-SAME: (%[[A:.*]]: !stencil.field<8xf32>, %[[B:.*]]: !stencil.field<8xf32>, %[[S:.*]]: f32)
// CHECK: stencil.apply on %{{.*}} ins(%[[X:.*]] = %[[A]] : !stencil.field<8xf32>) outs(%[[B]] : !stencil.field<8xf32>) {
// CHECK-NEXT: %[[L:.*]] = stencil.access %[[X]][-1]
// CHECK-NEXT: %[[H:.*]] = stencil.access %[[X]][1]
// CHECK-NEXT: arith.addf %[[L]], %[[H]]
func.func @inputs(%a: !stencil.field<8xf32>, %b: !stencil.field<8xf32>, %s: f32) -> !stencil.field<8xf32> {
  %g = stencil.grid [1] to [7] : !stencil.grid<1>
  %r = stencil.apply on %g ins(%x = %a : !stencil.field<8xf32>, %unused = %s : f32,
                               %y = %a : !stencil.field<8xf32>) outs(%b : !stencil.field<8xf32>) {
    %l = stencil.access %x[-1] : !stencil.field<8xf32>
    %h = stencil.access %y[1] : !stencil.field<8xf32>
    %v = arith.addf %l, %h : f32
    stencil.return %v : f32
  }
  return %r : !stencil.field<8xf32>
}

// -----

// Bounds given by constants become static bounds; others stay operands.
// CHECK-LABEL: func.func @grid_bounds
// CHECK-SAME: (%[[N:.*]]: index)
// CHECK: stencil.grid [1, 2] to [%[[N]], 63] : !stencil.grid<2>
func.func @grid_bounds(%n: index) -> !stencil.grid<2> {
  %c2 = arith.constant 2 : index
  %c63 = arith.constant 63 : index
  %g = stencil.grid [1, %c2] to [%n, %c63] : !stencil.grid<2>
  return %g : !stencil.grid<2>
}

// -----

// A time loop of zero steps yields its initial fields; one of unknown length
// stays.
// CHECK-LABEL: func.func @zero_steps
// CHECK-SAME: (%[[A:.*]]: !stencil.field<8xf32>, %[[B:.*]]: !stencil.field<8xf32>, %[[N:.*]]: index)
// CHECK: %[[R:.*]]:2 = stencil.iterate %[[N]]
// CHECK: return %[[B]], %[[R]]#0
func.func @zero_steps(%a: !stencil.field<8xf32>, %b: !stencil.field<8xf32>, %n: index)
    -> (!stencil.field<8xf32>, !stencil.field<8xf32>) {
  %c0 = arith.constant 0 : index
  %z:2 = stencil.iterate %c0 iter_args(%x = %a, %y = %b) : !stencil.field<8xf32>, !stencil.field<8xf32> {
    stencil.yield %y, %x : !stencil.field<8xf32>, !stencil.field<8xf32>
  }
  %r:2 = stencil.iterate %n iter_args(%x = %a, %y = %b) : !stencil.field<8xf32>, !stencil.field<8xf32> {
    stencil.yield %y, %x : !stencil.field<8xf32>, !stencil.field<8xf32>
  }
  return %z#1, %r#0 : !stencil.field<8xf32>, !stencil.field<8xf32>
}

// -----

// An exchange of width 0 everywhere is the identity; a real one stays.
// CHECK-LABEL: func.func @exchange
// CHECK-SAME: (%[[P:.*]]: !stencil.field
// CHECK: %[[Q:.*]] = stencil.exchange %[[P]] widths [1, 0]
// CHECK: return %[[P]], %[[Q]]
func.func @exchange(%p: !stencil.field<8x8xf32, #stencil.decomp<block, *>>)
    -> (!stencil.field<8x8xf32, #stencil.decomp<block, *>>, !stencil.field<8x8xf32, #stencil.decomp<block, *>>) {
  %z = stencil.exchange %p widths [0, 0] : !stencil.field<8x8xf32, #stencil.decomp<block, *>>
  %q = stencil.exchange %p widths [1, 0] : !stencil.field<8x8xf32, #stencil.decomp<block, *>>
  return %z, %q : !stencil.field<8x8xf32, #stencil.decomp<block, *>>, !stencil.field<8x8xf32, #stencil.decomp<block, *>>
}

// -----

// An unused reduction goes, with the ops only its contribution needed.
// CHECK-LABEL: func.func @unused_reduction
// CHECK: %[[R:.*]]:2 = stencil.apply on %{{.*}} ins(%{{.*}} = %{{.*}} : !stencil.field<8xf32>) outs(%{{.*}} : !stencil.field<8xf32>) reduce(max %{{.*}} : f32) {
// CHECK-NOT: arith.mulf
// CHECK: stencil.return %{{.*}}, %{{.*}} : f32, f32
// CHECK: return %[[R]]#0, %[[R]]#1
func.func @unused_reduction(%a: !stencil.field<8xf32>, %b: !stencil.field<8xf32>, %z: f32)
    -> (!stencil.field<8xf32>, f32) {
  %g = stencil.grid [1] to [7] : !stencil.grid<1>
  %r:3 = stencil.apply on %g ins(%x = %a : !stencil.field<8xf32>) outs(%b : !stencil.field<8xf32>)
      reduce(add %z : f32, max %z : f32) {
    %v = stencil.access %x[-1] : !stencil.field<8xf32>
    %sq = arith.mulf %v, %v : f32
    stencil.return %v, %sq, %v : f32, f32, f32
  }
  return %r#0, %r#2 : !stencil.field<8xf32>, f32
}

// -----

// When only a reduction is used, the apply keeps its first output (an apply
// writes at least one field) and drops the others.
// CHECK-LABEL: func.func @only_reduction_used
// CHECK: %[[R:.*]]:2 = stencil.apply on %{{.*}} ins(%{{.*}} = %{{.*}} : !stencil.field<8xf32>) outs(%[[C:.*]] : !stencil.field<8xf32>) reduce(add %{{.*}} : f32) {
// CHECK: return %[[R]]#1
func.func @only_reduction_used(%a: !stencil.field<8xf32>, %c: !stencil.field<8xf32>,
                               %d: !stencil.field<8xf32>, %z: f32) -> f32 {
  %g = stencil.grid [1] to [7] : !stencil.grid<1>
  %r:3 = stencil.apply on %g ins(%x = %a : !stencil.field<8xf32>)
      outs(%c : !stencil.field<8xf32>, %d : !stencil.field<8xf32>) reduce(add %z : f32) {
    %v = stencil.access %x[-1] : !stencil.field<8xf32>
    stencil.return %v, %v, %v : f32, f32, f32
  }
  return %r#2 : f32
}

// -----

// Nothing used: the reducing apply is dead too.
// CHECK-LABEL: func.func @dead_reduction
// CHECK-NOT: stencil.apply
func.func @dead_reduction(%a: !stencil.field<8xf32>, %z: f32) {
  %g = stencil.grid [1] to [7] : !stencil.grid<1>
  %r:2 = stencil.apply on %g ins(%x = %a : !stencil.field<8xf32>) outs(%a : !stencil.field<8xf32>) reduce(add %z : f32) {
    %v = stencil.access %x[-1] : !stencil.field<8xf32>
    stencil.return %v, %v : f32, f32
  }
  return
}
