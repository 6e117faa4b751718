// Legality of stencil-tune-workgroup on devices stated inline: whatever the
// rules, a schedule never exceeds the grid, the device's work-group maximum
// or its on-chip memory.
// RUN: stencil-opt %s --stencil-tune-workgroup --split-input-file -verify-diagnostics | FileCheck %s

// A tiny grid: 36 points cannot make the 8192 work groups the device
// wants, so no axis may grow (a warp-wide x would not even fit the 6
// points), and one step per sweep beats time blocking.
// CHECK-LABEL: func.func @tiny
// CHECK: schedule = #stencil.schedule<wg = [1, 1]>
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"stencil.device0" = #dlti.target_device_spec<
    "name" = "toy-gpu", "description" = "", "kind" = "gpu",
    "peak_gflops_f32" = 1000.0 : f64, "peak_gflops_f64" = 500.0 : f64, "bandwidth_gbps" = 100.0 : f64,
    "network_latency_us" = 1.0 : f64, "network_bandwidth_gbps" = 10.0 : f64, "launch_overhead_us" = 5.0 : f64,
    "onchip_bytes" = 49152 : i64, "l2_bytes" = 1048576 : i64, "min_work_groups" = 8192 : i64,
    "max_work_group_size" = 1024 : i64, "simd_width" = 32 : i64, "compute_units" = 8 : i64, "lanes_per_unit" = 32 : i64>>} {
  func.func @tiny(%a0: !stencil.field<8x8xf32>, %b0: !stencil.field<8x8xf32>, %n: index) {
    %g = stencil.grid [1, 1] to [7, 7] : !stencil.grid<2>
    // expected-remark @+1 {{(W, H, D, T) = (1, 1, 1, 1); B/F_alg 4.00 (T = 1: 4.00), B/F_sys 0.10; x = 1: only 12 work groups would remain, fewer than 8192; y = 1: only 18 work groups would remain, fewer than 8192; z = 1: the grid has no such axis; t = 1: the halo and redundant work of one more step would cost more than it saves}}
    %r:2 = stencil.iterate %n iter_args(%a = %a0, %b = %b0) : !stencil.field<8x8xf32>, !stencil.field<8x8xf32> {
      %c = stencil.apply on %g ins(%x = %a : !stencil.field<8x8xf32>) outs(%b : !stencil.field<8x8xf32>) {
        %l = stencil.access %x[0, -1] : !stencil.field<8x8xf32>
        %h = stencil.access %x[0, 1] : !stencil.field<8x8xf32>
        %v = arith.addf %l, %h : f32
        %w = arith.mulf %v, %v : f32
        stencil.return %w : f32
      }
      %d = stencil.apply on %g ins(%y = %c : !stencil.field<8x8xf32>) outs(%a : !stencil.field<8x8xf32>) {
        %p = stencil.access %y[0, 0] : !stencil.field<8x8xf32>
        stencil.return %p : f32
      }
      stencil.yield %d, %c : !stencil.field<8x8xf32>, !stencil.field<8x8xf32>
    }
    return
  }
}

// -----

// Little on-chip memory (2 KB) and a radius-8 stencil in f64: the tile is
// the work group plus 16 cells of halo per time step, 2 arrays of 8 bytes.
// x stops at 32 (64 + 16 cells would need 2560 bytes) and T at 6, where
// 32 + 96 cells fill the 2048 bytes exactly.
// CHECK-LABEL: func.func @halo
// CHECK: schedule = #stencil.schedule<wg = [32], time_block = 6>
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"stencil.device0" = #dlti.target_device_spec<
    "name" = "small-gpu", "description" = "", "kind" = "gpu",
    "peak_gflops_f32" = 1000.0 : f64, "peak_gflops_f64" = 100.0 : f64, "bandwidth_gbps" = 100.0 : f64,
    "network_latency_us" = 1.0 : f64, "network_bandwidth_gbps" = 10.0 : f64, "launch_overhead_us" = 5.0 : f64,
    "onchip_bytes" = 2048 : i64, "l2_bytes" = 1048576 : i64, "min_work_groups" = 16 : i64,
    "max_work_group_size" = 1024 : i64, "simd_width" = 32 : i64, "compute_units" = 8 : i64, "lanes_per_unit" = 32 : i64>>} {
  func.func @halo(%a0: !stencil.field<4096xf64>, %b0: !stencil.field<4096xf64>, %n: index) {
    %g = stencil.grid [8] to [4088] : !stencil.grid<1>
    // f64 uses the f64 peak: B/F_sys = 100 / 100 = 1.00.
    // expected-remark @+1 {{(W, H, D, T) = (32, 1, 1, 6); B/F_alg 1.48 (T = 1: 8.00), B/F_sys 1.00; x = 32: the tile of 2560 bytes would exceed the 2048 bytes of on-chip memory; y = 1: the grid has no such axis; z = 1: the grid has no such axis; t = 6: the tile of 2304 bytes would exceed the 2048 bytes of on-chip memory}}
    %r:2 = stencil.iterate %n iter_args(%a = %a0, %b = %b0) : !stencil.field<4096xf64>, !stencil.field<4096xf64> {
      %c = stencil.apply on %g ins(%x = %a : !stencil.field<4096xf64>) outs(%b : !stencil.field<4096xf64>) {
        %l = stencil.access %x[-8] : !stencil.field<4096xf64>
        %h = stencil.access %x[8] : !stencil.field<4096xf64>
        %v = arith.addf %l, %h : f64
        %w = arith.mulf %v, %l : f64
        stencil.return %w : f64
      }
      %d = stencil.apply on %g ins(%y = %c : !stencil.field<4096xf64>) outs(%a : !stencil.field<4096xf64>) {
        %p = stencil.access %y[0] : !stencil.field<4096xf64>
        stencil.return %p : f64
      }
      stencil.yield %d, %c : !stencil.field<4096xf64>, !stencil.field<4096xf64>
    }
    return
  }
}

