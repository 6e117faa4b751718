// RUN: stencil-opt %s "--convert-stencil-to-loops=prefetch-distance=256" -canonicalize -cse --split-input-file -verify-diagnostics | FileCheck %s

!f2 = !stencil.field<6x100xf32>

// A schedule with streaming_stores: each row runs from the output's first
// 64-byte line boundary in whole lines of 16 floats (vector loads at every
// access offset, the body on vectors, uniform values broadcast, an aligned
// non-temporal store), with one masked vector for the points before that
// boundary and one for those after the last whole line. The destination is
// not prefetched for writing (the stores bypass the cache); the source is.
// Each tile ends with a locked read-modify-write that orders its
// non-temporal stores.
// CHECK-LABEL: memref.global "private" @stencil_streaming_fence : memref<i32> = dense<0>
// CHECK-LABEL: func.func @sweep2d(
// CHECK-SAME: %[[A:[^:]*]]: memref<6x100xf32>, %[[B:[^:]*]]: memref<6x100xf32>, %[[S:[^:]*]]: f32)
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG: %[[C16:.*]] = arith.constant 16 : index
// CHECK-DAG: %[[C64:.*]] = arith.constant 64 : index
// CHECK-DAG: %[[C99:.*]] = arith.constant 99 : index
// CHECK-DAG: %[[ZEROS:.*]] = arith.constant dense<0.000000e+00> : vector<16xf32>
// CHECK: scf.parallel (%[[TI:.*]]) =
// CHECK: scf.for %[[I:.*]] = %[[TI]] to
// CHECK: memref.prefetch %[[A]]{{.*}} read
// CHECK-NOT: memref.prefetch
// CHECK: %[[BASE:.*]] = memref.extract_aligned_pointer_as_index %[[B]]
// CHECK: %[[ROWSTART:.*]] = arith.muli %[[I]], %{{.*}}
// CHECK: %[[LINEAR:.*]] = arith.addi %[[ROWSTART]], %[[C1]]
// CHECK: %[[BYTES:.*]] = arith.muli %[[LINEAR]], %[[C4]]
// CHECK: %[[ADDR:.*]] = arith.addi %[[BASE]], %[[BYTES]]
// CHECK: %[[MIS:.*]] = arith.remui %[[ADDR]], %[[C64]]
// CHECK: %[[TOLINE:.*]] = arith.subi %[[C64]], %[[MIS]]
// CHECK: %[[HEADBYTES:.*]] = arith.remui %[[TOLINE]], %[[C64]]
// CHECK: %[[HEADPOINTS:.*]] = arith.divui %[[HEADBYTES]], %[[C4]]
// CHECK: %[[HEAD:.*]] = arith.minsi %[[HEADPOINTS]], %{{.*}}
// CHECK: %[[FROM:.*]] = arith.addi %[[HEAD]], %[[C1]]
// CHECK: %[[REST:.*]] = arith.subi %{{.*}}, %[[HEAD]]
// CHECK: %[[LINES:.*]] = arith.divui %[[REST]], %[[C16]]
// CHECK: %[[WHOLE:.*]] = arith.muli %[[LINES]], %[[C16]]
// CHECK: %[[TO:.*]] = arith.addi %[[FROM]], %[[WHOLE]]
// The head: lanes [1, FROM) under a mask.
// CHECK: %[[HEADMASK:.*]] = vector.create_mask %[[HEAD]] : vector<16xi1>
// CHECK: vector.maskedload %[[A]][%[[I]], %{{.*}}], %[[HEADMASK]], %[[ZEROS]]
// CHECK: %[[SPLAT:.*]] = vector.broadcast %[[S]] : f32 to vector<16xf32>
// CHECK: vector.maskedstore %[[B]][%[[I]], %[[C1]]], %[[HEADMASK]], %{{.*}} : memref<6x100xf32>, vector<16xi1>, vector<16xf32>
// Outside a swapped time loop nothing is known of B's ring: no whole end
// lines.
// CHECK-NOT: vector.store
// The whole lines.
// CHECK: scf.for %[[K:.*]] = %[[FROM]] to %[[TO]] step %[[C16]] {
// CHECK-NEXT: %[[KM1:.*]] = arith.addi %[[K]], %{{.*}} : index
// CHECK-NEXT: %[[W:.*]] = vector.load %[[A]][%[[I]], %[[KM1]]] : memref<6x100xf32>, vector<16xf32>
// CHECK-NEXT: %[[N:.*]] = vector.load %[[A]][%{{.*}}, %[[K]]] : memref<6x100xf32>, vector<16xf32>
// CHECK-NEXT: %[[SUM:.*]] = arith.addf %[[W]], %[[N]] : vector<16xf32>
// CHECK-NEXT: %[[SCALED:.*]] = arith.mulf %[[SUM]], %[[SPLAT]] : vector<16xf32>
// CHECK-NEXT: vector.store %[[SCALED]], %[[B]][%[[I]], %[[K]]] {alignment = 64 : i64, nontemporal = true} : memref<6x100xf32>, vector<16xf32>
// CHECK: }
// The tail: lanes [TO, 99) under a mask.
// CHECK: %[[TAILCOUNT:.*]] = arith.subi %[[C99]], %[[TO]]
// CHECK: %[[TAILMASK:.*]] = vector.create_mask %[[TAILCOUNT]] : vector<16xi1>
// CHECK: vector.maskedstore %[[B]][%[[I]], %[[TO]]], %[[TAILMASK]]
// CHECK: }
// CHECK: %[[COUNTER:.*]] = memref.get_global @stencil_streaming_fence : memref<i32>
// CHECK: memref.atomic_rmw addi %{{.*}}, %[[COUNTER]][] : (i32, memref<i32>) -> i32
// CHECK: scf.reduce
func.func @sweep2d(%A: memref<6x100xf32>, %B: memref<6x100xf32>, %s: f32) {
  %a = stencil.load %A : memref<6x100xf32> -> !f2
  %b = stencil.load %B : memref<6x100xf32> -> !f2
  %g = stencil.grid [1, 1] to [5, 99] : !stencil.grid<2>
  %r = stencil.apply on %g ins(%x = %a : !f2, %c = %s : f32) outs(%b : !f2)
      attributes {schedule = #stencil.schedule<wg = [2, 98], streaming_stores = true>} {
    %w = stencil.access %x[0, -1] : !f2
    %n = stencil.access %x[1, 0] : !f2
    %t = arith.addf %w, %n : f32
    %v = arith.mulf %t, %c : f32
    stencil.return %v : f32
  }
  stencil.store %r to %B : !f2 to memref<6x100xf32>
  return
}

