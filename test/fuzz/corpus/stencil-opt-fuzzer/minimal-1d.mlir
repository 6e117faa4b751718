module {
  func.func @stencil_step_0(%arg0: memref<16xf32>, %arg1: memref<16xf32>, %arg2: index) attributes {stencil.max_steps = 4 : i64} {
    %0 = stencil.load %arg0 : memref<16xf32> -> !stencil.field<16xf32>
    %1 = stencil.load %arg1 : memref<16xf32> -> !stencil.field<16xf32>
    %2 = stencil.grid [1] to [15] : !stencil.grid<1>
    %3:2 = stencil.iterate %arg2 iter_args(%arg3 = %0, %arg4 = %1) : !stencil.field<16xf32>, !stencil.field<16xf32> {
      %4 = stencil.apply on %2 ins(%arg5 = %arg3 : !stencil.field<16xf32>) outs(%arg4 : !stencil.field<16xf32>) {
        %cst = arith.constant 5.000000e-01 : f32
        %6 = stencil.access %arg5[-1] : !stencil.field<16xf32>
        %7 = stencil.access %arg5[1] : !stencil.field<16xf32>
        %8 = arith.addf %6, %7 : f32
        %9 = arith.mulf %cst, %8 : f32
        stencil.return %9 : f32
      }
      %5 = stencil.apply on %2 ins(%arg5 = %4 : !stencil.field<16xf32>) outs(%arg3 : !stencil.field<16xf32>) {
        %6 = stencil.access %arg5[0] : !stencil.field<16xf32>
        stencil.return %6 : f32
      }
      stencil.yield %5, %4 : !stencil.field<16xf32>, !stencil.field<16xf32>
    }
    stencil.store %3#0 to %arg0 : !stencil.field<16xf32> to memref<16xf32>
    stencil.store %3#1 to %arg1 : !stencil.field<16xf32> to memref<16xf32>
    return
  }
}
