// Types and attributes that must be rejected at parse time, one case each.
// RUN: stencil-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{field must have 1 to 3 axes, got 4}}
func.func private @f(!stencil.field<2x2x2x2xf32>)

// -----

// expected-error @+1 {{field element type must be f32, f64, i32 or i64, got 'i16'}}
func.func private @f(!stencil.field<8xi16>)

// -----

// expected-error @+1 {{field size along axis 1 must be positive, got 0}}
func.func private @f(!stencil.field<8x0xf32>)

// -----

// 2^62 x 4 floats: 2^66 bytes.
// expected-error @+1 {{field of 4611686018427387904x?x4 'f32' needs more than 2^63 bytes, beyond the 64-bit offsets lowered code addresses it with}}
func.func private @f(!stencil.field<4611686018427387904x?x4xf32>)

// -----

// expected-error @+1 {{decomposition has 1 axes but the field has 2}}
func.func private @f(!stencil.field<8x8xf32, #stencil.decomp<block>>)

// -----

// expected-error @+1 {{grid must have 1 to 3 axes, got 0}}
func.func private @f(!stencil.grid<0>)

// -----

// expected-error @+1 {{expected 'block' or '*' for an axis, got 'cyclic'}}
func.func private @f() attributes {d = #stencil.decomp<block, cyclic>}

// -----

// expected-error @+1 {{decomposition distributes no axis}}
func.func private @f() attributes {d = #stencil.decomp<*, *>}

// -----

// expected-error @+1 {{decomposition must have 1 to 3 axes, got 4}}
func.func private @f() attributes {d = #stencil.decomp<block, *, *, *>}

// -----

// expected-error @+1 {{unknown schedule key 'block'; expected wg, tile, time_block, exchange_depth or streaming_stores}}
func.func private @f() attributes {s = #stencil.schedule<wg = [32], block = 2>}

// -----

// expected-error @+1 {{schedule key 'wg' given twice}}
func.func private @f() attributes {s = #stencil.schedule<wg = [32], wg = [16]>}

// -----

// expected-error @+1 {{schedule needs a work-group shape 'wg'}}
func.func private @f() attributes {s = #stencil.schedule<time_block = 2>}

// -----

// expected-error @+1 {{schedule 'wg' must have 1 to 3 axes, got 4}}
func.func private @f() attributes {s = #stencil.schedule<wg = [1, 1, 1, 1]>}

// -----

// expected-error @+1 {{schedule 'wg' must be at least 1 along every axis, got 0 along axis 1}}
func.func private @f() attributes {s = #stencil.schedule<wg = [4, 0]>}

// -----

// expected-error @+1 {{schedule 'tile' has 1 axes but 'wg' has 2}}
func.func private @f() attributes {s = #stencil.schedule<wg = [4, 8], tile = [8]>}

// -----

// expected-error @+1 {{schedule 'tile' must be a positive multiple of 'wg' along every axis, got 12 over 8 along axis 1}}
func.func private @f() attributes {s = #stencil.schedule<wg = [4, 8], tile = [8, 12]>}

// -----

// expected-error @+1 {{schedule 'time_block' must be at least 1, got 0}}
func.func private @f() attributes {s = #stencil.schedule<wg = [32], time_block = 0>}

// -----

// expected-error @+1 {{schedule 'exchange_depth' must be at least 1, got -1}}
func.func private @f() attributes {s = #stencil.schedule<wg = [32], exchange_depth = -1>}

// -----

// expected-error @+1 {{schedule 'streaming_stores' must be true or false}}
func.func private @f() attributes {s = #stencil.schedule<wg = [32], streaming_stores = yes>}