// -----

!f2 = !stencil.field<6x64xf32>

// In a swapped time loop the destination's ring equals the source's, so an
// end line is stored whole and non-temporally where each of its cells is a
// point of the tile (in this row or a neighbouring row of the tile) or a
// ring cell, whose value is loaded from the source; a cached store would
// first read the line. Per lane: its column in its own row (the line may
// begin in the previous row and end in the next), whether that row is in
// the grid and in the tile, and whether the column is in the tile's and in
// the grid's; all lanes must be computed or ring cells. The reads of the
// line must stay inside A: (0, -1) reaches one point back. Otherwise the
// masked store stays. A tail line that reaches the next row's points is
// that row's head line, stored by it.
// CHECK-LABEL: func.func @swap2d(
// CHECK-DAG: %[[C16:.*]] = arith.constant 16 : index
// CHECK: scf.for %{{.*}} iter_args(%[[SRC:[^ ]*]] = %{{[^,]*}}, %[[DST:[^ ]*]] = %{{[^)]*}})
// CHECK: scf.parallel (%[[T:[^)]*]]) =
// CHECK: %[[TEND:.*]] = arith.minsi %{{.*}}, %c5 : index
// CHECK: scf.for %[[I:[^ ]*]] = %[[T]] to %[[TEND]]
// CHECK: %[[ROWSTART:.*]] = arith.muli %[[I]], %c64 : index
// CHECK: %[[HEAD:.*]] = arith.divui %{{.*}}, %c4 : index
// CHECK: %[[FROM:.*]] = arith.addi %{{.*}}, %c1 : index
// CHECK: %[[TO:.*]] = arith.addi %[[FROM]], %{{.*}} : index
// CHECK: %[[START:.*]] = arith.addi %[[HEAD]], %c-15 : index
// CHECK: %[[HASHEAD:.*]] = arith.cmpi sgt, %[[HEAD]], %c0 : index
// CHECK: %[[LINEAR:.*]] = arith.addi %[[ROWSTART]], %[[START]] : index
// CHECK: %[[INSIDE:.*]] = arith.cmpi sge, %[[LINEAR]], %c1 : index
// CHECK: %[[STEP:.*]] = vector.step : vector<16xindex>
// CHECK: %[[COLUMNS:.*]] = arith.addi %[[STEP]], %{{.*}} : vector<16xindex>
// CHECK: %[[BACK:.*]] = arith.cmpi slt, %[[COLUMNS]], %{{.*}} : vector<16xindex>
// CHECK: %[[ON:.*]] = arith.cmpi sge, %[[COLUMNS]], %{{.*}} : vector<16xindex>
// CHECK: %[[GRIDROW:.*]] = arith.select %[[BACK]], %{{.*}}, %{{.*}} : vector<16xi1>, vector<16xi1>
// CHECK: arith.cmpi sge, %[[NEXT:.*]], %[[T]] : index
// CHECK: arith.cmpi slt, %[[NEXT]], %[[TEND]] : index
// CHECK: %[[NEXTINTILE:.*]] = arith.andi %{{.*}}, %{{.*}} : i1
// CHECK: %[[TILEROW:.*]] = arith.select %[[BACK]], %{{.*}}, %{{.*}} : vector<16xi1>, vector<16xi1>
// CHECK: %[[COMPUTED:.*]] = arith.andi %[[TILEROW]], %{{.*}} : vector<16xi1>
// CHECK: %[[GRIDCELL:.*]] = arith.andi %[[GRIDROW]], %{{.*}} : vector<16xi1>
// CHECK: %[[RINGCELL:.*]] = arith.xori %[[GRIDCELL]], %{{.*}} : vector<16xi1>
// CHECK: %[[ALLOWED:.*]] = arith.ori %[[COMPUTED]], %[[RINGCELL]] : vector<16xi1>
// CHECK: %[[ALL:.*]] = vector.reduction <and>, %[[ALLOWED]] : vector<16xi1> into i1
// CHECK: scf.if %{{.*}} {
// CHECK: vector.maskedload %[[SRC]][%[[I]], %{{.*}}], %[[COMPUTED]]
// CHECK: %[[RING:.*]] = vector.load %[[SRC]][%[[I]], %[[START]]]
// CHECK: %[[LINE:.*]] = arith.select %[[COMPUTED]], %{{.*}}, %[[RING]] : vector<16xi1>, vector<16xf32>
// CHECK: vector.store %[[LINE]], %[[DST]][%[[I]], %[[START]]] {alignment = 64 : i64, nontemporal = true}
// CHECK: } else {
// CHECK: vector.maskedstore %[[DST]][%[[I]], %c1]
// CHECK: }
// CHECK: scf.for %{{.*}} = %[[FROM]] to %[[TO]] step %[[C16]] {
// CHECK: vector.store %{{.*}}, %[[DST]]{{.*}} {alignment = 64 : i64, nontemporal = true}
// CHECK: }
// CHECK: %[[TAILEND:.*]] = arith.addi %[[TO]], %[[C16]] : index
// CHECK: %[[NEXTHEAD:.*]] = arith.andi %[[NEXTINTILE]], %{{.*}} : i1
// CHECK: vector.reduction <and>
// CHECK: scf.if %{{.*}} {
// CHECK-NEXT: %[[OWN:.*]] = arith.xori %[[NEXTHEAD]], %true : i1
// CHECK-NEXT: scf.if %[[OWN]] {
// CHECK: %[[TAILRING:.*]] = vector.load %[[SRC]][%[[I]], %[[TO]]]
// CHECK: %[[TAILLINE:.*]] = arith.select %{{.*}}, %{{.*}}, %[[TAILRING]]
// CHECK: vector.store %[[TAILLINE]], %[[DST]][%[[I]], %[[TO]]] {alignment = 64 : i64, nontemporal = true}
// CHECK: } else {
// CHECK: vector.maskedstore %[[DST]][%[[I]], %[[TO]]]
// CHECK: }
func.func @swap2d(%A: memref<6x64xf32>, %B: memref<6x64xf32>, %s: f32, %n: index) {
  %a = stencil.load %A : memref<6x64xf32> -> !f2
  %b = stencil.load %B : memref<6x64xf32> -> !f2
  %g = stencil.grid [1, 1] to [5, 63] : !stencil.grid<2>
  %r:2 = stencil.iterate %n iter_args(%x = %a, %y = %b) : !f2, !f2
      attributes {schedule = #stencil.schedule<wg = [2, 62], streaming_stores = true>} {
    %c = stencil.apply on %g ins(%u = %x : !f2, %k = %s : f32) outs(%y : !f2) {
      %w = stencil.access %u[0, -1] : !f2
      %e = stencil.access %u[0, 1] : !f2
      %t = arith.addf %w, %e : f32
      %v = arith.mulf %t, %k : f32
      stencil.return %v : f32
    }
    %d = stencil.apply on %g ins(%p = %c : !f2) outs(%x : !f2) {
      %q = stencil.access %p[0, 0] : !f2
      stencil.return %q : f32
    }
    stencil.yield %d, %c : !f2, !f2
  }
  stencil.store %r#0 to %A : !f2 to memref<6x64xf32>
  stencil.store %r#1 to %B : !f2 to memref<6x64xf32>
  return
}

