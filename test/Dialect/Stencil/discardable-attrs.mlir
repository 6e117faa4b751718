// The dialect's discardable attributes (StencilBase.td) round-trip where
// they belong and are rejected anywhere else, with what they must be.
// RUN: stencil-opt %s --split-input-file -verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @rank_part
// CHECK-SAME: attributes {stencil.max_steps = 100 : i64, stencil.mpi}
// CHECK: stencil.iterate
// CHECK-SAME: stencil.device_split = array<i64: 3, 3>
// CHECK-SAME: stencil.local_sizes = [array<i64: 1, 6>, array<i64: 1, 6>]
func.func @rank_part(%a0: !stencil.field<8x8xf32>, %n: index) attributes {stencil.mpi, stencil.max_steps = 100 : i64} {
  %r = stencil.iterate %n iter_args(%a = %a0) : !stencil.field<8x8xf32> attributes {stencil.device_split = array<i64: 3, 3>, stencil.local_sizes = [array<i64: 1, 6>, array<i64: 1, 6>]} {
    stencil.yield %a : !stencil.field<8x8xf32>
  }
  return
}

// -----

// expected-error @+1 {{'func.func' op attribute 'stencil.mpi' must be a unit attribute on a function, got 1 : i64}}
func.func @mpi_value() attributes {stencil.mpi = 1} {
  return
}

// -----

func.func @mpi_not_on_function(%a0: !stencil.field<8xf32>, %n: index) {
  // expected-error @+1 {{'stencil.iterate' op attribute 'stencil.mpi' must be a unit attribute on a function, got unit}}
  %r = stencil.iterate %n iter_args(%a = %a0) : !stencil.field<8xf32> attributes {stencil.mpi} {
    stencil.yield %a : !stencil.field<8xf32>
  }
  return
}

// -----

// expected-error @+1 {{attribute 'stencil.max_steps' must be a non-negative i64 on a function, got -5 : i64}}
func.func @negative_steps() attributes {stencil.max_steps = -5 : i64} {
  return
}

// -----

// expected-error @+1 {{attribute 'stencil.device_split' must be an array of non-negative point counts on a stencil.iterate}}
func.func @split_on_function() attributes {stencil.device_split = array<i64: 4, 4>} {
  return
}

// -----

func.func @sizes_without_split(%a0: !stencil.field<8xf32>, %n: index) {
  // expected-error @+1 {{attribute 'stencil.local_sizes' must be one array of positive sizes per entry of 'stencil.device_split', on a stencil.iterate}}
  %r = stencil.iterate %n iter_args(%a = %a0) : !stencil.field<8xf32> attributes {stencil.local_sizes = [array<i64: 8>]} {
    stencil.yield %a : !stencil.field<8xf32>
  }
  return
}

// -----

func.func @sizes_per_device(%a0: !stencil.field<8xf32>, %n: index) {
  // expected-error @+1 {{attribute 'stencil.local_sizes' must be one array of positive sizes per entry of 'stencil.device_split'}}
  %r = stencil.iterate %n iter_args(%a = %a0) : !stencil.field<8xf32> attributes {stencil.device_split = array<i64: 4, 4>, stencil.local_sizes = [array<i64: 4>]} {
    stencil.yield %a : !stencil.field<8xf32>
  }
  return
}

// -----

// A typo under the dialect's prefix is caught.
// expected-error @+1 {{'func.func' op has unknown attribute 'stencil.max_step'; the stencil dialect defines stencil.mpi, stencil.max_steps, stencil.device_split, stencil.local_sizes and stencil.resident}}
func.func @typo() attributes {stencil.max_step = 100 : i64} {
  return
}

// -----

// stencil.resident sits on a function's memref arguments only.
func.func @resident_ok(%A: memref<8xf32> {stencil.resident}) {
  return
}

// -----

// expected-error @+1 {{'func.func' op attribute 'stencil.resident' must be a unit attribute on a memref argument of a function, got 1 : i64 on argument 0}}
func.func @resident_value(%A: memref<8xf32> {stencil.resident = 1}) {
  return
}

// -----

// expected-error @+1 {{'func.func' op attribute 'stencil.resident' must be a unit attribute on a memref argument of a function, got unit on argument 0}}
func.func @resident_scalar(%x: f32 {stencil.resident}) {
  return
}

// -----

// expected-error @+1 {{'func.func' op attribute 'stencil.resident' belongs on a function's memref argument}}
func.func @resident_on_op() attributes {stencil.resident} {
  return
}
