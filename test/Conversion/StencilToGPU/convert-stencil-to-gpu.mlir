// RUN: stencil-opt %s --split-input-file --convert-stencil-to-gpu --canonicalize | FileCheck %s

// One apply on a 2-D grid that the work group does not divide: work groups
// of [4, 16] (outermost first: y = 4, x = 16), ceil(62 / 16) = 4 groups
// along x and ceil(62 / 4) = 16 along y, a guard for the partial groups,
// and host <-> device copies only at entry and exit. The scalar reaches
// the kernel through a one-element device buffer, made on entry and filled
// where the scalar is defined.

// CHECK-LABEL: func.func @scale
// CHECK-SAME: (%[[IN:[a-z0-9_]+]]: memref<64x64xf32>, %[[OUT:[a-z0-9_]+]]: memref<64x64xf32>, %[[C:[a-z0-9_]+]]: f32)
// CHECK: %[[HOSTC:[a-z0-9_]+]] = memref.alloca() : memref<1xf32>
// CHECK: %[[DEVC:[a-z0-9_]+]] = gpu.alloc () : memref<1xf32>
// CHECK: memref.store %[[C]], %[[HOSTC]]
// CHECK: gpu.memcpy %[[DEVC]], %[[HOSTC]]
// CHECK: %[[DIN:[a-z0-9_]+]] = gpu.alloc () : memref<64x64xf32>
// CHECK: gpu.memcpy %[[DIN]], %[[IN]]
// CHECK: %[[DOUT:[a-z0-9_]+]] = gpu.alloc () : memref<64x64xf32>
// CHECK: gpu.memcpy %[[DOUT]], %[[OUT]]
// CHECK: gpu.launch blocks(%[[BX:[a-z0-9_]+]], %[[BY:[a-z0-9_]+]], %{{.*}}) in (%{{.*}} = %c4{{.*}}, %{{.*}} = %c16{{.*}}, %{{.*}} = %c1{{.*}}) threads(%[[TX:[a-z0-9_]+]], %[[TY:[a-z0-9_]+]], %{{.*}}) in (%{{.*}} = %c16{{.*}}, %{{.*}} = %c4{{.*}}, %{{.*}} = %c1
// CHECK: %[[Y0:[a-z0-9_]+]] = arith.muli %[[BY]], %c4
// CHECK: %[[Y1:[a-z0-9_]+]] = arith.addi %[[Y0]], %[[TY]]
// CHECK: %[[Y:[a-z0-9_]+]] = arith.addi %[[Y1]], %c1
// CHECK: %[[INY:[a-z0-9_]+]] = arith.cmpi slt, %[[Y]], %c63
// CHECK: %[[X0:[a-z0-9_]+]] = arith.muli %[[BX]], %c16
// CHECK: %[[XM1:[a-z0-9_]+]] = arith.addi %[[X0]], %[[TX]]
// CHECK: %[[X:[a-z0-9_]+]] = arith.addi %[[XM1]], %c1
// CHECK: %[[INX:[a-z0-9_]+]] = arith.cmpi slt, %[[X]], %c63
// CHECK: %[[IN2:[a-z0-9_]+]] = arith.andi %[[INY]], %[[INX]]
// CHECK: scf.if %[[IN2]] {
// CHECK:   %[[S:[a-z0-9_]+]] = memref.load %[[DEVC]][%c0]
// The access at x - 1 reads column bx * 16 + tx.
// CHECK:   %[[V:[a-z0-9_]+]] = memref.load %[[DIN]][%[[Y]], %[[XM1]]]
// CHECK:   %[[P:[a-z0-9_]+]] = arith.mulf %[[V]], %[[S]]
// CHECK:   memref.store %[[P]], %[[DOUT]][%[[Y]], %[[X]]]
// CHECK: gpu.terminator
// CHECK: gpu.memcpy %[[OUT]], %[[DOUT]]
// CHECK-DAG: gpu.dealloc %[[DEVC]] :
// CHECK-DAG: gpu.dealloc %[[DIN]] :
// CHECK-DAG: gpu.dealloc %[[DOUT]] :
// CHECK: return
func.func @scale(%in: memref<64x64xf32>, %out: memref<64x64xf32>, %c: f32) {
  %a = stencil.load %in : memref<64x64xf32> -> !stencil.field<64x64xf32>
  %b = stencil.load %out : memref<64x64xf32> -> !stencil.field<64x64xf32>
  %g = stencil.grid [1, 1] to [63, 63] : !stencil.grid<2>
  %r = stencil.apply on %g ins(%x = %a : !stencil.field<64x64xf32>, %s = %c : f32) outs(%b : !stencil.field<64x64xf32>) attributes {schedule = #stencil.schedule<wg = [4, 16]>} {
    %v = stencil.access %x[0, -1] : !stencil.field<64x64xf32>
    %p = arith.mulf %v, %s : f32
    stencil.return %p : f32
  }
  stencil.store %r to %out : !stencil.field<64x64xf32> to memref<64x64xf32>
  return
}

// -----