// -----

// The @halo loop with a sum carried from step to step: each step needs the
// one before it whole, so T stays 1 (and x grows to 64 instead).
// CHECK-LABEL: func.func @accumulates
// CHECK: schedule = #stencil.schedule<wg = [64]>
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"stencil.device0" = #dlti.target_device_spec<
    "name" = "small-gpu", "description" = "", "kind" = "gpu",
    "peak_gflops_f32" = 1000.0 : f64, "peak_gflops_f64" = 100.0 : f64, "bandwidth_gbps" = 100.0 : f64,
    "network_latency_us" = 1.0 : f64, "network_bandwidth_gbps" = 10.0 : f64, "launch_overhead_us" = 5.0 : f64,
    "onchip_bytes" = 2048 : i64, "l2_bytes" = 1048576 : i64, "min_work_groups" = 16 : i64,
    "max_work_group_size" = 1024 : i64, "simd_width" = 32 : i64, "compute_units" = 8 : i64, "lanes_per_unit" = 32 : i64>>} {
  func.func @accumulates(%a0: !stencil.field<4096xf64>, %b0: !stencil.field<4096xf64>, %s0: f64, %n: index) {
    %g = stencil.grid [8] to [4088] : !stencil.grid<1>
    // expected-remark @+1 {{t = 1: the loop carries a value from step to step (a reduction that accumulates across steps), which a time block would compute for its last step only}}
    %r:3 = stencil.iterate %n iter_args(%a = %a0, %b = %b0, %s = %s0) : !stencil.field<4096xf64>, !stencil.field<4096xf64>, f64 {
      %c, %sum = stencil.apply on %g ins(%x = %a : !stencil.field<4096xf64>) outs(%b : !stencil.field<4096xf64>) reduce(add %s : f64) {
        %l = stencil.access %x[-8] : !stencil.field<4096xf64>
        %h = stencil.access %x[8] : !stencil.field<4096xf64>
        %v = arith.addf %l, %h : f64
        %w = arith.mulf %v, %l : f64
        stencil.return %w, %w : f64, f64
      }
      stencil.yield %c, %a, %sum : !stencil.field<4096xf64>, !stencil.field<4096xf64>, f64
    }
    return
  }
}

// -----

// A device without the field the rules need is an error naming it.
// expected-error @+1 {{target device 'stencil.device0' needs field 'simd_width' (an integer)}}
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"stencil.device0" = #dlti.target_device_spec<
    "name" = "incomplete", "description" = "", "kind" = "gpu",
    "peak_gflops_f32" = 1000.0 : f64, "peak_gflops_f64" = 100.0 : f64, "bandwidth_gbps" = 100.0 : f64,
    "network_latency_us" = 1.0 : f64, "network_bandwidth_gbps" = 10.0 : f64, "launch_overhead_us" = 5.0 : f64,
    "onchip_bytes" = 2048 : i64, "l2_bytes" = 1048576 : i64, "min_work_groups" = 16 : i64,
    "max_work_group_size" = 1024 : i64, "compute_units" = 8 : i64, "lanes_per_unit" = 32 : i64>>} {
}

// -----

// No target attached.
// expected-error @+1 {{stencil-tune-workgroup needs a target: run stencil-attach-target first (device 0 is not attached)}}
module {}

