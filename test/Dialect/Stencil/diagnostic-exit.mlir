// Invalid IR gets a diagnostic at file:line:col and a failing exit status
// (`not` also fails the test if stencil-opt crashes instead).
// RUN: not stencil-opt %s 2>&1 | FileCheck %s

func.func @bad(%a: !stencil.field<8xf32>, %b: !stencil.field<8xf32>) {
  %g = stencil.grid [1] to [7] : !stencil.grid<1>
  %r = stencil.apply on %g ins(%x = %a : !stencil.field<8xf32>) outs(%b : !stencil.field<8xf32>) {
    // CHECK: diagnostic-exit.mlir:[[@LINE+1]]:10: error: 'stencil.access' op offset 2 along axis 0 reads outside the field: the grid ends at 7 of 8, which leaves a halo of 1
    %v = stencil.access %x[2] : !stencil.field<8xf32>
    stencil.return %v : f32
  }
  return
}
