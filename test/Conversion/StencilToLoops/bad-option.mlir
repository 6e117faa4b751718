// RUN: not stencil-opt %s --convert-stencil-to-loops=default-tile=-2 2>&1 | FileCheck %s
// RUN: not stencil-opt %s --convert-stencil-to-loops=prefetch-distance=-64 2>&1 | FileCheck %s --check-prefix=PREFETCH
// CHECK: error: default-tile entries must be 0 (whole axis) or positive, got -2
// PREFETCH: error: prefetch-distance must be 0 (off) or a positive number of bytes, got -64
module {}
