// Op verifier diagnostics, one case each.
// RUN: stencil-opt %s -split-input-file -verify-diagnostics

func.func @grid_rank() {
  // expected-error @+1 {{has 2 lower and 2 upper bounds but the grid type has rank 3}}
  %g = stencil.grid [1, 1] to [7, 7] : !stencil.grid<3>
  return
}

// -----

func.func @grid_negative() {
  // expected-error @+1 {{lower bound -1 along axis 0 is negative; grid indices address field storage, which starts at 0}}
  %g = stencil.grid [-1] to [7] : !stencil.grid<1>
  return
}

// -----

func.func @grid_inverted() {
  // expected-error @+1 {{lower bound 9 exceeds upper bound 7 along axis 1}}
  %g = stencil.grid [1, 9] to [7, 7] : !stencil.grid<2>
  return
}

// -----

func.func @grid_dynamic_count(%n: index) {
  // expected-error @+1 {{expected 1 dynamic lower bound values}}
  %g = "stencil.grid"() <{operandSegmentSizes = array<i32: 0, 0>, static_lower = array<i64: -9223372036854775808>, static_upper = array<i64: 8>}> : () -> !stencil.grid<1>
  return
}

// -----

func.func @apply_no_outputs(%g: !stencil.grid<1>, %a: !stencil.field<8xf32>) {
  // expected-error @+1 {{stencil.apply must write at least one field or reduce}}
  stencil.apply on %g ins(%x = %a : !stencil.field<8xf32>) outs() {
    stencil.return
  }
  return
}

// -----

func.func @reduce_reads_nothing(%g: !stencil.grid<1>, %z: f32) {
  // expected-error @+1 {{stencil.apply must write at least one field, or reduce and read one}}
  %s = stencil.apply on %g ins() outs() reduce(add %z : f32) {
    stencil.return %z : f32
  }
  return
}

// -----

func.func @apply_input_rank(%a: !stencil.field<8x8x8xf32>, %b: !stencil.field<8x8xf32>) {
  %g = stencil.grid [1, 1] to [7, 7] : !stencil.grid<2>
  // expected-error @+1 {{input #0 is 3-D but the grid is 2-D}}
  %r = stencil.apply on %g ins(%x = %a : !stencil.field<8x8x8xf32>) outs(%b : !stencil.field<8x8xf32>) {
    %v = stencil.access %x[0, 0, 0] : !stencil.field<8x8x8xf32>
    stencil.return %v : f32
  }
  return
}

// -----

func.func @apply_output_rank(%a: !stencil.field<8x8xf32>, %b: !stencil.field<8xf32>) {
  %g = stencil.grid [1, 1] to [7, 7] : !stencil.grid<2>
  // expected-error @+1 {{output #1 is 1-D but the grid is 2-D}}
  %r:2 = stencil.apply on %g ins() outs(%a : !stencil.field<8x8xf32>, %b : !stencil.field<8xf32>) {
    %c = arith.constant 0.0 : f32
    stencil.return %c, %c : f32, f32
  }
  return
}

// -----

func.func @apply_schedule_rank(%a: !stencil.field<8x8xf32>, %b: !stencil.field<8x8xf32>) {
  %g = stencil.grid [1, 1] to [7, 7] : !stencil.grid<2>
  // expected-error @+1 {{schedule 'wg' has 3 axes but the grid is 2-D}}
  %r = stencil.apply on %g ins(%x = %a : !stencil.field<8x8xf32>) outs(%b : !stencil.field<8x8xf32>)
      attributes {schedule = #stencil.schedule<wg = [1, 2, 4]>} {
    %v = stencil.access %x[0, 0] : !stencil.field<8x8xf32>
    stencil.return %v : f32
  }
  return
}

// -----

func.func @apply_time_block(%a: !stencil.field<8xf32>, %b: !stencil.field<8xf32>) {
  %g = stencil.grid [1] to [7] : !stencil.grid<1>
  // expected-error @+1 {{schedule 'time_block' 2 needs a time loop: set it on the enclosing stencil.iterate}}
  %r = stencil.apply on %g ins(%x = %a : !stencil.field<8xf32>) outs(%b : !stencil.field<8xf32>)
      attributes {schedule = #stencil.schedule<wg = [4], time_block = 2>} {
    %v = stencil.access %x[0] : !stencil.field<8xf32>
    stencil.return %v : f32
  }
  return
}