// -----

!f2 = !stencil.field<6x64xf32>

// Tiles that split the rows: a lane is computed only inside the tile's
// columns [J, JEND); the cells beyond them belong to the next tile, and
// lines that hold them keep the masked stores.
// CHECK-LABEL: func.func @swap2d_split(
// CHECK: scf.parallel (%{{.*}}, %[[J:[^)]*]]) =
// CHECK: %[[JEND:.*]] = arith.minsi %{{.*}}, %c63 : index
// CHECK: %[[JV:.*]] = vector.broadcast %[[J]] : index to vector<16xindex>
// CHECK: %[[JENDV:.*]] = vector.broadcast %[[JEND]] : index to vector<16xindex>
// CHECK: arith.cmpi sge, %[[COLUMN:.*]], %[[JV]] : vector<16xindex>
// CHECK: arith.cmpi slt, %[[COLUMN]], %[[JENDV]] : vector<16xindex>
// CHECK: vector.reduction <and>
// CHECK: scf.if
func.func @swap2d_split(%A: memref<6x64xf32>, %B: memref<6x64xf32>, %s: f32, %n: index) {
  %a = stencil.load %A : memref<6x64xf32> -> !f2
  %b = stencil.load %B : memref<6x64xf32> -> !f2
  %g = stencil.grid [1, 1] to [5, 63] : !stencil.grid<2>
  %r:2 = stencil.iterate %n iter_args(%x = %a, %y = %b) : !f2, !f2
      attributes {schedule = #stencil.schedule<wg = [2, 20], streaming_stores = true>} {
    %c = stencil.apply on %g ins(%u = %x : !f2, %k = %s : f32) outs(%y : !f2) {
      %w = stencil.access %u[0, -1] : !f2
      %e = stencil.access %u[0, 1] : !f2
      %t = arith.addf %w, %e : f32
      %v = arith.mulf %t, %k : f32
      stencil.return %v : f32
    }
    %d = stencil.apply on %g ins(%p = %c : !f2) outs(%x : !f2) {
      %q = stencil.access %p[0, 0] : !f2
      stencil.return %q : f32
    }
    stencil.yield %d, %c : !f2, !f2
  }
  stencil.store %r#0 to %A : !f2 to memref<6x64xf32>
  stencil.store %r#1 to %B : !f2 to memref<6x64xf32>
  return
}

