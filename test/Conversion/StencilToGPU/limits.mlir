// RUN: stencil-opt %s --split-input-file --verify-diagnostics --stencil-attach-target=targets=h100 --convert-stencil-to-gpu=workgroup-memory-limit=1024

// A schedule the device cannot run is rejected before any code is made:
// 64 x 32 work items exceed the H100's 1024. Shapes print as the IR writes
// them, outermost axis first.
func.func @too_many_items(%in: memref<64x64xf32>) {
  %a = stencil.load %in : memref<64x64xf32> -> !stencil.field<64x64xf32>
  %g = stencil.grid [0, 0] to [64, 64] : !stencil.grid<2>
  // expected-error @+1 {{work group [32, 64] has 2048 work items, above the maximum of 1024 (max_work_group_size) of device 'h100'}}
  %r = stencil.apply on %g ins(%x = %a : !stencil.field<64x64xf32>) outs(%a : !stencil.field<64x64xf32>) attributes {schedule = #stencil.schedule<wg = [32, 64]>} {
    %v = stencil.access %x[0, 0] : !stencil.field<64x64xf32>
    stencil.return %v : f32
  }
  return
}

// -----

// time_block 2 on tiles of 4 x 16 keeps two copies of (4 + 4) x (16 + 4)
// floats in workgroup memory: 1280 bytes, above the limit of 1024.
func.func @too_much_workgroup_memory(%a: memref<64x64xf32>, %b: memref<64x64xf32>, %steps: index) {
  %0 = stencil.load %a : memref<64x64xf32> -> !stencil.field<64x64xf32>
  %1 = stencil.load %b : memref<64x64xf32> -> !stencil.field<64x64xf32>
  %g = stencil.grid [1, 1] to [63, 63] : !stencil.grid<2>
  // expected-error @+1 {{time_block 2 with tile [4, 16] needs 1280 bytes of workgroup memory, above the device limit of 1024 bytes; use a smaller tile or time_block}}
  %r:2 = stencil.iterate %steps iter_args(%src = %0, %dst = %1) : !stencil.field<64x64xf32>, !stencil.field<64x64xf32> attributes {schedule = #stencil.schedule<wg = [4, 16], time_block = 2>} {
    %n = stencil.apply on %g ins(%x = %src : !stencil.field<64x64xf32>) outs(%dst : !stencil.field<64x64xf32>) {
      %w = stencil.access %x[0, -1] : !stencil.field<64x64xf32>
      %e = stencil.access %x[1, 1] : !stencil.field<64x64xf32>
      %n = stencil.access %x[-1, 0] : !stencil.field<64x64xf32>
      %s0 = arith.addf %w, %e : f32
      %s = arith.addf %s0, %n : f32
      stencil.return %s : f32
    }
    %c = stencil.apply on %g ins(%y = %n : !stencil.field<64x64xf32>) outs(%src : !stencil.field<64x64xf32>) {
      %v = stencil.access %y[0, 0] : !stencil.field<64x64xf32>
      stencil.return %v : f32
    }
    stencil.yield %c, %n : !stencil.field<64x64xf32>, !stencil.field<64x64xf32>
  }
  stencil.store %r#0 to %a : !stencil.field<64x64xf32> to memref<64x64xf32>
  return
}