// -----

func.func @apply_grid_exceeds_output(%a: !stencil.field<8x8xf32>, %b: !stencil.field<8x6xf32>) {
  %g = stencil.grid [1, 1] to [7, 7] : !stencil.grid<2>
  // expected-error @+1 {{grid upper bound 7 along axis 1 exceeds the size 6 of output #0}}
  %r = stencil.apply on %g ins(%x = %a : !stencil.field<8x8xf32>) outs(%b : !stencil.field<8x6xf32>) {
    %v = stencil.access %x[0, 0] : !stencil.field<8x8xf32>
    stencil.return %v : f32
  }
  return
}

// -----

func.func @apply_body_args(%a: !stencil.field<8xf32>, %b: !stencil.field<8xf32>) {
  %g = stencil.grid [1] to [7] : !stencil.grid<1>
  // expected-error @+1 {{body argument #0 has type 'f32' but input #0 has type '!stencil.field<8xf32>'}}
  %r = "stencil.apply"(%g, %a, %b) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%x: f32):
    "stencil.return"(%x) : (f32) -> ()
  }) : (!stencil.grid<1>, !stencil.field<8xf32>, !stencil.field<8xf32>) -> !stencil.field<8xf32>
  return
}

// -----

func.func @return_count(%a: !stencil.field<8xf32>, %b: !stencil.field<8xf32>) {
  %g = stencil.grid [1] to [7] : !stencil.grid<1>
  %r = stencil.apply on %g ins(%x = %a : !stencil.field<8xf32>) outs(%b : !stencil.field<8xf32>) {
    %v = stencil.access %x[0] : !stencil.field<8xf32>
    // expected-error @+1 {{returns 2 values but the enclosing stencil.apply writes 1 fields}}
    stencil.return %v, %v : f32, f32
  }
  return
}

// -----

func.func @return_type(%a: !stencil.field<8xf32>, %b: !stencil.field<8xf32>) {
  %g = stencil.grid [1] to [7] : !stencil.grid<1>
  %r = stencil.apply on %g ins(%x = %a : !stencil.field<8xf32>) outs(%b : !stencil.field<8xf32>) {
    %v = arith.constant 1.0 : f64
    // expected-error @+1 {{value #0 has type 'f64' but output #0 holds 'f32'}}
    stencil.return %v : f64
  }
  return
}

// -----

func.func @access_below(%a: !stencil.field<8x8xf32>, %b: !stencil.field<8x8xf32>) {
  %g = stencil.grid [1, 1] to [7, 7] : !stencil.grid<2>
  %r = stencil.apply on %g ins(%x = %a : !stencil.field<8x8xf32>) outs(%b : !stencil.field<8x8xf32>) {
    // expected-error @+1 {{offset -2 along axis 0 reads outside the field: the grid starts at 1, which leaves a halo of 1}}
    %v = stencil.access %x[-2, 0] : !stencil.field<8x8xf32>
    stencil.return %v : f32
  }
  return
}

// -----

func.func @access_above(%a: !stencil.field<8x8xf32>, %b: !stencil.field<8x8xf32>) {
  %g = stencil.grid [1, 1] to [7, 6] : !stencil.grid<2>
  %r = stencil.apply on %g ins(%x = %a : !stencil.field<8x8xf32>) outs(%b : !stencil.field<8x8xf32>) {
    // expected-error @+1 {{offset 3 along axis 1 reads outside the field: the grid ends at 6 of 8, which leaves a halo of 2}}
    %v = stencil.access %x[0, 3] : !stencil.field<8x8xf32>
    stencil.return %v : f32
  }
  return
}

// -----

func.func @access_rank(%a: !stencil.field<8x8xf32>, %b: !stencil.field<8x8xf32>) {
  %g = stencil.grid [1, 1] to [7, 7] : !stencil.grid<2>
  %r = stencil.apply on %g ins(%x = %a : !stencil.field<8x8xf32>) outs(%b : !stencil.field<8x8xf32>) {
    // expected-error @+1 {{offset has 3 entries but the field is 2-D}}
    %v = stencil.access %x[0, 0, 0] : !stencil.field<8x8xf32>
    stencil.return %v : f32
  }
  return
}

// -----

func.func @access_outside_apply(%a: !stencil.field<8xf32>) -> f32 {
  // expected-error @+1 {{must be nested in a stencil.apply}}
  %v = stencil.access %a[0] : !stencil.field<8xf32>
  return %v : f32
}

