// Heat diffusion in 2-D, 5-point stencil: seed 000 Table 5 (2048 x 2048,
// float, 6 flops per point), with a tuned schedule on the time loop:
// work groups of 8 x 64 points and two time steps per sweep.
//
//   for (t = 0; t < steps; t++) {
//     for (i = 1; i < N-1; i++) for (j = 1; j < N-1; j++)
//       B[i][j] = C0*A[i][j] + C1*(A[i-1][j] + A[i+1][j] + A[i][j-1] + A[i][j+1]);
//     for (i = 1; i < N-1; i++) for (j = 1; j < N-1; j++) A[i][j] = B[i][j];
//   }

!field = !stencil.field<2048x2048xf32>

func.func @heat2d(%A: memref<2048x2048xf32>, %B: memref<2048x2048xf32>,
                  %c0: f32, %c1: f32, %steps: index) {
  %a0 = stencil.load %A : memref<2048x2048xf32> -> !field
  %b0 = stencil.load %B : memref<2048x2048xf32> -> !field
  %grid = stencil.grid [1, 1] to [2047, 2047] : !stencil.grid<2>
  %a, %b = stencil.iterate %steps iter_args(%ak = %a0, %bk = %b0)
      : !field, !field
      attributes {schedule = #stencil.schedule<wg = [8, 64], time_block = 2>} {
    %b1 = stencil.apply on %grid ins(%x = %ak : !field, %w0 = %c0 : f32,
                                      %w1 = %c1 : f32) outs(%bk : !field) {
      %c = stencil.access %x[0, 0] : !field
      %n = stencil.access %x[-1, 0] : !field
      %s = stencil.access %x[1, 0] : !field
      %w = stencil.access %x[0, -1] : !field
      %e = stencil.access %x[0, 1] : !field
      %ns = arith.addf %n, %s : f32
      %we = arith.addf %w, %e : f32
      %sum = arith.addf %ns, %we : f32
      %t0 = arith.mulf %w0, %c : f32
      %t1 = arith.mulf %w1, %sum : f32
      %v = arith.addf %t0, %t1 : f32
      stencil.return %v : f32
    }
    %a1 = stencil.apply on %grid ins(%y = %b1 : !field) outs(%ak : !field) {
      %v = stencil.access %y[0, 0] : !field
      stencil.return %v : f32
    }
    stencil.yield %a1, %b1 : !field, !field
  }
  stencil.store %a to %A : !field to memref<2048x2048xf32>
  stencil.store %b to %B : !field to memref<2048x2048xf32>
  return
}
