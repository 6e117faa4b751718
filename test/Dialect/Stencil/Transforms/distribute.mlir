// RUN: stencil-opt %s --split-input-file --stencil-distribute --canonicalize -verify-diagnostics | FileCheck %s

// A 2-D loop split along its outer axis: the region begins with the global
// extents, the distribution mask, the halo and the computed box; each array
// gets a local buffer (block + halo rows) filled by a scatter; the grid is
// clipped to the block and shifted by the local offset; each store is
// followed by a gather; the buffers are freed and the region ends before
// the return. The exchange depth 2 deepens the exchange to 2 x radius 1.
!F = !stencil.field<64x32xf32, #stencil.decomp<block, *>>
// CHECK-LABEL: func.func @heat(
// CHECK-SAME: %[[A:.*]]: memref<64x32xf32>, %[[B:.*]]: memref<64x32xf32>, %{{.*}}: index) attributes {stencil.mpi}
// CHECK: call @stencil_mpi_begin(%c2_i64, %c64_i64, %c32_i64, %c1_i64, %c1_i64, %c2_i64, %c0_i64, %c0_i64, %c1_i64, %c1_i64, %c0_i64, %c63_i64, %c31_i64, %c1_i64)
// CHECK: %[[LO:.*]] = call @stencil_mpi_block_lower(%c0_i64)
// CHECK: %[[LOI:.*]] = arith.index_cast %[[LO]]
// CHECK: %[[HI:.*]] = call @stencil_mpi_block_upper(%c0_i64)
// CHECK: %[[HII:.*]] = arith.index_cast %[[HI]]
// CHECK: %[[OFF:.*]] = call @stencil_mpi_local_offset(%c0_i64)
// CHECK: %[[OFFI:.*]] = arith.index_cast %[[OFF]]
// CHECK: %[[EXT:.*]] = call @stencil_mpi_local_extent(%c0_i64, %c64_i64)
// CHECK: %[[EXTI:.*]] = arith.index_cast %[[EXT]]
// CHECK: %[[LA:.*]] = memref.alloc(%[[EXTI]]) : memref<?x32xf32>
// CHECK: call @stencil_mpi_scatter(%{{.*}}, %{{.*}}, %c4_i64, %c64_i64, %c32_i64, %c1_i64, %[[EXT]], %c32_i64, %c1_i64)
// CHECK: %[[LB:.*]] = memref.alloc
// CHECK: call @stencil_mpi_scatter
// CHECK: stencil.load %[[LA]] : memref<?x32xf32> -> !stencil.field<?x32xf32, #stencil.decomp<block, *>>
// CHECK: stencil.load %[[LB]]
// CHECK-DAG: %[[GLO:.*]] = arith.maxsi %[[LOI]], %c1
// CHECK-DAG: %[[GHI0:.*]] = arith.minsi %[[HII]], %c63
// CHECK: %[[GHI:.*]] = arith.maxsi %[[GHI0]], %[[GLO]]
// CHECK: %[[L:.*]] = arith.subi %[[GLO]], %[[OFFI]]
// CHECK: %[[U:.*]] = arith.subi %[[GHI]], %[[OFFI]]
// CHECK: %[[G:.*]] = stencil.grid [%[[L]], 1] to [%[[U]], 31]
// CHECK: stencil.iterate
// CHECK: stencil.exchange %{{.*}} widths [2, 0] : !stencil.field<?x32xf32, #stencil.decomp<block, *>>
// CHECK: stencil.apply on %[[G]]
// CHECK: stencil.store %{{.*}} to %[[LA]]
// CHECK-NEXT: %[[GA:.*]] = memref.extract_aligned_pointer_as_index %[[A]]
// CHECK: call @stencil_mpi_gather
// CHECK: stencil.store %{{.*}} to %[[LB]]
// CHECK: call @stencil_mpi_gather
// CHECK: memref.dealloc %[[LA]]
// CHECK: memref.dealloc %[[LB]]
// CHECK: call @stencil_mpi_end()
// CHECK-NEXT: return
func.func @heat(%a: memref<64x32xf32>, %b: memref<64x32xf32>, %steps: index) {
  %fa = stencil.load %a : memref<64x32xf32> -> !F
  %fb = stencil.load %b : memref<64x32xf32> -> !F
  %g = stencil.grid [1, 1] to [63, 31] : !stencil.grid<2>
  %r:2 = stencil.iterate %steps iter_args(%x = %fa, %y = %fb) : !F, !F attributes {schedule = #stencil.schedule<wg = [8, 30], time_block = 1, exchange_depth = 2>} {
    %xe = stencil.exchange %x widths [1, 0] : !F
    %n = stencil.apply on %g ins(%p = %xe : !F) outs(%y : !F) {
      %u = stencil.access %p[-1, 0] : !F
      %d = stencil.access %p[1, 0] : !F
      %s = arith.addf %u, %d : f32
      stencil.return %s : f32
    }
    %c = stencil.apply on %g ins(%q = %n : !F) outs(%x : !F) {
      %v = stencil.access %q[0, 0] : !F
      stencil.return %v : f32
    }
    stencil.yield %c, %n : !F, !F
  }
  stencil.store %r#0 to %a : !F to memref<64x32xf32>
  stencil.store %r#1 to %b : !F to memref<64x32xf32>
  return
}