// -----

func.func @access_not_argument(%m: memref<8xf32>, %b: !stencil.field<8xf32>) {
  %g = stencil.grid [1] to [7] : !stencil.grid<1>
  %r = stencil.apply on %g ins(%mm = %m : memref<8xf32>) outs(%b : !stencil.field<8xf32>) {
    %f = stencil.load %mm : memref<8xf32> -> !stencil.field<8xf32>
    // expected-error @+1 {{must read a field argument of the enclosing stencil.apply}}
    %v = stencil.access %f[0] : !stencil.field<8xf32>
    stencil.return %v : f32
  }
  return
}

// -----

func.func @stencil_op_in_apply(%a: !stencil.field<8xf32>, %b: !stencil.field<8xf32>) {
  %g = stencil.grid [1] to [7] : !stencil.grid<1>
  %r = stencil.apply on %g ins(%x = %a : !stencil.field<8xf32>) outs(%b : !stencil.field<8xf32>) {
    // expected-error @+1 {{'stencil.grid' op is not allowed in a stencil.apply body}}
    %h = stencil.grid [1] to [7] : !stencil.grid<1>
    %v = stencil.access %x[0] : !stencil.field<8xf32>
    stencil.return %v : f32
  }
  return
}

// -----

func.func @iterate_empty(%n: index) {
  // expected-error @+1 {{must carry at least one field}}
  "stencil.iterate"(%n) ({
    "stencil.yield"() : () -> ()
  }) : (index) -> ()
  return
}

// -----

func.func @iterate_types(%n: index, %a: !stencil.field<8xf32>, %b: !stencil.field<8xf32>) {
  // expected-error @+1 {{expected 2 types, got 1}}
  %r:2 = stencil.iterate %n iter_args(%x = %a, %y = %b) : !stencil.field<8xf32> {
    stencil.yield %x, %y : !stencil.field<8xf32>, !stencil.field<8xf32>
  }
  return
}

// -----

func.func @yield_count(%n: index, %a: !stencil.field<8xf32>, %b: !stencil.field<8xf32>) {
  %r:2 = stencil.iterate %n iter_args(%x = %a, %y = %b) : !stencil.field<8xf32>, !stencil.field<8xf32> {
    // expected-error @+1 {{yields 1 values but the enclosing stencil.iterate carries 2}}
    stencil.yield %x : !stencil.field<8xf32>
  }
  return
}

// -----

func.func @yield_type(%n: index, %a: !stencil.field<8xf32>, %b: !stencil.field<8xf64>) {
  %r:2 = stencil.iterate %n iter_args(%x = %a, %y = %b) : !stencil.field<8xf32>, !stencil.field<8xf64> {
    // expected-error @+1 {{value #0 has type '!stencil.field<8xf64>' but iter_arg #0 has type '!stencil.field<8xf32>'}}
    stencil.yield %y, %x : !stencil.field<8xf64>, !stencil.field<8xf32>
  }
  return
}

// -----

func.func @iterate_schedule_rank(%n: index, %a: !stencil.field<8x8xf32>, %b: !stencil.field<8x8xf32>) {
  %g = stencil.grid [1, 1] to [7, 7] : !stencil.grid<2>
  // expected-error @+1 {{schedule 'wg' has 3 axes but the grid of a stencil.apply in its body is 2-D}}
  %r:2 = stencil.iterate %n iter_args(%x = %a, %y = %b) : !stencil.field<8x8xf32>, !stencil.field<8x8xf32>
      attributes {schedule = #stencil.schedule<wg = [1, 8, 32], time_block = 2>} {
    // expected-note @+1 {{the stencil.apply is here}}
    %z = stencil.apply on %g ins(%u = %x : !stencil.field<8x8xf32>) outs(%y : !stencil.field<8x8xf32>) {
      %v = stencil.access %u[0, 1] : !stencil.field<8x8xf32>
      stencil.return %v : f32
    }
    stencil.yield %z, %x : !stencil.field<8x8xf32>, !stencil.field<8x8xf32>
  }
  return
}

// -----

func.func @exchange_undistributed(%p: !stencil.field<8x8xf32>) {
  // expected-error @+1 {{needs a distributed field, but the field type has no #stencil.decomp}}
  %q = stencil.exchange %p widths [1, 0] : !stencil.field<8x8xf32>
  return
}

