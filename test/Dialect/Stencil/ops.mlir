// Round-trip of every op: custom form, and generic form parsed back.
// RUN: stencil-opt %s | stencil-opt | FileCheck %s
// RUN: stencil-opt %s --mlir-print-op-generic | stencil-opt | FileCheck %s

// CHECK-LABEL: func.func @grid
func.func @grid(%n: index, %m: index) {
  // CHECK: stencil.grid [1] to [63] : !stencil.grid<1>
  %g1 = stencil.grid [1] to [63] : !stencil.grid<1>
  // CHECK: stencil.grid [0, 2] to [%{{.*}}, 30] : !stencil.grid<2>
  %g2 = stencil.grid [0, 2] to [%n, 30] : !stencil.grid<2>
  // CHECK: stencil.grid [%{{.*}}, 1, 1] to [%{{.*}}, 7, 7] : !stencil.grid<3>
  %g3 = stencil.grid [%m, 1, 1] to [%n, 7, 7] : !stencil.grid<3>
  return
}

// CHECK-LABEL: func.func @load_apply_store
// CHECK-SAME: (%[[A:.*]]: memref<66xf32>, %[[B:.*]]: memref<66xf32>, %[[C:.*]]: f32)
func.func @load_apply_store(%A: memref<66xf32>, %B: memref<66xf32>, %c: f32) {
  // CHECK: %[[F:.*]] = stencil.load %[[A]] : memref<66xf32> -> !stencil.field<66xf32>
  %a = stencil.load %A : memref<66xf32> -> !stencil.field<66xf32>
  %b = stencil.load %B : memref<66xf32> -> !stencil.field<66xf32>
  // CHECK: %[[G:.*]] = stencil.grid [1] to [65]
  %g = stencil.grid [1] to [65] : !stencil.grid<1>
  // CHECK: %[[R:.*]] = stencil.apply on %[[G]] ins(%[[X:.*]] = %[[F]] : !stencil.field<66xf32>, %[[W:.*]] = %[[C]] : f32) outs(%{{.*}} : !stencil.field<66xf32>) {
  // CHECK-NEXT: %[[L:.*]] = stencil.access %[[X]][-1] : !stencil.field<66xf32>
  // CHECK-NEXT: %[[H:.*]] = stencil.access %[[X]][1] : !stencil.field<66xf32>
  // CHECK-NEXT: %[[S:.*]] = arith.addf %[[L]], %[[H]] : f32
  // CHECK-NEXT: %[[V:.*]] = arith.mulf %[[W]], %[[S]] : f32
  // CHECK-NEXT: stencil.return %[[V]] : f32
  // CHECK-NEXT: }
  %r = stencil.apply on %g ins(%x = %a : !stencil.field<66xf32>, %w = %c : f32)
                          outs(%b : !stencil.field<66xf32>) {
    %l = stencil.access %x[-1] : !stencil.field<66xf32>
    %h = stencil.access %x[1] : !stencil.field<66xf32>
    %s = arith.addf %l, %h : f32
    %v = arith.mulf %w, %s : f32
    stencil.return %v : f32
  }
  // CHECK: stencil.store %[[R]] to %[[B]] : !stencil.field<66xf32> to memref<66xf32>
  stencil.store %r to %B : !stencil.field<66xf32> to memref<66xf32>
  return
}