// -----

// Deep halo, exchange depth 3 over a radius of 1 along the distributed
// axis 1: the exchanged field gets width 3 along it (0 along the whole axis
// 0), and a carried field read only at the centre (%s) gets an exchange
// too, since the redundant ring reads it. A field read before the loop
// is widened as well.
!G = !stencil.field<16x40xf64, #stencil.decomp<*, block>>
// CHECK-LABEL: func.func @deep(
// CHECK: call @stencil_mpi_begin(%c2_i64, %c16_i64, %c40_i64, %c1_i64, %c2_i64, %c0_i64, %c3_i64, %c0_i64,
// CHECK: %[[KX:.*]] = stencil.exchange %{{.*}} widths [0, 3]
// CHECK: stencil.iterate {{.*}} iter_args(%[[P:.*]] = %{{.*}}, %[[S:.*]] = %{{.*}}, %[[Q:.*]] = %{{.*}}, %[[D:.*]] = %{{.*}})
// CHECK-DAG: %[[SX:.*]] = stencil.exchange %[[S]] widths [0, 3]
// CHECK-DAG: %[[PX:.*]] = stencil.exchange %[[P]] widths [0, 3]
// CHECK: stencil.apply on %{{.*}} ins(%{{.*}} = %[[PX]] {{.*}}, %{{.*}} = %[[SX]] {{.*}}, %{{.*}} = %[[KX]] {{.*}})
func.func @deep(%p: memref<16x40xf64>, %s: memref<16x40xf64>, %k: memref<16x40xf64>,
                %q: memref<16x40xf64>, %d: memref<16x40xf64>, %steps: index) {
  %fp = stencil.load %p : memref<16x40xf64> -> !G
  %fs = stencil.load %s : memref<16x40xf64> -> !G
  %fk = stencil.load %k : memref<16x40xf64> -> !G
  %fq = stencil.load %q : memref<16x40xf64> -> !G
  %fd = stencil.load %d : memref<16x40xf64> -> !G
  %kx = stencil.exchange %fk widths [0, 1] : !G
  %g = stencil.grid [1, 1] to [15, 39] : !stencil.grid<2>
  %r:4 = stencil.iterate %steps iter_args(%a = %fp, %b = %fs, %c = %fq, %e = %fd) : !G, !G, !G, !G attributes {schedule = #stencil.schedule<wg = [4, 8], exchange_depth = 3>} {
    %ax = stencil.exchange %a widths [0, 1] : !G
    %n:2 = stencil.apply on %g ins(%x = %ax : !G, %y = %b : !G, %z = %kx : !G) outs(%c : !G, %e : !G) {
      %l = stencil.access %x[0, -1] : !G
      %m = stencil.access %y[0, 0] : !G
      %o = stencil.access %z[0, 1] : !G
      %t = arith.addf %l, %m : f64
      %u = arith.addf %t, %o : f64
      stencil.return %u, %m : f64, f64
    }
    %cp:2 = stencil.apply on %g ins(%x = %n#0 : !G, %y = %n#1 : !G) outs(%a : !G, %b : !G) {
      %v = stencil.access %x[0, 0] : !G
      %w = stencil.access %y[0, 0] : !G
      stencil.return %v, %w : f64, f64
    }
    stencil.yield %cp#0, %cp#1, %n#0, %n#1 : !G, !G, !G, !G
  }
  stencil.store %r#0 to %p : !G to memref<16x40xf64>
  stencil.store %r#1 to %s : !G to memref<16x40xf64>
  return
}

// -----

// Functions without distributed fields are left alone.
// CHECK-LABEL: func.func @serial(
// CHECK-NOT: stencil.mpi
// CHECK-NOT: call
// CHECK: stencil.load %arg0 : memref<8xf32>
func.func @serial(%a: memref<8xf32>) {
  %f = stencil.load %a : memref<8xf32> -> !stencil.field<8xf32>
  stencil.store %f to %a : !stencil.field<8xf32> to memref<8xf32>
  return
}