// -----

func.func @exchange_rank(%p: !stencil.field<8x8xf32, #stencil.decomp<block, *>>) {
  // expected-error @+1 {{widths has 3 entries but the field is 2-D}}
  %q = stencil.exchange %p widths [1, 0, 0] : !stencil.field<8x8xf32, #stencil.decomp<block, *>>
  return
}

// -----

func.func @exchange_negative(%p: !stencil.field<8x8xf32, #stencil.decomp<block, *>>) {
  // expected-error @+1 {{width -1 along axis 0 is negative}}
  %q = stencil.exchange %p widths [-1, 0] : !stencil.field<8x8xf32, #stencil.decomp<block, *>>
  return
}

// -----

func.func @exchange_replicated_axis(%p: !stencil.field<8x8xf32, #stencil.decomp<block, *>>) {
  // expected-error @+1 {{width 1 along axis 1, which is not distributed}}
  %q = stencil.exchange %p widths [1, 1] : !stencil.field<8x8xf32, #stencil.decomp<block, *>>
  return
}

// -----

func.func @exchange_too_wide(%p: !stencil.field<8x8xf32, #stencil.decomp<block, *>>) {
  // expected-error @+1 {{width 8 along axis 0 is not smaller than the field size 8}}
  %q = stencil.exchange %p widths [8, 0] : !stencil.field<8x8xf32, #stencil.decomp<block, *>>
  return
}

// -----

func.func @load_element(%m: memref<8xf64>) {
  // expected-error @+1 {{memref element type 'f64' does not match the field's 'f32'}}
  %f = stencil.load %m : memref<8xf64> -> !stencil.field<8xf32>
  return
}

// -----

func.func @load_rank(%m: memref<8x8xf32>) {
  // expected-error @+1 {{memref is 2-D but the field is 1-D}}
  %f = stencil.load %m : memref<8x8xf32> -> !stencil.field<64xf32>
  return
}

// -----

func.func @load_size(%m: memref<8x?xf32>) {
  // expected-error @+1 {{memref size 8 along axis 0 does not match the field size 9}}
  %f = stencil.load %m : memref<8x?xf32> -> !stencil.field<9x4xf32>
  return
}

// -----

func.func @store_size(%f: !stencil.field<8x8xf32>, %m: memref<8x7xf32>) {
  // expected-error @+1 {{memref size 7 along axis 1 does not match the field size 8}}
  stencil.store %f to %m : !stencil.field<8x8xf32> to memref<8x7xf32>
  return
}

// -----

// Bodies end with their own terminators.
func.func @apply_terminator(%A: memref<8xf32>) {
  %a = stencil.load %A : memref<8xf32> -> !stencil.field<8xf32>
  %g = stencil.grid [0] to [8] : !stencil.grid<1>
  // expected-error @+1 {{body must end with stencil.return}}
  %r = stencil.apply on %g ins(%x = %a : !stencil.field<8xf32>) outs(%a : !stencil.field<8xf32>) {
    llvm.unreachable
  }
  return
}

// -----

func.func @iterate_terminator(%a0: !stencil.field<8xf32>, %n: index) {
  // expected-error @+1 {{body must end with stencil.yield}}
  %r = stencil.iterate %n iter_args(%a = %a0) : !stencil.field<8xf32> {
    llvm.unreachable
  }
  return
}

// -----

func.func @reduce_unknown_kind(%a: !stencil.field<8xf32>, %z: f32) {
  %g = stencil.grid [1] to [7] : !stencil.grid<1>
  // expected-error @+1 {{unknown reduction 'sum'; expected add, mul, min or max}}
  %r:2 = stencil.apply on %g ins(%x = %a : !stencil.field<8xf32>) outs(%a : !stencil.field<8xf32>) reduce(sum %z : f32) {
    %v = stencil.access %x[0] : !stencil.field<8xf32>
    stencil.return %v, %v : f32, f32
  }
  return
}

// -----

func.func @reduce_index(%a: !stencil.field<8xf32>, %z: index) {
  %g = stencil.grid [1] to [7] : !stencil.grid<1>
  // expected-error @+1 {{operand #3 must be variadic of signless integer or floating-point}}
  %r:2 = stencil.apply on %g ins(%x = %a : !stencil.field<8xf32>) outs(%a : !stencil.field<8xf32>) reduce(add %z : index) {
    %v = stencil.access %x[0] : !stencil.field<8xf32>
    stencil.return %v, %z : f32, index
  }
  return
}

