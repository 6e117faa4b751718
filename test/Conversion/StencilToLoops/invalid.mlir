// What the in-place lowering cannot do yet is reported, not miscompiled.
// RUN: stencil-opt %s --convert-stencil-to-loops --split-input-file -verify-diagnostics

func.func @reads_own_output(%A: memref<8xf32>) {
  %a = stencil.load %A : memref<8xf32> -> !stencil.field<8xf32>
  %g = stencil.grid [1] to [7] : !stencil.grid<1>
  %r = stencil.apply on %g ins(%x = %a : !stencil.field<8xf32>) outs(%a : !stencil.field<8xf32>) {
    // expected-error @+1 {{reads, at an offset, the buffer its apply writes; this lowering cannot give the apply a separate output buffer yet}}
    %l = stencil.access %x[-1] : !stencil.field<8xf32>
    stencil.return %l : f32
  }
  stencil.store %r to %A : !stencil.field<8xf32> to memref<8xf32>
  return
}

// -----

func.func @output_used_later(%A: memref<8xf32>, %B: memref<8xf32>) {
  %a = stencil.load %A : memref<8xf32> -> !stencil.field<8xf32>
  %b = stencil.load %B : memref<8xf32> -> !stencil.field<8xf32>
  %g = stencil.grid [1] to [7] : !stencil.grid<1>
  // expected-error @+1 {{overwrites the buffer of a field that is still used afterwards}}
  %r = stencil.apply on %g ins(%x = %a : !stencil.field<8xf32>) outs(%b : !stencil.field<8xf32>) {
    %l = stencil.access %x[-1] : !stencil.field<8xf32>
    stencil.return %l : f32
  }
  // expected-note @+1 {{later use here}}
  stencil.store %b to %A : !stencil.field<8xf32> to memref<8xf32>
  stencil.store %r to %B : !stencil.field<8xf32> to memref<8xf32>
  return
}

// -----

func.func @output_outside_loop(%A: memref<8xf32>, %B: memref<8xf32>, %n: index) {
  %a = stencil.load %A : memref<8xf32> -> !stencil.field<8xf32>
  %b = stencil.load %B : memref<8xf32> -> !stencil.field<8xf32>
  %g = stencil.grid [1] to [7] : !stencil.grid<1>
  %r = stencil.iterate %n iter_args(%x = %a) : !stencil.field<8xf32> {
    // expected-error @+1 {{writes a field defined outside the enclosing time loop}}
    %t = stencil.apply on %g ins(%y = %x : !stencil.field<8xf32>) outs(%b : !stencil.field<8xf32>) {
      %l = stencil.access %y[-1] : !stencil.field<8xf32>
      stencil.return %l : f32
    }
    stencil.yield %x : !stencil.field<8xf32>
  }
  return
}

// -----

func.func @yield_twice(%A: memref<8xf32>, %B: memref<8xf32>, %n: index) {
  %a = stencil.load %A : memref<8xf32> -> !stencil.field<8xf32>
  %b = stencil.load %B : memref<8xf32> -> !stencil.field<8xf32>
  %r:2 = stencil.iterate %n iter_args(%x = %a, %y = %b) : !stencil.field<8xf32>, !stencil.field<8xf32> {
    // expected-error @+1 {{must yield the loop's buffers in some order}}
    stencil.yield %x, %x : !stencil.field<8xf32>, !stencil.field<8xf32>
  }
  return
}

// -----

func.func @shared_init(%A: memref<8xf32>, %n: index) {
  %a = stencil.load %A : memref<8xf32> -> !stencil.field<8xf32>
  // expected-error @+1 {{carries two fields in one buffer}}
  %r:2 = stencil.iterate %n iter_args(%x = %a, %y = %a) : !stencil.field<8xf32>, !stencil.field<8xf32> {
    stencil.yield %x, %y : !stencil.field<8xf32>, !stencil.field<8xf32>
  }
  return
}

