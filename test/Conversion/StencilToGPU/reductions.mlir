// RUN: stencil-opt %s --convert-stencil-to-gpu --split-input-file | FileCheck %s

// A reduction on the device: every work item stores its contribution (the
// identity past the grid's end) in workgroup memory; a tree of fixed
// strides (8, 4, 2, 1 for 12 items), a barrier after each, leaves the group's
// value in slot 0, which item 0 writes to the group's element of a device
// buffer. The host copies the partials back and combines them in group
// order: the same bits on every run.
!f = !stencil.field<10x20xf32>
// CHECK-LABEL: func.func @sum(
// CHECK-SAME: %[[Z:[^:]*]]: f32) -> f32
// 3 x 5 groups of 3 x 4 items over [1, 9) x [1, 19), the last ones partial.
// CHECK: %[[PARTIALS:.*]] = gpu.alloc () : memref<15xf32>
// CHECK: gpu.launch {{.*}} workgroup(%[[SLOTS:.*]] : memref<12xf32, #gpu.address_space<workgroup>>) {
// CHECK: %[[IN:.*]] = arith.andi
// CHECK-NEXT: %[[C:.*]] = scf.if %[[IN]] -> (f32) {
// CHECK: %[[V:.*]] = memref.load
// CHECK: memref.store %[[V]]
// CHECK: scf.yield %[[V]] : f32
// CHECK: } else {
// CHECK: %[[ID:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: scf.yield %[[ID]] : f32
// CHECK: memref.store %[[C]], %[[SLOTS]][%[[ITEM:.*]]]
// CHECK-NEXT: gpu.barrier
// CHECK: arith.cmpi ult, %[[ITEM]], %c4
// CHECK: arith.addi %[[ITEM]], %c8
// CHECK: arith.addf
// CHECK: gpu.barrier
// CHECK: arith.cmpi ult, %[[ITEM]], %c4
// CHECK: arith.addi %[[ITEM]], %c4
// CHECK: gpu.barrier
// CHECK: arith.cmpi ult, %[[ITEM]], %c2
// CHECK: arith.addi %[[ITEM]], %c2
// CHECK: gpu.barrier
// CHECK: arith.cmpi ult, %[[ITEM]], %c1
// CHECK: arith.addi %[[ITEM]], %c1
// CHECK: gpu.barrier
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[ITEM]], %c0
// CHECK: scf.if %[[FIRST]] {
// CHECK: %[[G:.*]] = memref.load %[[SLOTS]][%c0
// CHECK: memref.store %[[G]], %[[PARTIALS]][%{{.*}}] : memref<15xf32>
// CHECK: gpu.terminator
// CHECK: %[[HOST:.*]] = memref.alloc() : memref<15xf32>
// CHECK: gpu.memcpy %[[HOST]], %[[PARTIALS]]
// CHECK: %[[ALL:.*]] = scf.for %[[I:.*]] = %{{.*}} to %c15 step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (f32) {
// CHECK: %[[P:.*]] = memref.load %[[HOST]][%[[I]]]
// CHECK: %[[NEXT:.*]] = arith.addf %[[ACC]], %[[P]] : f32
// CHECK: memref.dealloc %[[HOST]]
// CHECK: gpu.dealloc %[[PARTIALS]]
// CHECK: %[[R:.*]] = arith.addf %[[Z]], %[[ALL]] : f32
// CHECK: return %[[R]]
func.func @sum(%A: memref<10x20xf32>, %B: memref<10x20xf32>, %z: f32) -> f32 {
  %a = stencil.load %A : memref<10x20xf32> -> !f
  %b = stencil.load %B : memref<10x20xf32> -> !f
  %g = stencil.grid [1, 1] to [9, 19] : !stencil.grid<2>
  %r:2 = stencil.apply on %g ins(%x = %a : !f) outs(%b : !f) reduce(add %z : f32)
      attributes {schedule = #stencil.schedule<wg = [3, 4]>} {
    %v = stencil.access %x[0, 1] : !f
    stencil.return %v, %v : f32, f32
  }
  stencil.store %r#0 to %B : !f to memref<10x20xf32>
  return %r#1 : f32
}

// -----