// -----

!f1 = !stencil.field<200xf64>

// Doubles: lines of 8; 1-D rows are whole tiles. Integer division in the
// body would trap in masked-off lanes, so the partial lines are scalar
// points there.
// CHECK-LABEL: func.func @sweep1d_f64(
// CHECK-SAME: %[[A:[^:]*]]: memref<200xf64>, %[[B:[^:]*]]: memref<200xf64>)
// CHECK: scf.parallel
// CHECK: memref.extract_aligned_pointer_as_index %[[B]]
// CHECK: scf.for %[[H:.*]] = {{.*}} {
// CHECK: arith.divsi %{{.*}} : i64
// CHECK: memref.store %{{.*}}, %[[B]][%[[H]]] : memref<200xf64>
// CHECK: scf.for %[[K:.*]] = {{.*}} step %c8 {
// CHECK: arith.divsi %{{.*}} : vector<8xi64>
// CHECK: vector.store %{{.*}}, %[[B]][%[[K]]] {alignment = 64 : i64, nontemporal = true} : memref<200xf64>, vector<8xf64>
// CHECK: scf.for %[[T:.*]] = {{.*}} {
// CHECK: memref.store %{{.*}}, %[[B]][%[[T]]] : memref<200xf64>
// CHECK-NOT: vector.maskedstore
// CHECK: memref.atomic_rmw
func.func @sweep1d_f64(%A: memref<200xf64>, %B: memref<200xf64>) {
  %a = stencil.load %A : memref<200xf64> -> !f1
  %b = stencil.load %B : memref<200xf64> -> !f1
  %g = stencil.grid [1] to [199] : !stencil.grid<1>
  %r = stencil.apply on %g ins(%x = %a : !f1) outs(%b : !f1)
      attributes {schedule = #stencil.schedule<wg = [64], streaming_stores = true>} {
    %l = stencil.access %x[-1] : !f1
    %h = stencil.access %x[1] : !f1
    %li = arith.fptosi %l : f64 to i64
    %c3 = arith.constant 3 : i64
    %q = arith.divsi %li, %c3 : i64
    %qf = arith.sitofp %q : i64 to f64
    %v = arith.addf %qf, %h : f64
    stencil.return %v : f64
  }
  stencil.store %r to %B : !f1 to memref<200xf64>
  return
}

