// Streaming stores through the whole CPU pipeline: the vector rows that
// convert-stencil-to-loops emits reach LLVM IR as aligned non-temporal
// vector stores, masked stores for the partial lines, and the locked
// read-modify-write that ends each parallel tile.
// RUN: stencil-opt %s --stencil-to-cpu | mlir-translate --mlir-to-llvmir | FileCheck %s

// CHECK: @stencil_streaming_fence = private global i32 0
// CHECK-LABEL: define void @stencil_main_0(
// CHECK: call void {{.*}}@__kmpc_fork_call
// CHECK-DAG: call void @llvm.masked.store.v16f32.p0(<16 x float> %{{.*}}, ptr align 4 %{{.*}}, <16 x i1> %{{.*}})
// CHECK-DAG: store <16 x float> %{{.*}}, ptr %{{.*}}, align 64, !nontemporal ![[NT:[0-9]+]]
// CHECK-DAG: atomicrmw add ptr @stencil_streaming_fence, i32 0 acq_rel
// CHECK: ![[NT]] = !{i32 1}

!f = !stencil.field<64x64xf32>
func.func @stencil_main_0(%A: memref<64x64xf32>, %B: memref<64x64xf32>, %n: index) {
  %a = stencil.load %A : memref<64x64xf32> -> !f
  %b = stencil.load %B : memref<64x64xf32> -> !f
  %g = stencil.grid [1, 1] to [63, 63] : !stencil.grid<2>
  %r:2 = stencil.iterate %n iter_args(%ak = %a, %bk = %b) : !f, !f
      attributes {schedule = #stencil.schedule<wg = [8, 62], streaming_stores = true>} {
    %calc = stencil.apply on %g ins(%x = %ak : !f) outs(%bk : !f) {
      %l = stencil.access %x[0, -1] : !f
      %h = stencil.access %x[0, 1] : !f
      %v = arith.addf %l, %h : f32
      stencil.return %v : f32
    }
    stencil.yield %calc, %ak : !f, !f
  }
  stencil.store %r#0 to %A : !f to memref<64x64xf32>
  stencil.store %r#1 to %B : !f to memref<64x64xf32>
  return
}
