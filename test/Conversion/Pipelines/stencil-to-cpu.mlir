// The CPU pipeline ends in the LLVM dialect, with OpenMP work-sharing loops
// and the bare-pointer calling convention the rewritten C calls:
// void stencil_main_0(float *A, float *B, float c, long long steps).
// RUN: stencil-opt %s --stencil-to-cpu | FileCheck %s
// RUN: stencil-opt %s '--stencil-to-cpu=openmp=0' | FileCheck %s --check-prefix=SERIAL
// RUN: stencil-opt %s --stencil-to-cpu | mlir-translate --mlir-to-llvmir | FileCheck %s --check-prefix=LLVMIR

// CHECK-LABEL: llvm.func @stencil_main_0(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: f32, %{{.*}}: i64)
// CHECK: omp.parallel
// CHECK: omp.wsloop
// CHECK: omp.loop_nest
// CHECK: llvm.load
// CHECK: llvm.fmul
// CHECK: llvm.store
// SERIAL-LABEL: llvm.func @stencil_main_0(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: f32, %{{.*}}: i64)
// SERIAL-NOT: omp.
// LLVMIR: define void @stencil_main_0(ptr %{{.*}}, ptr %{{.*}}, float %{{.*}}, i64 %{{.*}})
// LLVMIR: call void {{.*}}@__kmpc_fork_call

!f = !stencil.field<64x64xf32>
func.func @stencil_main_0(%A: memref<64x64xf32>, %B: memref<64x64xf32>, %c: f32, %n: index) {
  %a = stencil.load %A : memref<64x64xf32> -> !f
  %b = stencil.load %B : memref<64x64xf32> -> !f
  %g = stencil.grid [1, 1] to [63, 63] : !stencil.grid<2>
  %r:2 = stencil.iterate %n iter_args(%ak = %a, %bk = %b) : !f, !f {
    %calc = stencil.apply on %g ins(%x = %ak : !f, %w = %c : f32) outs(%bk : !f) {
      %l = stencil.access %x[0, -1] : !f
      %v = arith.mulf %l, %w : f32
      stencil.return %v : f32
    }
    %copy = stencil.apply on %g ins(%y = %calc : !f) outs(%ak : !f) {
      %v = stencil.access %y[0, 0] : !f
      stencil.return %v : f32
    }
    stencil.yield %copy, %calc : !f, !f
  }
  stencil.store %r#0 to %A : !f to memref<64x64xf32>
  stencil.store %r#1 to %B : !f to memref<64x64xf32>
  return
}
