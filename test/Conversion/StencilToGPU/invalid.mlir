// RUN: stencil-opt %s --split-input-file --verify-diagnostics --convert-stencil-to-gpu

// Kernels take row-major buffers (run-time extents are fine).
func.func @strided(%in: memref<8x64xf32, strided<[128, 1]>>) {
  // expected-error @+1 {{'stencil.load' op reads 'memref<8x64xf32, strided<[128, 1]>>'; the GPU lowering needs row-major memrefs (identity layout)}}
  %a = stencil.load %in : memref<8x64xf32, strided<[128, 1]>> -> !stencil.field<8x64xf32>
  return
}

// -----

// Kernels take scalars through one-element buffers of integers or floats.
func.func @index_scalar(%in: memref<64xf32>, %n: index) {
  %a = stencil.load %in : memref<64xf32> -> !stencil.field<64xf32>
  %g = stencil.grid [0] to [64] : !stencil.grid<1>
  // expected-error @+1 {{has a scalar input of type 'index'; kernels take integer or float scalars only}}
  %r = stencil.apply on %g ins(%x = %a : !stencil.field<64xf32>, %s = %n : index) outs(%a : !stencil.field<64xf32>) {
    %v = stencil.access %x[0] : !stencil.field<64xf32>
    stencil.return %v : f32
  }
  return
}
