// Heat diffusion in 1-D, 3-point stencil: seed 000 Table 5 (2^22 points,
// float, 4 flops per point). The C program this stands for:
//
//   for (t = 0; t < steps; t++) {
//     for (i = 1; i < N-1; i++) B[i] = C0*A[i] + C1*(A[i-1] + A[i+1]);
//     for (i = 1; i < N-1; i++) A[i] = B[i];
//   }
//
// The calc and copy sections are two applies; the time loop carries both
// arrays so that their boundary cells keep the C program's values.

!field = !stencil.field<4194304xf32>

func.func @heat1d(%A: memref<4194304xf32>, %B: memref<4194304xf32>,
                  %c0: f32, %c1: f32, %steps: index) {
  %a0 = stencil.load %A : memref<4194304xf32> -> !field
  %b0 = stencil.load %B : memref<4194304xf32> -> !field
  %grid = stencil.grid [1] to [4194303] : !stencil.grid<1>
  %a, %b = stencil.iterate %steps iter_args(%ak = %a0, %bk = %b0)
      : !field, !field {
    // calc: B[i] = C0*A[i] + C1*(A[i-1] + A[i+1])
    %b1 = stencil.apply on %grid ins(%x = %ak : !field, %w0 = %c0 : f32,
                                      %w1 = %c1 : f32) outs(%bk : !field) {
      %c = stencil.access %x[0] : !field
      %l = stencil.access %x[-1] : !field
      %r = stencil.access %x[1] : !field
      %s = arith.addf %l, %r : f32
      %t0 = arith.mulf %w0, %c : f32
      %t1 = arith.mulf %w1, %s : f32
      %v = arith.addf %t0, %t1 : f32
      stencil.return %v : f32
    }
    // copy: A[i] = B[i]
    %a1 = stencil.apply on %grid ins(%y = %b1 : !field) outs(%ak : !field) {
      %v = stencil.access %y[0] : !field
      stencil.return %v : f32
    }
    stencil.yield %a1, %b1 : !field, !field
  }
  stencil.store %a to %A : !field to memref<4194304xf32>
  stencil.store %b to %B : !field to memref<4194304xf32>
  return
}