// -----

!f1 = !stencil.field<64xf32>

// A body op that is not element-wise keeps the scalar rows, with a warning
// that names it.
// CHECK-LABEL: func.func @not_elementwise(
// CHECK-NOT: vector.
// CHECK-NOT: nontemporal
// CHECK: return
func.func @not_elementwise(%A: memref<64xf32>, %B: memref<64xf32>) {
  %a = stencil.load %A : memref<64xf32> -> !f1
  %b = stencil.load %B : memref<64xf32> -> !f1
  %g = stencil.grid [1] to [63] : !stencil.grid<1>
  // expected-warning @+1 {{streaming_stores ignored: 'scf.execute_region' in its body is not an element-wise op on scalars}}
  %r = stencil.apply on %g ins(%x = %a : !f1) outs(%b : !f1)
      attributes {schedule = #stencil.schedule<wg = [32], streaming_stores = true>} {
    %l = stencil.access %x[-1] : !f1
    %v = scf.execute_region -> f32 {
      %d = arith.addf %l, %l : f32
      scf.yield %d : f32
    }
    stencil.return %v : f32
  }
  stencil.store %r to %B : !f1 to memref<64xf32>
  return
}

// -----

!s1 = !stencil.field<64xf32>

// A source that is not contiguous along its rows cannot be read a vector
// at a time.
// CHECK-LABEL: func.func @strided(
// CHECK-NOT: vector.
// CHECK: return
func.func @strided(%A: memref<64xf32, strided<[2]>>, %B: memref<64xf32>) {
  %a = stencil.load %A : memref<64xf32, strided<[2]>> -> !s1
  %b = stencil.load %B : memref<64xf32> -> !s1
  %g = stencil.grid [1] to [63] : !stencil.grid<1>
  // expected-warning @+1 {{streaming_stores ignored: an input buffer is not a contiguous memref of 1-, 2-, 4- or 8-byte scalars}}
  %r = stencil.apply on %g ins(%x = %a : !s1) outs(%b : !s1)
      attributes {schedule = #stencil.schedule<wg = [32], streaming_stores = true>} {
    %l = stencil.access %x[-1] : !s1
    stencil.return %l : f32
  }
  stencil.store %r to %B : !s1 to memref<64xf32>
  return
}

// -----

!s1 = !stencil.field<64xf32>

// Nor can a destination that is not contiguous be written one.
// CHECK-LABEL: func.func @strided_output(
// CHECK-NOT: vector.
// CHECK: return
func.func @strided_output(%A: memref<64xf32>, %B: memref<64xf32, strided<[2]>>) {
  %a = stencil.load %A : memref<64xf32> -> !s1
  %b = stencil.load %B : memref<64xf32, strided<[2]>> -> !s1
  %g = stencil.grid [1] to [63] : !stencil.grid<1>
  // expected-warning @+1 {{streaming_stores ignored: an output buffer is not a contiguous memref of 1-, 2-, 4- or 8-byte scalars}}
  %r = stencil.apply on %g ins(%x = %a : !s1) outs(%b : !s1)
      attributes {schedule = #stencil.schedule<wg = [32], streaming_stores = true>} {
    %l = stencil.access %x[-1] : !s1
    stencil.return %l : f32
  }
  stencil.store %r to %B : !s1 to memref<64xf32, strided<[2]>>
  return
}