// -----

func.func @reduce_kind_count(%a: !stencil.field<8xf32>, %z: f32) {
  %g = stencil.grid [1] to [7] : !stencil.grid<1>
  // expected-error @+1 {{has 1 reduction inits but 2 reduction kinds}}
  %r:2 = "stencil.apply"(%g, %a, %a, %z) <{operandSegmentSizes = array<i32: 1, 1, 1, 1>,
      reductions = [#stencil.reduction<add>, #stencil.reduction<max>]}> ({
  ^bb0(%x: !stencil.field<8xf32>):
    %v = stencil.access %x[0] : !stencil.field<8xf32>
    "stencil.return"(%v, %v) : (f32, f32) -> ()
  }) : (!stencil.grid<1>, !stencil.field<8xf32>, !stencil.field<8xf32>, f32) -> (!stencil.field<8xf32>, f32)
  return
}

// -----

func.func @reduce_result_type(%a: !stencil.field<8xf32>, %z: f32) {
  %g = stencil.grid [1] to [7] : !stencil.grid<1>
  // expected-error @+1 {{reduction #0 has type 'f64' but its init has type 'f32'}}
  %r:2 = "stencil.apply"(%g, %a, %a, %z) <{operandSegmentSizes = array<i32: 1, 1, 1, 1>,
      reductions = [#stencil.reduction<add>]}> ({
  ^bb0(%x: !stencil.field<8xf32>):
    %v = stencil.access %x[0] : !stencil.field<8xf32>
    "stencil.return"(%v, %v) : (f32, f32) -> ()
  }) : (!stencil.grid<1>, !stencil.field<8xf32>, !stencil.field<8xf32>, f32) -> (!stencil.field<8xf32>, f64)
  return
}

// -----

func.func @reduce_missing_contribution(%a: !stencil.field<8xf32>, %z: f32) {
  %g = stencil.grid [1] to [7] : !stencil.grid<1>
  %r:2 = stencil.apply on %g ins(%x = %a : !stencil.field<8xf32>) outs(%a : !stencil.field<8xf32>) reduce(add %z : f32) {
    %v = stencil.access %x[0] : !stencil.field<8xf32>
    // expected-error @+1 {{returns 1 values but the enclosing stencil.apply writes 1 fields and reduces 1 values}}
    stencil.return %v : f32
  }
  return
}

// -----

func.func @reduce_contribution_type(%a: !stencil.field<8xf32>, %z: f64) {
  %g = stencil.grid [1] to [7] : !stencil.grid<1>
  %r:2 = stencil.apply on %g ins(%x = %a : !stencil.field<8xf32>) outs(%a : !stencil.field<8xf32>) reduce(add %z : f64) {
    %v = stencil.access %x[0] : !stencil.field<8xf32>
    // expected-error @+1 {{contribution #0 has type 'f32' but reduction #0 has type 'f64'}}
    stencil.return %v, %v : f32, f32
  }
  return
}

// -----

func.func @iterate_scalars_only(%n: index, %s: f32) {
  // expected-error @+1 {{must carry at least one field}}
  %r = stencil.iterate %n iter_args(%x = %s) : f32 {
    stencil.yield %x : f32
  }
  return
}

// -----

func.func @iterate_memref(%n: index, %a: !stencil.field<8xf32>, %m: memref<8xf32>) {
  // expected-error @+1 {{operand #2 must be variadic of stencil field or signless integer or floating-point or index, but got 'memref<8xf32>'}}
  %r:2 = stencil.iterate %n iter_args(%x = %a, %y = %m) : !stencil.field<8xf32>, memref<8xf32> {
    stencil.yield %x, %y : !stencil.field<8xf32>, memref<8xf32>
  }
  return
}

// -----

func.func @index_axis(%A: memref<8xf32>) {
  %a = stencil.load %A : memref<8xf32> -> !stencil.field<8xf32>
  %g = stencil.grid [1] to [7] : !stencil.grid<1>
  %r = stencil.apply on %g ins(%x = %a : !stencil.field<8xf32>) outs(%a : !stencil.field<8xf32>) {
    // expected-error @+1 {{axis 1 is outside the 1-D grid of the enclosing apply}}
    %i = stencil.index 1
    %v = stencil.access %x[0] : !stencil.field<8xf32>
    stencil.return %v : f32
  }
  return
}

