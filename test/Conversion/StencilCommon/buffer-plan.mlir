// The buffer plan (lib/Conversion/StencilCommon/BufferPlan.cpp) reports
// what the in-place lowering cannot do, before any IR changes, for every
// backend alike: the CPU and the GPU lowering give the same messages.
// RUN: stencil-opt %s --convert-stencil-to-loops --split-input-file -verify-diagnostics
// RUN: stencil-opt %s --convert-stencil-to-gpu --split-input-file -verify-diagnostics

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

// A boundary row reading the row beside it: the offset leaves the one-row
// grid from every point, so the apply never writes what it reads and may
// work in place. The same read from a two-row grid would race.
func.func @reads_beside_its_row(%A: memref<8x8xf32>) {
  %a = stencil.load %A : memref<8x8xf32> -> !stencil.field<8x8xf32>
  %row = stencil.grid [0, 1] to [1, 7] : !stencil.grid<2>
  %r = stencil.apply on %row ins(%x = %a : !stencil.field<8x8xf32>) outs(%a : !stencil.field<8x8xf32>) {
    %v = stencil.access %x[1, 0] : !stencil.field<8x8xf32>
    stencil.return %v : f32
  }
  stencil.store %r to %A : !stencil.field<8x8xf32> to memref<8x8xf32>
  return
}

// -----

func.func @reads_inside_its_rows(%A: memref<8x8xf32>) {
  %a = stencil.load %A : memref<8x8xf32> -> !stencil.field<8x8xf32>
  %rows = stencil.grid [0, 1] to [2, 7] : !stencil.grid<2>
  %r = stencil.apply on %rows ins(%x = %a : !stencil.field<8x8xf32>) outs(%a : !stencil.field<8x8xf32>) {
    // expected-error @+1 {{reads, at an offset, the buffer its apply writes}}
    %v = stencil.access %x[1, 0] : !stencil.field<8x8xf32>
    stencil.return %v : f32
  }
  stencil.store %r to %A : !stencil.field<8x8xf32> to memref<8x8xf32>
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


// -----

// The copy form (calc into the destination, copy back) runs as a pointer
// swap, which needs the source and the destination in distinct buffers.
func.func @shared_swap(%A: memref<8xf32>, %n: index) {
  %a = stencil.load %A : memref<8xf32> -> !stencil.field<8xf32>
  %g = stencil.grid [1] to [7] : !stencil.grid<1>
  // expected-error @+1 {{carries two fields in one buffer}}
  %r:2 = stencil.iterate %n iter_args(%x = %a, %y = %a) : !stencil.field<8xf32>, !stencil.field<8xf32> {
    %new = stencil.apply on %g ins(%p = %x : !stencil.field<8xf32>) outs(%y : !stencil.field<8xf32>) {
      %l = stencil.access %p[-1] : !stencil.field<8xf32>
      stencil.return %l : f32
    }
    %copy = stencil.apply on %g ins(%q = %new : !stencil.field<8xf32>) outs(%x : !stencil.field<8xf32>) {
      %v = stencil.access %q[0] : !stencil.field<8xf32>
      stencil.return %v : f32
    }
    stencil.yield %copy, %new : !stencil.field<8xf32>, !stencil.field<8xf32>
  }
  return
}

// -----

// Fields get buffers from the ops that define them in the function.
func.func @field_argument(%a: !stencil.field<8xf32>, %A: memref<8xf32>) {
  // expected-error @+1 {{uses a field that no stencil.load, stencil.apply or stencil.iterate of this function defines}}
  stencil.store %a to %A : !stencil.field<8xf32> to memref<8xf32>
  return
}

// -----

func.func @grid_argument(%A: memref<8xf32>, %g: !stencil.grid<1>) {
  %a = stencil.load %A : memref<8xf32> -> !stencil.field<8xf32>
  // expected-error @+1 {{needs its grid from a stencil.grid op}}
  %r = stencil.apply on %g ins(%x = %a : !stencil.field<8xf32>) outs(%a : !stencil.field<8xf32>) {
    %v = stencil.access %x[0] : !stencil.field<8xf32>
    stencil.return %v : f32
  }
  return
}

// -----

func.func @two_outputs_one_buffer(%A: memref<8xf32>) {
  %a = stencil.load %A : memref<8xf32> -> !stencil.field<8xf32>
  %g = stencil.grid [0] to [8] : !stencil.grid<1>
  // expected-error @+1 {{writes two outputs into one buffer}}
  %r:2 = stencil.apply on %g ins() outs(%a : !stencil.field<8xf32>, %a : !stencil.field<8xf32>) {
    %c = arith.constant 1.0 : f32
    stencil.return %c, %c : f32, f32
  }
  return
}

// -----

// Stencil ops live at the top level of a function and in time loops.
func.func @in_scf_if(%A: memref<8xf32>, %c: i1) {
  scf.if %c {
    // expected-error @+1 {{is nested in 'scf.if'; the lowering handles stencil ops at the top level of a function and in stencil.iterate bodies only}}
    %a = stencil.load %A : memref<8xf32> -> !stencil.field<8xf32>
  }
  return
}

// -----

func.func @second_block(%A: memref<8xf32>) {
  cf.br ^next
^next:
  // expected-error @+1 {{lies in a block other than the function's entry block}}
  %a = stencil.load %A : memref<8xf32> -> !stencil.field<8xf32>
  return
}

