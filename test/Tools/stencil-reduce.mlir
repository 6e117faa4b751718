// stencil-reduce shrinks stencil IR while a script finds it interesting
// (here: an off-centre read). The function without one goes; the one with
// it stays.
// RUN: stencil-reduce %s -reduction-tree='traversal-mode=0 test=%S/Inputs/uses-offset-access.sh' | FileCheck %s

// CHECK-NOT: @copy
// CHECK-LABEL: func.func @shift
// CHECK: stencil.access %{{.*}}[-1]
// CHECK-NOT: @copy

!f = !stencil.field<64xf32>

func.func @copy(%in: memref<64xf32>, %out: memref<64xf32>) {
  %a = stencil.load %in : memref<64xf32> -> !f
  %b = stencil.load %out : memref<64xf32> -> !f
  %g = stencil.grid [0] to [64] : !stencil.grid<1>
  %r = stencil.apply on %g ins(%x = %a : !f) outs(%b : !f) {
    %v = stencil.access %x[0] : !f
    stencil.return %v : f32
  }
  stencil.store %r to %out : !f to memref<64xf32>
  return
}

func.func @shift(%in: memref<64xf32>, %out: memref<64xf32>) {
  %a = stencil.load %in : memref<64xf32> -> !f
  %b = stencil.load %out : memref<64xf32> -> !f
  %g = stencil.grid [1] to [64] : !stencil.grid<1>
  %r = stencil.apply on %g ins(%x = %a : !f) outs(%b : !f) {
    %v = stencil.access %x[-1] : !f
    stencil.return %v : f32
  }
  stencil.store %r to %out : !f to memref<64xf32>
  return
}
