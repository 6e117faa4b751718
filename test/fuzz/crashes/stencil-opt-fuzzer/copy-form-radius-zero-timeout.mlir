
// The split divides the outermost axis only.
!F = !stencil.field<64x32xf32, #stencil.decomp<block, block>>
func.func @split_two_axes(%a: memref<64x32xf32>, %b: memref<64x32xf32>, %steps: index) {
  %fa = stencil.load %a : memref<64x32xf32> -> !F
  %fb = stencil.load %b : memref<64x32xf32> -> !F
  %g = stencil.grid [1, 1] to [63, 31] : !stencil.grid<2>
  // expected-error @+1 {{has a device split (stencil.device_split), which divides the outermost axis among the devices; distribute that axis only, e.g. distribute(block, *)}}
  %r:2 = stencil.iterate %steps iter_args(%x = %fa, %y = %fb) : !F, !F attributes {stencil.device_split = array<i64: 6, 20>} {
    %n = stencil.apply on %g ins(%p = %x : !F) outs(%y : !F) {
      %u = stencil.access %p[0, 0] : !F
      stencil.return %u : f32
    }
    %c = stencil.apply on %g ins(%q = %n : !F) outs(%x : !F) {
      %v = stencil.access %q[0, 0] : !F
      stencil.return %v : f32
    }
    stencil.yield %c, %n : !F, !F
  }
  stencil.store %r#0 to %a : !F to memref<64x32xf32>
  stencil.store %r#1 to %b : !F to memref<64x32xf32>
  return
}
