// RUN: stencil-opt %s --verify-diagnostics --stencil-static-launch-operands=dynamic-shapes=false -o /dev/null

// SPIR-V kernels bind buffers of static shape (the Vulkan target): a
// launch that uses a memref of run-time shape is an error there.
func.func @dynamic(%a: memref<?xf32>) {
  %c1 = arith.constant 1 : index
  // expected-error@+1 {{'gpu.launch' op uses 'memref<?xf32>', a buffer of run-time shape (arrays whose extents the program gives at run time); SPIR-V kernels (the Vulkan target) bind buffers of static shape only}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %v = memref.load %a[%tx] : memref<?xf32>
    gpu.terminator
  }
  return
}

// A launch of static buffers only is left alone.
func.func @static(%a: memref<4xf32>) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %v = memref.load %a[%tx] : memref<4xf32>
    gpu.terminator
  }
  return
}
