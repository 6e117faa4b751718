// stencil.iterate through upstream's interfaces: RegionBranchOpInterface
// (the body is entered from the inits and again from the yield; the
// results come from the inits after zero steps, else from the last yield)
// and LoopLikeOpInterface (loop-invariant code motion hoists what does not
// depend on the step).
// RUN: stencil-opt %s --test-stencil-control-flow -verify-diagnostics -o /dev/null
// RUN: stencil-opt %s --loop-invariant-code-motion | FileCheck %s --check-prefix=LICM

!f = !stencil.field<8xf32>

// A swap: the next step's source is this step's result, its destination
// this step's source. The grid does not depend on the step and is hoisted.
// LICM-LABEL: func.func @swap(
// LICM: %[[G:.*]] = stencil.grid [1] to [7]
// LICM-NEXT: stencil.iterate
// LICM-NEXT: stencil.apply on %[[G]]
func.func @swap(%A: memref<8xf32>, %B: memref<8xf32>, %n: index) {
  %a = stencil.load %A : memref<8xf32> -> !f
  %b = stencil.load %B : memref<8xf32> -> !f
  // expected-remark @below {{from entry to the body: body argument 0 <- stencil.load result 0, stencil.apply result 0; body argument 1 <- stencil.load result 0, body argument 0}}
  // expected-remark @below {{from entry to the results: stencil.iterate result 0 <- stencil.load result 0, stencil.apply result 0; stencil.iterate result 1 <- stencil.load result 0, body argument 0}}
  // expected-remark @below {{from the terminator to the body: body argument 0 <- stencil.load result 0, stencil.apply result 0; body argument 1 <- stencil.load result 0, body argument 0}}
  // expected-remark @below {{from the terminator to the results: stencil.iterate result 0 <- stencil.load result 0, stencil.apply result 0; stencil.iterate result 1 <- stencil.load result 0, body argument 0}}
  %r:2 = stencil.iterate %n iter_args(%x = %a, %y = %b) : !f, !f {
    %g = stencil.grid [1] to [7] : !stencil.grid<1>
    %new = stencil.apply on %g ins(%p = %x : !f) outs(%y : !f) {
      %l = stencil.access %p[-1] : !f
      stencil.return %l : f32
    }
    stencil.yield %new, %x : !f, !f
  }
  stencil.store %r#0 to %A : !f to memref<8xf32>
  return
}

// -----

// An apply on fields from outside the loop does not depend on the step
// either, but stays: it is not speculatable (its accesses may read outside
// a field the loop would not have reached).
// LICM-LABEL: func.func @invariant_apply(
// LICM: stencil.grid
// LICM-NEXT: stencil.iterate
// LICM-NEXT: stencil.apply
func.func @invariant_apply(%A: memref<8xf32>, %B: memref<8xf32>, %n: index) {
  %a = stencil.load %A : memref<8xf32> -> !f
  %b = stencil.load %B : memref<8xf32> -> !f
  // expected-remark @below {{from entry to the body: body argument 0 <- stencil.load result 0, body argument 0}}
  // expected-remark @below {{from entry to the results: stencil.iterate result 0 <- stencil.load result 0, body argument 0}}
  // expected-remark @below {{from the terminator to the body: body argument 0 <- stencil.load result 0, body argument 0}}
  // expected-remark @below {{from the terminator to the results: stencil.iterate result 0 <- stencil.load result 0, body argument 0}}
  %r = stencil.iterate %n iter_args(%x = %a) : !f {
    %g = stencil.grid [1] to [7] : !stencil.grid<1>
    %t = stencil.apply on %g ins(%p = %a : !f) outs(%b : !f) {
      %l = stencil.access %p[-1] : !f
      stencil.return %l : f32
    }
    stencil.yield %x : !f
  }
  stencil.store %r to %A : !f to memref<8xf32>
  return
}