// Several reductions share the tree, one workgroup buffer each; max of
// integers starts from the smallest i32.
!f = !stencil.field<64xf64>
// CHECK-LABEL: func.func @two(
// CHECK: gpu.launch {{.*}} workgroup(%[[MX:.*]] : memref<32xi32, #gpu.address_space<workgroup>>, %[[MN:.*]] : memref<32xf64, #gpu.address_space<workgroup>>) {
// CHECK: arith.constant -2147483648 : i32
// CHECK: arith.constant 0x7FF0000000000000 : f64
// CHECK: arith.maxsi
// CHECK: arith.minnumf
func.func @two(%A: memref<64xf64>, %B: memref<64xf64>, %m: i32, %n: f64) -> (i32, f64) {
  %a = stencil.load %A : memref<64xf64> -> !f
  %b = stencil.load %B : memref<64xf64> -> !f
  %g = stencil.grid [1] to [63] : !stencil.grid<1>
  %r:3 = stencil.apply on %g ins(%x = %a : !f) outs(%b : !f) reduce(max %m : i32, min %n : f64)
      attributes {schedule = #stencil.schedule<wg = [32]>} {
    %v = stencil.access %x[1] : !f
    %k = arith.fptosi %v : f64 to i32
    stencil.return %v, %k, %v : f64, i32, f64
  }
  stencil.store %r#0 to %B : !f to memref<64xf64>
  return %r#1, %r#2 : i32, f64
}

// -----

// Time blocks in workgroup memory skip a loop's reductions: steps - 1 run
// in blocks of T = 2 whole steps, then the single steps, the last of which
// computes the sum (a launch with the tree), carry the scalar.
!f = !stencil.field<34x34xf32>
// CHECK-LABEL: func.func @blocks_skip(
// CHECK-SAME: %[[N:[^:]*]]: index)
// CHECK: %[[STEPS:.*]] = arith.maxsi %[[N]], %{{.*}} : index
// CHECK: %[[ALLBUT:.*]] = arith.subi %[[STEPS]], %{{.*}} : index
// CHECK: %[[NONNEG:.*]] = arith.maxsi %[[ALLBUT]], %{{.*}} : index
// CHECK: %[[BLOCKS:.*]] = arith.divsi %[[NONNEG]], %{{.*}} : index
// The block's launch has its tiles' two level buffers, no tree's.
// CHECK: %[[B:.*]]:2 = scf.for %{{.*}} = %{{.*}} to %[[BLOCKS]] step %{{.*}} iter_args({{.*}}) -> (memref<34x34xf32>, memref<34x34xf32>) {
// CHECK: gpu.launch {{.*}} workgroup(%{{.*}} : memref<8x8xf32, #gpu.address_space<workgroup>>, %{{.*}} : memref<8x8xf32, #gpu.address_space<workgroup>>) {
// CHECK: %{{.*}}:3 = scf.for {{.*}} iter_args(%{{.*}} = %[[B]]#0, %{{.*}} = %[[B]]#1, %{{.*}} = %{{.*}}) -> (memref<34x34xf32>, memref<34x34xf32>, f32) {
// CHECK: gpu.launch {{.*}} workgroup(%{{.*}} : memref<32xf32, #gpu.address_space<workgroup>>)
func.func @blocks_skip(%A: memref<34x34xf32>, %B: memref<34x34xf32>, %S: memref<f32>, %n: index) {
  %a = stencil.load %A : memref<34x34xf32> -> !f
  %b = stencil.load %B : memref<34x34xf32> -> !f
  %s0 = memref.load %S[] : memref<f32>
  %zero = arith.constant 0.0 : f32
  %g = stencil.grid [1, 1] to [33, 33] : !stencil.grid<2>
  %r:3 = stencil.iterate %n iter_args(%u = %a, %v = %b, %s = %s0) : !f, !f, f32
      attributes {schedule = #stencil.schedule<wg = [8, 4], time_block = 2>} {
    %new, %sum = stencil.apply on %g ins(%x = %u : !f) outs(%v : !f) reduce(add %zero : f32) {
      %w = stencil.access %x[0, -1] : !f
      %e = stencil.access %x[0, 1] : !f
      %m = arith.addf %w, %e : f32
      stencil.return %m, %w : f32, f32
    }
    %copy = stencil.apply on %g ins(%y = %new : !f) outs(%u : !f) {
      %c = stencil.access %y[0, 0] : !f
      stencil.return %c : f32
    }
    stencil.yield %copy, %new, %sum : !f, !f, f32
  }
  memref.store %r#2, %S[] : memref<f32>
  stencil.store %r#0 to %A : !f to memref<34x34xf32>
  stencil.store %r#1 to %B : !f to memref<34x34xf32>
  return
}