// -----

// The tuning models need the time loop's kernel and its extent.
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"stencil.device0" = #dlti.target_device_spec<
    "name" = "toy-gpu", "description" = "", "kind" = "gpu",
    "peak_gflops_f32" = 1000.0 : f64, "peak_gflops_f64" = 500.0 : f64, "bandwidth_gbps" = 100.0 : f64,
    "network_latency_us" = 1.0 : f64, "network_bandwidth_gbps" = 10.0 : f64, "launch_overhead_us" = 5.0 : f64,
    "onchip_bytes" = 49152 : i64, "l2_bytes" = 1048576 : i64, "min_work_groups" = 16 : i64,
    "max_work_group_size" = 1024 : i64, "simd_width" = 32 : i64, "compute_units" = 8 : i64, "lanes_per_unit" = 32 : i64>>} {
  func.func @no_kernel(%a0: !stencil.field<8xf32>, %n: index) {
    // expected-error @+1 {{time loop holds no stencil.apply to tune}}
    %r = stencil.iterate %n iter_args(%a = %a0) : !stencil.field<8xf32> {
      stencil.yield %a : !stencil.field<8xf32>
    }
    return
  }
}

// -----

module attributes {dlti.target_system_spec = #dlti.target_system_spec<"stencil.device0" = #dlti.target_device_spec<
    "name" = "toy-gpu", "description" = "", "kind" = "gpu",
    "peak_gflops_f32" = 1000.0 : f64, "peak_gflops_f64" = 500.0 : f64, "bandwidth_gbps" = 100.0 : f64,
    "network_latency_us" = 1.0 : f64, "network_bandwidth_gbps" = 10.0 : f64, "launch_overhead_us" = 5.0 : f64,
    "onchip_bytes" = 49152 : i64, "l2_bytes" = 1048576 : i64, "min_work_groups" = 16 : i64,
    "max_work_group_size" = 1024 : i64, "simd_width" = 32 : i64, "compute_units" = 8 : i64, "lanes_per_unit" = 32 : i64>>} {
  // A bound known at run time only (`i < m`): the grid is estimated as the
  // largest the fields hold, given the stencil's reach: [1, 8 - 2). The loop
  // swaps its fields instead of copying back (not seed 000's Fig. 4 form),
  // which no lowering blocks in time: T stays 1, and the remark says why.
  // CHECK-LABEL: func.func @dynamic_grid
  func.func @dynamic_grid(%a0: !stencil.field<8xf32>, %b0: !stencil.field<8xf32>, %m: index, %n: index) {
    %g = stencil.grid [1] to [%m] : !stencil.grid<1>
    // expected-remark @+1 {{t = 1: the time step is not one sweep followed by a copy back into its sources (seed 000 Fig. 4), the form time blocks are implemented for; the grid's bounds are known at run time only, its extents estimated from the fields' as [5]}}
    %r:2 = stencil.iterate %n iter_args(%a = %a0, %b = %b0) : !stencil.field<8xf32>, !stencil.field<8xf32> {
      %c = stencil.apply on %g ins(%x = %a : !stencil.field<8xf32>) outs(%b : !stencil.field<8xf32>) {
        %l = stencil.access %x[-1] : !stencil.field<8xf32>
        %h = stencil.access %x[2] : !stencil.field<8xf32>
        %s = arith.addf %l, %h : f32
        stencil.return %s : f32
      }
      stencil.yield %c, %a : !stencil.field<8xf32>, !stencil.field<8xf32>
    }
    return
  }
}

// -----