// An apply with two outputs, no scalar inputs, dynamic sizes and a schedule.
// CHECK-LABEL: func.func @apply_multi
func.func @apply_multi(%f: !stencil.field<?x?xf64>, %o1: !stencil.field<?x?xf64>,
                       %o2: !stencil.field<?x?xf64>, %n: index) -> (!stencil.field<?x?xf64>, !stencil.field<?x?xf64>) {
  %g = stencil.grid [1, 1] to [%n, %n] : !stencil.grid<2>
  // CHECK: %{{.*}}:2 = stencil.apply on %{{.*}} ins(%[[X:.*]] = %{{.*}} : !stencil.field<?x?xf64>) outs(%{{.*}} : !stencil.field<?x?xf64>, %{{.*}} : !stencil.field<?x?xf64>) attributes {schedule = #stencil.schedule<wg = [4, 32]>} {
  // CHECK: stencil.access %[[X]][0, -1] : !stencil.field<?x?xf64>
  // CHECK: stencil.return %{{.*}}, %{{.*}} : f64, f64
  %r:2 = stencil.apply on %g ins(%x = %f : !stencil.field<?x?xf64>)
      outs(%o1 : !stencil.field<?x?xf64>, %o2 : !stencil.field<?x?xf64>)
      attributes {schedule = #stencil.schedule<wg = [4, 32]>} {
    %w = stencil.access %x[0, -1] : !stencil.field<?x?xf64>
    %e = stencil.access %x[0, 1] : !stencil.field<?x?xf64>
    %d = arith.subf %e, %w : f64
    stencil.return %w, %d : f64, f64
  }
  return %r#0, %r#1 : !stencil.field<?x?xf64>, !stencil.field<?x?xf64>
}

// The time loop with calc, copy and the explicit swap of seed 000 Fig. 4.
// CHECK-LABEL: func.func @iterate
func.func @iterate(%a0: !stencil.field<34x34xf32>, %b0: !stencil.field<34x34xf32>,
                   %steps: index) -> !stencil.field<34x34xf32> {
  %g = stencil.grid [1, 1] to [33, 33] : !stencil.grid<2>
  // CHECK: %[[R:.*]]:2 = stencil.iterate %{{.*}} iter_args(%[[A:.*]] = %{{.*}}, %[[B:.*]] = %{{.*}}) : !stencil.field<34x34xf32>, !stencil.field<34x34xf32> attributes {schedule = #stencil.schedule<wg = [8, 32], tile = [16, 32], time_block = 4, exchange_depth = 2>} {
  %r:2 = stencil.iterate %steps iter_args(%a = %a0, %b = %b0)
      : !stencil.field<34x34xf32>, !stencil.field<34x34xf32>
      attributes {schedule = #stencil.schedule<time_block = 4, wg = [8, 32],
                                                exchange_depth = 2, tile = [16, 32]>} {
    // CHECK: %[[N:.*]] = stencil.apply on %{{.*}} ins(%{{.*}} = %[[A]] : {{.*}}) outs(%[[B]] : {{.*}})
    %n = stencil.apply on %g ins(%x = %a : !stencil.field<34x34xf32>)
                             outs(%b : !stencil.field<34x34xf32>) {
      %v = stencil.access %x[1, 0] : !stencil.field<34x34xf32>
      stencil.return %v : f32
    }
    // CHECK: stencil.yield %[[N]], %[[A]] : !stencil.field<34x34xf32>, !stencil.field<34x34xf32>
    stencil.yield %n, %a : !stencil.field<34x34xf32>, !stencil.field<34x34xf32>
  }
  // CHECK: return %[[R]]#0
  return %r#0 : !stencil.field<34x34xf32>
}

// CHECK-LABEL: func.func @exchange
func.func @exchange(%p: !stencil.field<64x32x32xf32, #stencil.decomp<block, block, *>>)
    -> !stencil.field<64x32x32xf32, #stencil.decomp<block, block, *>> {
  // CHECK: stencil.exchange %{{.*}} widths [2, 1, 0] : !stencil.field<64x32x32xf32, #stencil.decomp<block, block, *>>
  %q = stencil.exchange %p widths [2, 1, 0]
      : !stencil.field<64x32x32xf32, #stencil.decomp<block, block, *>>
  return %q : !stencil.field<64x32x32xf32, #stencil.decomp<block, block, *>>
}

