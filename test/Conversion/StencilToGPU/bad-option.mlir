// RUN: not stencil-opt %s --convert-stencil-to-gpu=default-wg=0,32 2>&1 | FileCheck %s
// CHECK: error: default-wg entries must be positive, got 0
module {}