// -----

// One region distributes all its arrays alike.
func.func @mixed(%a: memref<8x8xf32>, %b: memref<8x8xf32>) {
  %fa = stencil.load %a : memref<8x8xf32> -> !stencil.field<8x8xf32, #stencil.decomp<block, *>>
  // expected-error @below {{'stencil.load' op field type '!stencil.field<8x8xf32, #stencil.decomp<*, block>>' does not have the decomposition #stencil.decomp<block, *> of the other fields of this function}}
  %fb = stencil.load %b : memref<8x8xf32> -> !stencil.field<8x8xf32, #stencil.decomp<*, block>>
  stencil.store %fa to %a : !stencil.field<8x8xf32, #stencil.decomp<block, *>> to memref<8x8xf32>
  return
}

// -----

// The region is the function's one block, from its first stencil op on.
!D = !stencil.field<8x8xf32, #stencil.decomp<block, *>>
// expected-error @below {{'func.func' op with distributed fields must have a single block}}
func.func @two_blocks(%a: memref<8x8xf32>) {
  %fa = stencil.load %a : memref<8x8xf32> -> !D
  cf.br ^end
^end:
  return
}

// -----

!D = !stencil.field<8x8xf32, #stencil.decomp<block, *>>
// expected-error @below {{has distributed fields but no stencil.load or stencil.store at its top level}}
func.func @nested_load(%a: memref<8x8xf32>, %f0: !D, %n: index) {
  %r = stencil.iterate %n iter_args(%x = %f0) : !D {
    %fa = stencil.load %a : memref<8x8xf32> -> !D
    stencil.yield %fa : !D
  }
  return
}

// -----

!D = !stencil.field<8x8xf32, #stencil.decomp<block, *>>
func.func @late_memref() {
  // expected-error @below {{starts a distributed region before the memref it loads or stores is defined}}
  %g = stencil.grid [1, 1] to [7, 7] : !stencil.grid<2>
  %a = memref.alloc() : memref<8x8xf32>
  %fa = stencil.load %a : memref<8x8xf32> -> !D
  stencil.store %fa to %a : !D to memref<8x8xf32>
  return
}

// -----

!D = !stencil.field<8x8xf32, #stencil.decomp<block, *>>
func.func @late_bound(%a: memref<8x8xf32>, %x: index, %y: index) {
  %fa = stencil.load %a : memref<8x8xf32> -> !D
  %hi = arith.addi %x, %y : index
  // expected-error @below {{has a bound defined after the distributed region starts; define it before the first stencil op}}
  %g = stencil.grid [1, 1] to [%hi, 7] : !stencil.grid<2>
  %r = stencil.apply on %g ins(%p = %fa : !D) outs(%fa : !D) {
    %v = stencil.access %p[0, 0] : !D
    stencil.return %v : f32
  }
  stencil.store %r to %a : !D to memref<8x8xf32>
  return
}

// -----

!D = !stencil.field<8x8xf32, #stencil.decomp<block, *>>
// expected-error @below {{has distributed fields but no stencil.grid}}
func.func @no_grid(%a: memref<8x8xf32>) {
  %fa = stencil.load %a : memref<8x8xf32> -> !D
  stencil.store %fa to %a : !D to memref<8x8xf32>
  return
}

// -----

// A coordinate along a distributed axis stays global: the local offset
// becomes an input of the apply and is added to the local index; the
// coordinate along the replicated axis is left alone.
!F = !stencil.field<64x32xf32, #stencil.decomp<block, *>>
// CHECK-LABEL: func.func @coordinates(
// The offset enters as an i64 (kernels take no `index` scalars).
// CHECK: %[[OFF:.*]] = call @stencil_mpi_local_offset(%c0_i64)
// CHECK: stencil.apply on %{{.*}} ins(%[[O:[^ ]*]] = %[[OFF]] : i64)
// CHECK-NEXT: %[[OI:.*]] = arith.index_cast %[[O]] : i64 to index
// CHECK-NEXT: %[[I:.*]] = stencil.index 0
// CHECK-NEXT: %[[GI:.*]] = arith.addi %[[I]], %[[OI]] : index
// CHECK-NEXT: %[[J:.*]] = stencil.index 1
// CHECK-NEXT: arith.addi %[[GI]], %[[J]] : index
func.func @coordinates(%a: memref<64x32xf32>) {
  %fa = stencil.load %a : memref<64x32xf32> -> !F
  %g = stencil.grid [1, 1] to [63, 31] : !stencil.grid<2>
  %r = stencil.apply on %g ins(%x = %fa : !F) outs(%fa : !F) {
    %i = stencil.index 0
    %j = stencil.index 1
    %s = arith.addi %i, %j : index
    %n = arith.index_cast %s : index to i32
    %v = arith.sitofp %n : i32 to f32
    stencil.return %v : f32
  }
  stencil.store %r to %a : !F to memref<64x32xf32>
  return
}