// Attributes standing alone, as passes and tests write them (names without
// the `stencil.` prefix: the dialect verifies the discardable attributes it
// declares and rejects other names under its prefix, see
// discardable-attrs.mlir).
// CHECK-LABEL: func.func @attributes
// CHECK-SAME: d1 = #stencil.decomp<block>
// CHECK-SAME: d3 = #stencil.decomp<*, *, block>
// CHECK-SAME: s1 = #stencil.schedule<wg = [256]>
// CHECK-SAME: s3 = #stencil.schedule<wg = [1, 4, 64], tile = [256, 4, 64], time_block = 2>
// CHECK-SAME: s4 = #stencil.schedule<wg = [1, 8, 254], streaming_stores = true>
// CHECK-SAME: s5 = #stencil.schedule<wg = [8, 254]>
func.func @attributes() attributes {
    d1 = #stencil.decomp<block>,
    d3 = #stencil.decomp<*, *, block>,
    s1 = #stencil.schedule<wg = [256], time_block = 1, exchange_depth = 1>,
    s3 = #stencil.schedule<wg = [1, 4, 64], tile = [256, 4, 64], time_block = 2>,
    s4 = #stencil.schedule<streaming_stores = true, wg = [1, 8, 254]>,
    s5 = #stencil.schedule<wg = [8, 254], streaming_stores = false>} {
  return
}

// Reductions: one scalar result per reduction after the fields; the body
// returns the contributions after the output values.
// CHECK-LABEL: func.func @reductions
// CHECK-SAME: (%[[A:.*]]: !stencil.field<66xf32>, %[[B:.*]]: !stencil.field<66xf32>, %[[Z:.*]]: f32, %[[M:.*]]: i64)
func.func @reductions(%a: !stencil.field<66xf32>, %b: !stencil.field<66xf32>,
                      %zero: f32, %m: i64) -> (!stencil.field<66xf32>, f32, i64) {
  %g = stencil.grid [1] to [65] : !stencil.grid<1>
  // CHECK: %{{.*}}:3 = stencil.apply on %{{.*}} ins(%[[X:.*]] = %[[A]] : !stencil.field<66xf32>) outs(%[[B]] : !stencil.field<66xf32>) reduce(add %[[Z]] : f32, max %[[M]] : i64) attributes {schedule = #stencil.schedule<wg = [64]>} {
  // CHECK: stencil.return %{{.*}}, %{{.*}}, %{{.*}} : f32, f32, i64
  %r:3 = stencil.apply on %g ins(%x = %a : !stencil.field<66xf32>)
      outs(%b : !stencil.field<66xf32>) reduce(add %zero : f32, max %m : i64)
      attributes {schedule = #stencil.schedule<wg = [64]>} {
    %v = stencil.access %x[1] : !stencil.field<66xf32>
    %sq = arith.mulf %v, %v : f32
    %i = arith.fptosi %v : f32 to i64
    stencil.return %v, %sq, %i : f32, f32, i64
  }
  return %r#0, %r#1, %r#2 : !stencil.field<66xf32>, f32, i64
}

// The kinds print by name; each reduction's type is its init's.
// CHECK-LABEL: func.func @reduction_kinds
// CHECK: reduce(mul %{{.*}} : f64, min %{{.*}} : f64, add %{{.*}} : i32) {
func.func @reduction_kinds(%a: !stencil.field<8x8xf64>, %p: f64, %i: i32) -> (f64, f64, i32) {
  %g = stencil.grid [0, 0] to [8, 8] : !stencil.grid<2>
  %r:4 = stencil.apply on %g ins(%x = %a : !stencil.field<8x8xf64>)
      outs(%a : !stencil.field<8x8xf64>) reduce(mul %p : f64, min %p : f64, add %i : i32) {
    %v = stencil.access %x[0, 0] : !stencil.field<8x8xf64>
    %one = arith.constant 1 : i32
    stencil.return %v, %v, %v, %one : f64, f64, f64, i32
  }
  return %r#1, %r#2, %r#3 : f64, f64, i32
}

