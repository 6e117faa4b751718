
// Bounds given by constants become static bounds; others stay operands.
// CHECK-LABEL: func.func @grid_bounds
// CHECK-SAME: (%[[N:.*]]: index)
// CHECK: stencil.grid [1, 2] to [%[[N]], 63] : !stencil.grid<2>
func.func @grid_bounds(%n: index) -> !stencil.grid<2> {
  %c2 = arith.constant 2 : index
  %c63 = arith.constant 63 : index
  %g = stencil.grid [1, %c2] to [%n, %c63] : !stencil.grid<2>
  return %g : !stencil.grid<2>
}

