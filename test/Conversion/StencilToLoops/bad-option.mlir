// RUN: not stencil-opt %s --convert-stencil-to-loops=default-tile=-2 2>&1 | FileCheck %s
// CHECK: error: default-tile entries must be 0 (whole axis) or positive, got -2
module {}
