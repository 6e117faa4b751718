// RUN: stencil-opt %s --split-input-file --verify-diagnostics --convert-stencil-to-loops
// RUN: stencil-opt %s --split-input-file --verify-diagnostics --convert-stencil-to-gpu

// Grids and fields become buffers and loops: a value of theirs that leaves
// the stencil ops is rejected at the op that takes it (found by
// stencil-opt-fuzzer, which crashed on the first case).

func.func @returns_grid(%n: index) -> !stencil.grid<2> {
  %g = stencil.grid [1, 2] to [%n, 63] : !stencil.grid<2>
  // expected-error @+1 {{'func.return' uses a value of type '!stencil.grid<2>', which only stencil ops may use}}
  return %g : !stencil.grid<2>
}

// -----

func.func private @consume(!stencil.field<8xf32>)

func.func @passes_field(%in: memref<8xf32>) {
  %f = stencil.load %in : memref<8xf32> -> !stencil.field<8xf32>
  // expected-error @+1 {{'func.call' uses a value of type '!stencil.field<8xf32>'}}
  func.call @consume(%f) : (!stencil.field<8xf32>) -> ()
  return
}