// -----

// A split across unequal devices (stencil-tune-split): before the region
// begins, each device's share of the outermost axis goes to the runtime,
// which sizes the ranks' blocks by it.
!F = !stencil.field<64x32xf32, #stencil.decomp<block, *>>
// CHECK-LABEL: func.func @split(
// CHECK: call @stencil_mpi_split(%c3_i64, %c0_i64, %c6_i64)
// CHECK-NEXT: call @stencil_mpi_split(%c3_i64, %c1_i64, %c20_i64)
// CHECK-NEXT: call @stencil_mpi_split(%c3_i64, %c2_i64, %c36_i64)
// CHECK: call @stencil_mpi_begin(
func.func @split(%a: memref<64x32xf32>, %b: memref<64x32xf32>, %steps: index) {
  %fa = stencil.load %a : memref<64x32xf32> -> !F
  %fb = stencil.load %b : memref<64x32xf32> -> !F
  %g = stencil.grid [1, 1] to [63, 31] : !stencil.grid<2>
  %r:2 = stencil.iterate %steps iter_args(%x = %fa, %y = %fb) : !F, !F attributes {stencil.device_split = array<i64: 6, 20, 36>} {
    %xe = stencil.exchange %x widths [1, 0] : !F
    %n = stencil.apply on %g ins(%p = %xe : !F) outs(%y : !F) {
      %u = stencil.access %p[-1, 0] : !F
      stencil.return %u : f32
    }
    %c = stencil.apply on %g ins(%q = %n : !F) outs(%x : !F) {
      %v = stencil.access %q[0, 0] : !F
      stencil.return %v : f32
    }
    stencil.yield %c, %n : !F, !F
  }
  stencil.store %r#0 to %a : !F to memref<64x32xf32>
  stencil.store %r#1 to %b : !F to memref<64x32xf32>
  return
}

// -----

// The split divides the outermost axis only.
!F = !stencil.field<64x32xf32, #stencil.decomp<block, block>>
func.func @split_two_axes(%a: memref<64x32xf32>, %b: memref<64x32xf32>, %steps: index) {
  %fa = stencil.load %a : memref<64x32xf32> -> !F
  %fb = stencil.load %b : memref<64x32xf32> -> !F
  %g = stencil.grid [1, 1] to [63, 31] : !stencil.grid<2>
  // expected-error @+1 {{has a device split (stencil.device_split), which divides the outermost axis among the devices; distribute that axis only, e.g. distribute(block, *)}}
  %r:2 = stencil.iterate %steps iter_args(%x = %fa, %y = %fb) : !F, !F attributes {stencil.device_split = array<i64: 6, 20>} {
    %n = stencil.apply on %g ins(%p = %x : !F) outs(%y : !F) {
      %u = stencil.access %p[0, 0] : !F
      stencil.return %u : f32
    }
    %c = stencil.apply on %g ins(%q = %n : !F) outs(%x : !F) {
      %v = stencil.access %q[0, 0] : !F
      stencil.return %v : f32
    }
    stencil.yield %c, %n : !F, !F
  }
  stencil.store %r#0 to %a : !F to memref<64x32xf32>
  stencil.store %r#1 to %b : !F to memref<64x32xf32>
  return
}

// -----