// A copy-form time loop with time_block 2: the host loop runs whole blocks
// of 2 steps as one kernel per block, with the tile (= wg, 4 x 16) plus a
// halo of 2 x radius 1 per side in workgroup memory (8 x 20), two copies,
// a barrier after loading and after each step; the remaining odd step is a
// one-step kernel. The buffers swap on the host.

// CHECK-LABEL: func.func @heat
// CHECK: scf.for %{{.*}} iter_args(%[[SRC:[a-z0-9_]+]] = %{{.*}}, %[[DST:[a-z0-9_]+]] = %{{.*}}) -> (memref<64x64xf32>, memref<64x64xf32>)
// CHECK: gpu.launch
// CHECK-SAME: workgroup(%[[W0:[a-z0-9_]+]] : memref<8x20xf32, #gpu.address_space<workgroup>>, %[[W1:[a-z0-9_]+]] : memref<8x20xf32, #gpu.address_space<workgroup>>)
// CHECK: scf.for
// CHECK: memref.load %[[SRC]]
// CHECK-DAG: memref.store %{{.*}}, %[[W0]]
// CHECK-DAG: memref.store %{{.*}}, %[[W1]]
// CHECK: gpu.barrier
// CHECK: memref.load %[[W1]]
// CHECK: memref.store %{{.*}}, %[[W0]]
// CHECK: gpu.barrier
// CHECK: memref.load %[[W0]]
// CHECK: memref.store %{{.*}}, %[[W1]]
// CHECK: gpu.barrier
// CHECK: memref.load %[[W1]]
// CHECK: memref.store %{{.*}}, %[[DST]]
// CHECK: gpu.terminator
// CHECK: scf.yield %[[DST]], %[[SRC]]
// CHECK: scf.for
// CHECK: gpu.launch
// CHECK-NOT: workgroup
// CHECK: gpu.terminator
func.func @heat(%a: memref<64x64xf32>, %b: memref<64x64xf32>, %steps: index) {
  %0 = stencil.load %a : memref<64x64xf32> -> !stencil.field<64x64xf32>
  %1 = stencil.load %b : memref<64x64xf32> -> !stencil.field<64x64xf32>
  %g = stencil.grid [1, 1] to [63, 63] : !stencil.grid<2>
  %r:2 = stencil.iterate %steps iter_args(%src = %0, %dst = %1) : !stencil.field<64x64xf32>, !stencil.field<64x64xf32> attributes {schedule = #stencil.schedule<wg = [4, 16], time_block = 2>} {
    %n = stencil.apply on %g ins(%x = %src : !stencil.field<64x64xf32>) outs(%dst : !stencil.field<64x64xf32>) {
      %c = stencil.access %x[0, 0] : !stencil.field<64x64xf32>
      %w = stencil.access %x[0, -1] : !stencil.field<64x64xf32>
      %e = stencil.access %x[0, 1] : !stencil.field<64x64xf32>
      %s = stencil.access %x[-1, 0] : !stencil.field<64x64xf32>
      %t = stencil.access %x[1, 0] : !stencil.field<64x64xf32>
      %s1 = arith.addf %c, %w : f32
      %s2 = arith.addf %s1, %e : f32
      %s3 = arith.addf %s2, %s : f32
      %s4 = arith.addf %s3, %t : f32
      stencil.return %s4 : f32
    }
    %c = stencil.apply on %g ins(%y = %n : !stencil.field<64x64xf32>) outs(%src : !stencil.field<64x64xf32>) {
      %v = stencil.access %y[0, 0] : !stencil.field<64x64xf32>
      stencil.return %v : f32
    }
    stencil.yield %c, %n : !stencil.field<64x64xf32>, !stencil.field<64x64xf32>
  }
  stencil.store %r#0 to %a : !stencil.field<64x64xf32> to memref<64x64xf32>
  stencil.store %r#1 to %b : !stencil.field<64x64xf32> to memref<64x64xf32>
  return
}

// -----

