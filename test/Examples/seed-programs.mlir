// The four programs of seed 000 Table 5, written by hand in the dialect,
// verify, round-trip, and have the halos their C loops imply.
//
// RUN: stencil-opt %examples/mlir/heat1d.mlir | stencil-opt | FileCheck %s --check-prefix=HEAT1D
// RUN: stencil-opt %examples/mlir/heat2d.mlir | stencil-opt | FileCheck %s --check-prefix=HEAT2D
// RUN: stencil-opt %examples/mlir/heat3d.mlir | stencil-opt | FileCheck %s --check-prefix=HEAT3D
// RUN: stencil-opt %examples/mlir/himeno.mlir | stencil-opt | FileCheck %s --check-prefix=HIMENO
//
// RUN: stencil-opt %examples/mlir/heat3d.mlir -test-stencil-access-extents 2>&1 >/dev/null | FileCheck %s --check-prefix=HALO3D
// RUN: stencil-opt %examples/mlir/himeno.mlir -test-stencil-access-extents 2>&1 >/dev/null | FileCheck %s --check-prefix=HALOHIMENO

// HEAT1D: stencil.grid [1] to [4194303] : !stencil.grid<1>
// HEAT1D: stencil.iterate
// HEAT1D-COUNT-3: stencil.access
// HEAT1D: stencil.yield

// HEAT2D: stencil.grid [1, 1] to [2047, 2047] : !stencil.grid<2>
// HEAT2D: stencil.iterate {{.*}} attributes {schedule = #stencil.schedule<wg = [8, 64], time_block = 2>}
// HEAT2D-COUNT-5: stencil.access %{{.*}} : !stencil.field<2048x2048xf32>

// HEAT3D: stencil.grid [1, 1, 1] to [255, 255, 255] : !stencil.grid<3>
// HEAT3D: %[[R:.*]]:2 = stencil.iterate %{{.*}} iter_args(%[[SRC:.*]] = %{{.*}}, %{{.*}} = %{{.*}})
// HEAT3D: %[[NEW:.*]] = stencil.apply
// HEAT3D-COUNT-7: stencil.access
// HEAT3D: stencil.yield %[[NEW]], %[[SRC]]

// HIMENO: stencil.grid [1, 1, 1] to [127, 127, 255] : !stencil.grid<3>
// The 13 field inputs and omega, one output.
// HIMENO: stencil.apply on %{{.*}} ins({{(%[^ ]+ = %[^ ]+ : !stencil.field<128x128x256xf32>, ){13}[^ ]+ = [^ ]+ : f32}}) outs(%{{[^ ]+}} : !stencil.field<128x128x256xf32>) {
// HIMENO-COUNT-31: stencil.access
// HIMENO: arith.addf
// HIMENO: stencil.return

// The seven-point stencil reads one cell beyond the point along every axis,
// from A and, once the yield has swapped them, from B.
// HALO3D-COUNT-2: heat3d.mlir:{{.*}} remark: result #0 is read with extent [-1, 1] x [-1, 1] x [-1, 1], halo [1, 1] x [1, 1] x [1, 1]

// p is read at the 19 points of the Himeno stencil, the coefficient arrays
// only at the centre.
// HALOHIMENO: remark: result #0 is read with extent [-1, 1] x [-1, 1] x [-1, 1]
// HALOHIMENO-COUNT-12: remark: result #0 is read with extent [0, 0] x [0, 0] x [0, 0]