// A time loop may carry scalars beside its fields: here a sum that
// accumulates across steps.
// CHECK-LABEL: func.func @iterate_scalars
// CHECK: %{{.*}}:3 = stencil.iterate %{{.*}} iter_args(%[[U:.*]] = %{{.*}}, %[[V:.*]] = %{{.*}}, %[[S:.*]] = %{{.*}}) : !stencil.field<34xf32>, !stencil.field<34xf32>, f32 {
// CHECK: reduce(add %[[S]] : f32)
// CHECK: stencil.yield %{{.*}}, %{{.*}}, %{{.*}} : !stencil.field<34xf32>, !stencil.field<34xf32>, f32
func.func @iterate_scalars(%steps: index, %a: !stencil.field<34xf32>, %b: !stencil.field<34xf32>,
                           %s0: f32) -> f32 {
  %g = stencil.grid [1] to [33] : !stencil.grid<1>
  %r:3 = stencil.iterate %steps iter_args(%u = %a, %v = %b, %s = %s0)
      : !stencil.field<34xf32>, !stencil.field<34xf32>, f32 {
    %n, %sum = stencil.apply on %g ins(%x = %u : !stencil.field<34xf32>)
        outs(%v : !stencil.field<34xf32>) reduce(add %s : f32) {
      %w = stencil.access %x[-1] : !stencil.field<34xf32>
      stencil.return %w, %w : f32, f32
    }
    stencil.yield %n, %u, %sum : !stencil.field<34xf32>, !stencil.field<34xf32>, f32
  }
  return %r#2 : f32
}

// The point's coordinates as values.
// CHECK-LABEL: func.func @index
func.func @index(%A: memref<8x8xf32>) {
  %a = stencil.load %A : memref<8x8xf32> -> !stencil.field<8x8xf32>
  %g = stencil.grid [1, 1] to [7, 7] : !stencil.grid<2>
  %r = stencil.apply on %g ins(%x = %a : !stencil.field<8x8xf32>) outs(%a : !stencil.field<8x8xf32>) {
    // CHECK: %[[I:.*]] = stencil.index 0
    // CHECK-NEXT: %[[J:.*]] = stencil.index 1
    %i = stencil.index 0
    %j = stencil.index 1
    // CHECK-NEXT: arith.muli %[[I]], %[[J]] : index
    %ij = arith.muli %i, %j : index
    %n = arith.index_cast %ij : index to i32
    %v = arith.sitofp %n : i32 to f32
    stencil.return %v : f32
  }
  return
}

// A lower-rank field read along some grid axes, in any order.
// CHECK-LABEL: func.func @lower_rank_along
// CHECK: stencil.access %{{.*}}[-1] along [2] : !stencil.field<8xf32>
// CHECK: stencil.access %{{.*}}[0, 1] along [2, 0] : !stencil.field<8x8xf32>
func.func @lower_rank_along(%a: !stencil.field<8x8x8xf32>, %c: !stencil.field<8xf32>, %d: !stencil.field<8x8xf32>, %b: !stencil.field<8x8x8xf32>) {
  %g = stencil.grid [1, 1, 1] to [7, 7, 7] : !stencil.grid<3>
  %r = stencil.apply on %g ins(%x = %a : !stencil.field<8x8x8xf32>, %y = %c : !stencil.field<8xf32>, %z = %d : !stencil.field<8x8xf32>) outs(%b : !stencil.field<8x8x8xf32>) {
    %u = stencil.access %x[0, 0, 0] : !stencil.field<8x8x8xf32>
    %v = stencil.access %y[-1] along [2] : !stencil.field<8xf32>
    %w = stencil.access %z[0, 1] along [2, 0] : !stencil.field<8x8xf32>
    %s = arith.mulf %u, %v : f32
    %t = arith.addf %s, %w : f32
    stencil.return %t : f32
  }
  return
}