module attributes {dlti.target_system_spec = #dlti.target_system_spec<"stencil.device0" = #dlti.target_device_spec<
    "name" = "toy-gpu", "description" = "", "kind" = "gpu",
    "peak_gflops_f32" = 1000.0 : f64, "peak_gflops_f64" = 500.0 : f64, "bandwidth_gbps" = 100.0 : f64,
    "network_latency_us" = 1.0 : f64, "network_bandwidth_gbps" = 10.0 : f64, "launch_overhead_us" = 5.0 : f64,
    "onchip_bytes" = 49152 : i64, "l2_bytes" = 1048576 : i64, "min_work_groups" = 16 : i64,
    "max_work_group_size" = 1024 : i64, "simd_width" = 32 : i64, "compute_units" = 8 : i64, "lanes_per_unit" = 32 : i64>>} {
  // With fields of run-time size too (C99 `float a[n]`) there is nothing to
  // estimate from: the grid is taken to be far larger than the caches.
  // CHECK-LABEL: func.func @dynamic_fields
  // CHECK: stencil.iterate {{.*}} attributes {schedule = #stencil.schedule<wg = [1024], time_block = 80>}
  func.func @dynamic_fields(%a0: !stencil.field<?xf32>, %b0: !stencil.field<?xf32>, %m: index, %n: index) {
    %g = stencil.grid [1] to [%m] : !stencil.grid<1>
    // expected-remark @+1 {{the grid's bounds and the fields' extents are known at run time only, the grid assumed to be [16777216]}}
    %r:2 = stencil.iterate %n iter_args(%a = %a0, %b = %b0) : !stencil.field<?xf32>, !stencil.field<?xf32> {
      %c = stencil.apply on %g ins(%x = %a : !stencil.field<?xf32>) outs(%b : !stencil.field<?xf32>) {
        %l = stencil.access %x[-1] : !stencil.field<?xf32>
        stencil.return %l : f32
      }
      %d = stencil.apply on %g ins(%y = %c : !stencil.field<?xf32>) outs(%a : !stencil.field<?xf32>) {
        %p = stencil.access %y[0] : !stencil.field<?xf32>
        stencil.return %p : f32
      }
      stencil.yield %d, %c : !stencil.field<?xf32>, !stencil.field<?xf32>
    }
    return
  }
}

// -----

// A CPU with a last-level cache faster than memory: rings too large for
// L2 may take it only while the rows one level reads and writes stay in
// L2. x stops at 512 (a plain sweep's tile fills the 64 KiB), and there a
// level at T = 2 reads three planes and writes one of 512 x (1 + 2 x 2)
// points: 40960 bytes, more than the 39321 (three fifths of 64 KiB), so
// the blocks never start.
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"stencil.device0" = #dlti.target_device_spec<
    "name" = "toy-cpu", "description" = "", "kind" = "cpu",
    "peak_gflops_f32" = 100.0 : f64, "peak_gflops_f64" = 50.0 : f64, "bandwidth_gbps" = 20.0 : f64,
    "llc_bandwidth_gbps" = 60.0 : f64, "llc_bytes" = 33554432 : i64,
    "network_latency_us" = 1.0 : f64, "network_bandwidth_gbps" = 10.0 : f64, "launch_overhead_us" = 5.0 : f64,
    "onchip_bytes" = 65536 : i64, "l2_bytes" = 131072 : i64, "min_work_groups" = 8 : i64,
    "max_work_group_size" = 1073741824 : i64, "simd_width" = 8 : i64, "compute_units" = 2 : i64, "lanes_per_unit" = 8 : i64>>} {
  // CHECK-LABEL: func.func @wide_planes
  // CHECK: schedule = #stencil.schedule<wg = [2, 2, 512], streaming_stores = true>
  func.func @wide_planes(%a0: !stencil.field<16x1024x1024xf32>, %b0: !stencil.field<16x1024x1024xf32>, %n: index) {
    %g = stencil.grid [1, 1, 1] to [15, 1023, 1023] : !stencil.grid<3>
    // expected-remark @+1 {{t = 1: the tile of 71680 bytes would exceed the 39321 bytes the rings may take of on-chip memory (three fifths), and one level's ring rows (40960 bytes) would exceed that too, so the rings cannot take the last-level cache; streaming stores}}
    %r:2 = stencil.iterate %n iter_args(%a = %a0, %b = %b0) : !stencil.field<16x1024x1024xf32>, !stencil.field<16x1024x1024xf32> {
      %c = stencil.apply on %g ins(%x = %a : !stencil.field<16x1024x1024xf32>) outs(%b : !stencil.field<16x1024x1024xf32>) {
        %zl = stencil.access %x[-1, 0, 0] : !stencil.field<16x1024x1024xf32>
        %zh = stencil.access %x[1, 0, 0] : !stencil.field<16x1024x1024xf32>
        %yl = stencil.access %x[0, -1, 0] : !stencil.field<16x1024x1024xf32>
        %yh = stencil.access %x[0, 1, 0] : !stencil.field<16x1024x1024xf32>
        %s0 = arith.addf %zl, %zh : f32
        %s1 = arith.addf %yl, %yh : f32
        %s = arith.addf %s0, %s1 : f32
        stencil.return %s : f32
      }
      %d = stencil.apply on %g ins(%y = %c : !stencil.field<16x1024x1024xf32>) outs(%a : !stencil.field<16x1024x1024xf32>) {
        %p = stencil.access %y[0, 0, 0] : !stencil.field<16x1024x1024xf32>
        stencil.return %p : f32
      }
      stencil.yield %d, %c : !stencil.field<16x1024x1024xf32>, !stencil.field<16x1024x1024xf32>
    }
    return
  }
}