// A grid bound known at run time only: the host computes the number of
// work groups and launches none for an empty grid; kernels take buffers
// only, so the bound reaches them as an i32 in a one-element device buffer,
// against which every item checks its point.
// CHECK-LABEL: func.func @dynamic_grid(
// CHECK-SAME: %[[N:[^:]*]]: index)
// CHECK: %[[HOST:.*]] = memref.alloca() : memref<1xi32>
// CHECK: %[[BOUND:.*]] = gpu.alloc () : memref<1xi32>
// CHECK: %[[N32:.*]] = arith.index_cast %[[N]] : index to i32
// CHECK: memref.store %[[N32]], %[[HOST]][%c0]
// CHECK: gpu.memcpy %[[BOUND]], %[[HOST]]
// CHECK: %[[EXTENT:.*]] = arith.subi %[[N]], %c1 : index
// CHECK: %[[POSITIVE:.*]] = arith.maxsi %[[EXTENT]], %c0 : index
// CHECK: %[[GROUPS:.*]] = arith.ceildivsi %[[POSITIVE]], %c16 : index
// CHECK: %[[ANY:.*]] = arith.cmpi sgt, %[[GROUPS]], %c0 : index
// CHECK: scf.if %[[ANY]] {
// CHECK: gpu.launch blocks({{.*}}) in (%{{.*}} = %[[GROUPS]], %{{.*}} = %c1, %{{.*}} = %c1)
// CHECK: %[[POINT:.*]] = arith.addi %{{.*}}, %c1 : index
// CHECK: %[[END32:.*]] = memref.load %[[BOUND]][%c0] : memref<1xi32>
// CHECK: %[[END:.*]] = arith.index_cast %[[END32]] : i32 to index
// CHECK: %[[IN:.*]] = arith.cmpi slt, %[[POINT]], %[[END]] : index
// CHECK: scf.if %[[IN]] {
// CHECK: gpu.dealloc %[[BOUND]]
func.func @dynamic_grid(%in: memref<64xf32>, %out: memref<64xf32>, %n: index) {
  %a = stencil.load %in : memref<64xf32> -> !stencil.field<64xf32>
  %b = stencil.load %out : memref<64xf32> -> !stencil.field<64xf32>
  %g = stencil.grid [1] to [%n] : !stencil.grid<1>
  %r = stencil.apply on %g ins(%x = %a : !stencil.field<64xf32>) outs(%b : !stencil.field<64xf32>) attributes {schedule = #stencil.schedule<wg = [16]>} {
    %v = stencil.access %x[-1] : !stencil.field<64xf32>
    stencil.return %v : f32
  }
  stencil.store %r to %out : !stencil.field<64xf32> to memref<64xf32>
  return
}

// -----

// A sweep chain (B from A, then A from B) in blocks of 2 steps: one kernel
// per block runs its 4 levels in workgroup memory, one buffer per sweep.
// Each starts as the field its sweep writes (B's copy, the block's A), so
// that each level reads the right boundary; the second sweep's buffer
// holds the latest level. The last level goes to a spare buffer, which the
// host swaps with A; the last step runs alone.
// CHECK-LABEL: func.func @chain(
// CHECK-SAME: %[[A:[^:]*]]: memref<18x20xf32>, %[[B:[^:]*]]: memref<18x20xf32>
// CHECK: gpu.memcpy %[[BDEV:[^,]*]], %[[B]]
// CHECK: %[[SPARE:.*]] = gpu.alloc () : memref<18x20xf32>
// CHECK: scf.for %{{.*}} iter_args(%[[X:.*]] = %{{.*}}, %[[Z:.*]] = %[[SPARE]])
// CHECK: gpu.launch
// CHECK-SAME: workgroup(%[[W0:[a-z0-9_]+]] : memref<12x16xf32, #gpu.address_space<workgroup>>, %[[W1:[a-z0-9_]+]] : memref<12x16xf32, #gpu.address_space<workgroup>>)
// CHECK: memref.load %[[BDEV]]
// CHECK: memref.store %{{.*}}, %[[W0]]
// CHECK: memref.load %[[X]]
// CHECK: memref.store %{{.*}}, %[[W1]]
// CHECK: gpu.barrier
// CHECK: memref.load %[[W1]]
// CHECK: memref.store %{{.*}}, %[[W0]]
// CHECK: gpu.barrier
// CHECK: memref.load %[[W0]]
// CHECK: memref.store %{{.*}}, %[[W1]]
// CHECK: gpu.barrier
// CHECK: memref.load %[[W1]]
// CHECK: memref.store %{{.*}}, %[[W0]]
// CHECK: gpu.barrier
// CHECK: memref.load %[[W0]]
// CHECK: memref.store %{{.*}}, %[[W1]]
// CHECK: gpu.barrier
// CHECK: memref.load %[[W1]]
// CHECK: memref.store %{{.*}}, %[[Z]]
// CHECK: gpu.terminator
// CHECK: scf.yield %[[Z]], %[[X]]
!f = !stencil.field<18x20xf32>
func.func @chain(%A: memref<18x20xf32>, %B: memref<18x20xf32>, %n: index) {
  %a = stencil.load %A : memref<18x20xf32> -> !f
  %b = stencil.load %B : memref<18x20xf32> -> !f
  %g = stencil.grid [1, 1] to [17, 19] : !stencil.grid<2>
  %r:2 = stencil.iterate %n iter_args(%ak = %a, %bk = %b) : !f, !f
      attributes {schedule = #stencil.schedule<wg = [4, 8], time_block = 2>} {
    %ab = stencil.apply on %g ins(%x = %ak : !f) outs(%bk : !f) {
      %n0 = stencil.access %x[-1, 0] : !f
      %e0 = stencil.access %x[0, 1] : !f
      %v = arith.addf %n0, %e0 : f32
      stencil.return %v : f32
    }
    %ba = stencil.apply on %g ins(%y = %ab : !f) outs(%ak : !f) {
      %s0 = stencil.access %y[1, 0] : !f
      %w0 = stencil.access %y[0, -1] : !f
      %v = arith.mulf %s0, %w0 : f32
      stencil.return %v : f32
    }
    stencil.yield %ba, %ab : !f, !f
  }
  stencil.store %r#0 to %A : !f to memref<18x20xf32>
  stencil.store %r#1 to %B : !f to memref<18x20xf32>
  return
}