// -----

func.func @index_outside(%A: memref<8xf32>) {
  // expected-error @+1 {{'stencil.index' op expects parent op 'stencil.apply'}}
  %i = stencil.index 0
  return
}

// -----

// A file write stands outside time loops.
!F = !stencil.field<8xf32>
func.func @write_in_loop(%a: !F, %path: memref<i8>, %n: index) {
  %r = stencil.iterate %n iter_args(%x = %a) : !F {
    // expected-error @+1 {{'stencil.write_raw' op stands inside a stencil.iterate; write the field before or after the time loop}}
    stencil.write_raw %x to %path : !F to memref<i8>
    stencil.yield %x : !F
  }
  return
}

// -----

func.func @lower_rank_without_along(%a: !stencil.field<8xf32>, %b: !stencil.field<8x8xf32>) {
  %g = stencil.grid [1, 1] to [7, 7] : !stencil.grid<2>
  %r = stencil.apply on %g ins(%x = %a : !stencil.field<8xf32>) outs(%b : !stencil.field<8x8xf32>) {
    // expected-error @+1 {{reads a 1-D field in a 2-D grid; name the grid axes its axes run along with 'along'}}
    %v = stencil.access %x[0] : !stencil.field<8xf32>
    stencil.return %v : f32
  }
  return
}

// -----

func.func @along_size(%a: !stencil.field<8xf32>, %b: !stencil.field<8x8xf32>) {
  %g = stencil.grid [1, 1] to [7, 7] : !stencil.grid<2>
  %r = stencil.apply on %g ins(%x = %a : !stencil.field<8xf32>) outs(%b : !stencil.field<8x8xf32>) {
    // expected-error @+1 {{'along' has 2 entries but the field is 1-D}}
    %v = stencil.access %x[0] along [0, 1] : !stencil.field<8xf32>
    stencil.return %v : f32
  }
  return
}

// -----

func.func @along_axis(%a: !stencil.field<8xf32>, %b: !stencil.field<8x8xf32>) {
  %g = stencil.grid [1, 1] to [7, 7] : !stencil.grid<2>
  %r = stencil.apply on %g ins(%x = %a : !stencil.field<8xf32>) outs(%b : !stencil.field<8x8xf32>) {
    // expected-error @+1 {{'along' names axis 2, which the 2-D grid does not have}}
    %v = stencil.access %x[0] along [2] : !stencil.field<8xf32>
    stencil.return %v : f32
  }
  return
}

// -----

func.func @along_twice(%a: !stencil.field<8x8xf32>, %b: !stencil.field<8x8x8xf32>) {
  %g = stencil.grid [1, 1, 1] to [7, 7, 7] : !stencil.grid<3>
  %r = stencil.apply on %g ins(%x = %a : !stencil.field<8x8xf32>) outs(%b : !stencil.field<8x8x8xf32>) {
    // expected-error @+1 {{'along' names grid axis 1 twice}}
    %v = stencil.access %x[0, 0] along [1, 1] : !stencil.field<8x8xf32>
    stencil.return %v : f32
  }
  return
}

// -----

func.func @along_bounds(%a: !stencil.field<6xf32>, %b: !stencil.field<8x8xf32>) {
  %g = stencil.grid [1, 1] to [7, 7] : !stencil.grid<2>
  %r = stencil.apply on %g ins(%x = %a : !stencil.field<6xf32>) outs(%b : !stencil.field<8x8xf32>) {
    // expected-error @+1 {{offset 0 along axis 0 (the grid's axis 1) reads outside the field: the grid ends at 7, beyond the field's 6 cells}}
    %v = stencil.access %x[0] along [1] : !stencil.field<6xf32>
    stencil.return %v : f32
  }
  return
}


// -----

func.func @along_full_rank(%a: !stencil.field<8x8xf32>, %b: !stencil.field<8x8xf32>) {
  %g = stencil.grid [1, 1] to [7, 7] : !stencil.grid<2>
  %r = stencil.apply on %g ins(%x = %a : !stencil.field<8x8xf32>) outs(%b : !stencil.field<8x8xf32>) {
    // expected-error @+1 {{names 'along' for a field of the grid's rank; 'along' is for fields of fewer axes}}
    %v = stencil.access %x[0, 0] along [1, 0] : !stencil.field<8x8xf32>
    stencil.return %v : f32
  }
  return
}
