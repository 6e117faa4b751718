// The access extent (halo) analysis, printed by a test pass as remarks.
// RUN: stencil-opt %s -test-stencil-access-extents -split-input-file -verify-diagnostics

// One apply: each input's extent, charged to the loaded field as well; the
// scalar input and the never-read output have none.
func.func @heat2d(%A: memref<16x16xf32>, %B: memref<16x16xf32>, %c: f32) {
  // expected-remark @+1 {{result #0 is read with extent [-1, 1] x [-2, 1], halo [1, 1] x [2, 1]}}
  %a = stencil.load %A : memref<16x16xf32> -> !stencil.field<16x16xf32>
  %b = stencil.load %B : memref<16x16xf32> -> !stencil.field<16x16xf32>
  %g = stencil.grid [2, 2] to [14, 14] : !stencil.grid<2>
  // expected-remark @+1 {{input #0 extent [-1, 1] x [-2, 1], halo [1, 1] x [2, 1]}}
  %r = stencil.apply on %g ins(%x = %a : !stencil.field<16x16xf32>, %w = %c : f32)
                           outs(%b : !stencil.field<16x16xf32>) {
    %n = stencil.access %x[-1, 0] : !stencil.field<16x16xf32>
    %s = stencil.access %x[1, 0] : !stencil.field<16x16xf32>
    %e = stencil.access %x[0, 1] : !stencil.field<16x16xf32>
    %ww = stencil.access %x[0, -2] : !stencil.field<16x16xf32>
    %t0 = arith.addf %n, %s : f32
    %t1 = arith.addf %e, %ww : f32
    %t2 = arith.addf %t0, %t1 : f32
    %v = arith.mulf %w, %t2 : f32
    stencil.return %v : f32
  }
  stencil.store %r to %B : !stencil.field<16x16xf32> to memref<16x16xf32>
  return
}

// -----

// A field read by two applies needs the union of their extents; one read
// only at the centre has the zero extent. The extents flow back through the
// time loop: %a is read with [-3, 2], so its init %a0 and the value yielded
// in its place (%u) must provide that halo; %u equals its output %t outside
// the grid, %t equals %b, and %b is initialised from %b0.
// expected-remark @+3 {{block argument #0 is read with extent [-3, 2], halo [3, 2]}}
// expected-remark @+2 {{block argument #1 is read with extent [-3, 2], halo [3, 2]}}
// expected-remark @+1 {{block argument #2 is read with extent [0, 0], halo [0, 0]}}
func.func @union(%a0: !stencil.field<16xf32>, %b0: !stencil.field<16xf32>,
                 %k: !stencil.field<16xf32>, %n: index) {
  %g = stencil.grid [3] to [13] : !stencil.grid<1>
  // expected-remark @+2 {{block argument #0 is read with extent [-3, 2], halo [3, 2]}}
  // expected-remark @+1 {{block argument #1 is read with extent [-3, 2], halo [3, 2]}}
  %r:2 = stencil.iterate %n iter_args(%a = %a0, %b = %b0) : !stencil.field<16xf32>, !stencil.field<16xf32> {
    // expected-remark @+3 {{input #0 extent [-3, -3], halo [3, 0]}}
    // expected-remark @+2 {{input #1 extent [0, 0], halo [0, 0]}}
    // expected-remark @+1 {{result #0 is read with extent [-3, 2], halo [3, 2]}}
    %t = stencil.apply on %g ins(%x = %a : !stencil.field<16xf32>, %y = %k : !stencil.field<16xf32>)
                             outs(%b : !stencil.field<16xf32>) {
      %l = stencil.access %x[-3] : !stencil.field<16xf32>
      %m = stencil.access %y[0] : !stencil.field<16xf32>
      %v = arith.mulf %l, %m : f32
      stencil.return %v : f32
    }
    // expected-remark @+2 {{input #0 extent [1, 2], halo [0, 2]}}
    // expected-remark @+1 {{result #0 is read with extent [-3, 2], halo [3, 2]}}
    %u = stencil.apply on %g ins(%x = %a : !stencil.field<16xf32>) outs(%t : !stencil.field<16xf32>) {
      %p = stencil.access %x[1] : !stencil.field<16xf32>
      %q = stencil.access %x[2] : !stencil.field<16xf32>
      %v = arith.addf %p, %q : f32
      stencil.return %v : f32
    }
    stencil.yield %u, %a : !stencil.field<16xf32>, !stencil.field<16xf32>
  }
  return
}

// -----

// An exchange forwards the halo its readers need to the field it refreshes;
// a field only stored is never read.
func.func @exchange(%P: memref<16x8xf32>, %Q: memref<16x8xf32>) {
  // expected-remark @+1 {{result #0 is read with extent [-2, 0] x [0, 1], halo [2, 0] x [0, 1]}}
  %p = stencil.load %P : memref<16x8xf32> -> !stencil.field<16x8xf32, #stencil.decomp<block, *>>
  %q = stencil.load %Q : memref<16x8xf32> -> !stencil.field<16x8xf32, #stencil.decomp<block, *>>
  // expected-remark @+1 {{result #0 is read with extent [-2, 0] x [0, 1], halo [2, 0] x [0, 1]}}
  %e = stencil.exchange %p widths [2, 0] : !stencil.field<16x8xf32, #stencil.decomp<block, *>>
  %g = stencil.grid [2, 0] to [16, 7] : !stencil.grid<2>
  // expected-remark @+1 {{input #0 extent [-2, 0] x [0, 1], halo [2, 0] x [0, 1]}}
  %r = stencil.apply on %g ins(%x = %e : !stencil.field<16x8xf32, #stencil.decomp<block, *>>)
                           outs(%q : !stencil.field<16x8xf32, #stencil.decomp<block, *>>) {
    %a = stencil.access %x[-2, 0] : !stencil.field<16x8xf32, #stencil.decomp<block, *>>
    %b = stencil.access %x[0, 1] : !stencil.field<16x8xf32, #stencil.decomp<block, *>>
    %v = arith.addf %a, %b : f32
    stencil.return %v : f32
  }
  stencil.store %r to %Q : !stencil.field<16x8xf32, #stencil.decomp<block, *>> to memref<16x8xf32>
  return
}