// Lower-rank fields are not distributed. One read along a distributed axis
// (cx along axis 0) becomes each rank's copy of its block plus the reads'
// reach (1) on both sides, read at offsets grown by that reach; one read
// along an undistributed axis (cy) stays the global array every rank holds.
// CHECK-LABEL: func.func @lower_rank
// CHECK-SAME: %[[CX:[a-z0-9]+]]: memref<16xf32>, %[[CY:[a-z0-9]+]]: memref<20xf32>
// CHECK: %[[SIZE:.*]] = arith.addi %{{.*}}, %c2 : index
// CHECK: %[[LOCAL:.*]] = memref.alloc(%[[SIZE]]) : memref<?xf32>
// CHECK: scf.for
// CHECK: memref.load %[[CX]]
// CHECK: memref.store %{{.*}}, %[[LOCAL]]
// CHECK: stencil.load %[[LOCAL]] : memref<?xf32> -> !stencil.field<?xf32>
// CHECK: stencil.load %[[CY]] : memref<20xf32> -> !stencil.field<20xf32>
// CHECK: stencil.access %{{.*}}[0] along [0] : !stencil.field<?xf32>
// CHECK: stencil.access %{{.*}}[2] along [0] : !stencil.field<?xf32>
// CHECK: stencil.access %{{.*}}[-1] along [1] : !stencil.field<20xf32>
// CHECK: memref.dealloc %[[LOCAL]]
!f = !stencil.field<16x20xf32, #stencil.decomp<block, *>>
func.func @lower_rank(%a: memref<16x20xf32>, %b: memref<16x20xf32>,
                      %cx: memref<16xf32>, %cy: memref<20xf32>) {
  %fa = stencil.load %a : memref<16x20xf32> -> !f
  %fb = stencil.load %b : memref<16x20xf32> -> !f
  %x = stencil.load %cx : memref<16xf32> -> !stencil.field<16xf32>
  %y = stencil.load %cy : memref<20xf32> -> !stencil.field<20xf32>
  %g = stencil.grid [1, 1] to [15, 19] : !stencil.grid<2>
  %r = stencil.apply on %g ins(%u = %fa : !f, %kx = %x : !stencil.field<16xf32>, %ky = %y : !stencil.field<20xf32>) outs(%fb : !f) {
    %c = stencil.access %u[0, 0] : !f
    %l = stencil.access %kx[-1] along [0] : !stencil.field<16xf32>
    %h = stencil.access %kx[1] along [0] : !stencil.field<16xf32>
    %w = stencil.access %ky[-1] along [1] : !stencil.field<20xf32>
    %s = arith.addf %l, %h : f32
    %m = arith.mulf %c, %s : f32
    %v = arith.addf %m, %w : f32
    stencil.return %v : f32
  }
  stencil.store %r to %b : !f to memref<16x20xf32>
  return
}

// -----

// One table read along the distributed axis and along the other (a
// separable filter's k[i] * k[j]): the rank's part for the first way, the
// whole array for the second, each its own input of the apply.
// CHECK-LABEL: func.func @separable
// CHECK-SAME: %{{[a-z0-9]+}}: memref<16x20xf32>, %{{[a-z0-9]+}}: memref<16x20xf32>, %[[K:[a-z0-9]+]]: memref<20xf32>
// CHECK: %[[SIZE:.*]] = arith.addi %{{.*}}, %c4 : index
// CHECK: %[[LOCAL:.*]] = memref.alloc(%[[SIZE]]) : memref<?xf32>
// CHECK: %[[WHOLE:.*]] = stencil.load %[[K]] : memref<20xf32> -> !stencil.field<20xf32>
// CHECK: %[[PART:.*]] = stencil.load %[[LOCAL]] : memref<?xf32> -> !stencil.field<?xf32>
// CHECK: stencil.apply on %{{.*}} ins(%{{.*}} = %{{.*}} : {{.*}}, %[[KW:.*]] = %[[WHOLE]] : !stencil.field<20xf32>, %[[KP:.*]] = %[[PART]] : !stencil.field<?xf32>)
// CHECK: stencil.access %[[KP]][0] along [0] : !stencil.field<?xf32>
// CHECK: stencil.access %[[KP]][4] along [0] : !stencil.field<?xf32>
// CHECK: stencil.access %[[KW]][-1] along [1] : !stencil.field<20xf32>
// CHECK: memref.dealloc %[[LOCAL]]
!f = !stencil.field<16x20xf32, #stencil.decomp<block, *>>
func.func @separable(%a: memref<16x20xf32>, %b: memref<16x20xf32>,
                     %k: memref<20xf32>) {
  %fa = stencil.load %a : memref<16x20xf32> -> !f
  %fb = stencil.load %b : memref<16x20xf32> -> !f
  %fk = stencil.load %k : memref<20xf32> -> !stencil.field<20xf32>
  %g = stencil.grid [2, 1] to [14, 19] : !stencil.grid<2>
  %r = stencil.apply on %g ins(%u = %fa : !f, %kk = %fk : !stencil.field<20xf32>) outs(%fb : !f) {
    %c = stencil.access %u[0, 0] : !f
    %l = stencil.access %kk[-2] along [0] : !stencil.field<20xf32>
    %h = stencil.access %kk[2] along [0] : !stencil.field<20xf32>
    %w = stencil.access %kk[-1] along [1] : !stencil.field<20xf32>
    %s = arith.addf %l, %h : f32
    %m = arith.mulf %c, %s : f32
    %v = arith.addf %m, %w : f32
    stencil.return %v : f32
  }
  stencil.store %r to %b : !f to memref<16x20xf32>
  return
}
