// Heat diffusion in 3-D, 7-point stencil: the kernel of seed 000 Fig. 5 and
// Table 5 (256^3, float, 8 flops per point), written with the pointer swap
// of the classical implementation instead of the copy section:
//
//   for (t = 0; t < steps; t++) {
//     for (i..) for (j..) for (k..)   // interior points only
//       B[i][j][k] = C0*A[i][j][k] + C1*(A[i-1][j][k] + A[i+1][j][k] +
//                    A[i][j-1][k] + A[i][j+1][k] + A[i][j][k-1] + A[i][j][k+1]);
//     float *tmp = A; A = B; B = tmp;
//   }
//
// The yield exchanges the two carried fields: after the loop %a is the last
// result and %b the step before it, as the swapped pointers are in C.

!field = !stencil.field<256x256x256xf32>

func.func @heat3d(%A: memref<256x256x256xf32>, %B: memref<256x256x256xf32>,
                  %c0: f32, %c1: f32, %steps: index) {
  %a0 = stencil.load %A : memref<256x256x256xf32> -> !field
  %b0 = stencil.load %B : memref<256x256x256xf32> -> !field
  %grid = stencil.grid [1, 1, 1] to [255, 255, 255] : !stencil.grid<3>
  %a, %b = stencil.iterate %steps iter_args(%src = %a0, %dst = %b0)
      : !field, !field {
    %new = stencil.apply on %grid ins(%x = %src : !field, %w0 = %c0 : f32,
                                       %w1 = %c1 : f32) outs(%dst : !field) {
      %c = stencil.access %x[0, 0, 0] : !field
      %zm = stencil.access %x[-1, 0, 0] : !field
      %zp = stencil.access %x[1, 0, 0] : !field
      %ym = stencil.access %x[0, -1, 0] : !field
      %yp = stencil.access %x[0, 1, 0] : !field
      %xm = stencil.access %x[0, 0, -1] : !field
      %xp = stencil.access %x[0, 0, 1] : !field
      %s0 = arith.addf %zm, %zp : f32
      %s1 = arith.addf %s0, %ym : f32
      %s2 = arith.addf %s1, %yp : f32
      %s3 = arith.addf %s2, %xm : f32
      %s4 = arith.addf %s3, %xp : f32
      %t0 = arith.mulf %w0, %c : f32
      %t1 = arith.mulf %w1, %s4 : f32
      %v = arith.addf %t0, %t1 : f32
      stencil.return %v : f32
    }
    // Swap: the new values become the source of the next step.
    stencil.yield %new, %src : !field, !field
  }
  stencil.store %a to %A : !field to memref<256x256x256xf32>
  stencil.store %b to %B : !field to memref<256x256x256xf32>
  return
}
