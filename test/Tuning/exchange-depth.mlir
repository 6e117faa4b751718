// Seed 001's exchange-depth model (§3.2). The device is seed 001's Tesla
// M2050 as measured there (1000 GFLOP/s, 120 GB/s, 12 us per launch) on QDR
// InfiniBand; the 7-point stencil runs on 256 x 256 x 512 points split along
// z over 4 ranks.
// RUN: stencil-opt %s --stencil-tune-exchange-depth=ranks=4 --split-input-file -verify-diagnostics | FileCheck %s
// One rank exchanges nothing: no remark, no schedule change.
// RUN: sed /expected-/d %s | stencil-opt --stencil-tune-exchange-depth=ranks=1 --split-input-file -o /dev/null 2>&1 | count 0
// RUN: not stencil-opt %s --stencil-tune-exchange-depth=ranks=0 --split-input-file 2>&1 | FileCheck %s --check-prefix=BADRANKS
// BADRANKS: error: stencil-tune-exchange-depth: ranks and max-depth must be at least 1

!f = !stencil.field<514x258x258xf32, #stencil.decomp<block, *, *>>

// With 2 us latency and 3.2 GB/s the halo of k planes (256 x 256 x k x
// 4 bytes) costs 82 us per k, less than the interior takes: communication
// hides behind it, and a deeper halo only adds redundant boundary work, so
// k = 1.
// CHECK-LABEL: func.func @seven_point
// CHECK: schedule = #stencil.schedule<wg = [1, 1, 1]>
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"stencil.device0" = #dlti.target_device_spec<
    "name" = "m2050", "description" = "seed 001", "kind" = "gpu",
    "peak_gflops_f32" = 1000.0 : f64, "peak_gflops_f64" = 500.0 : f64, "bandwidth_gbps" = 120.0 : f64,
    "network_latency_us" = 2.0 : f64, "network_bandwidth_gbps" = 3.2 : f64, "launch_overhead_us" = 12.0 : f64,
    "onchip_bytes" = 49152 : i64, "l2_bytes" = 786432 : i64, "min_work_groups" = 1024 : i64,
    "max_work_group_size" = 1024 : i64, "simd_width" = 32 : i64, "compute_units" = 14 : i64, "lanes_per_unit" = 32 : i64>>} {
  func.func @seven_point(%a0: !f, %b0: !f, %n: index) attributes {stencil.max_steps = 1000 : i64} {
    %g = stencil.grid [1, 1, 1] to [513, 257, 257] : !stencil.grid<3>
    // expected-remark @+1 {{exchange depth k = 1 on 'm2050' for 4 ranks (process grid [4, 1, 1], 1000 steps); k = 1:}}
    %r:2 = stencil.iterate %n iter_args(%a = %a0, %b = %b0) : !f, !f {
      %c = stencil.apply on %g ins(%x = %a : !f) outs(%b : !f) {
        %zm = stencil.access %x[-1, 0, 0] : !f
        %zp = stencil.access %x[1, 0, 0] : !f
        %ym = stencil.access %x[0, -1, 0] : !f
        %yp = stencil.access %x[0, 1, 0] : !f
        %xm = stencil.access %x[0, 0, -1] : !f
        %xp = stencil.access %x[0, 0, 1] : !f
        %s0 = arith.addf %zm, %zp : f32
        %s1 = arith.addf %s0, %ym : f32
        %s2 = arith.addf %s1, %yp : f32
        %s3 = arith.addf %s2, %xm : f32
        %s4 = arith.addf %s3, %xp : f32
        stencil.return %s4 : f32
      }
      stencil.yield %c, %a : !f, !f
    }
    return
  }
}

// -----

!s = !stencil.field<66x258x258xf32, #stencil.decomp<block, *, *>>

// A thin block (64 planes over 4 ranks: 16 each) and a slow network (200 us
// latency): every exchange costs more than the interior computation, so
// exchanging less often pays and k grows.
// CHECK-LABEL: func.func @latency_bound
// CHECK: schedule = #stencil.schedule<wg = [1, 1, 1], exchange_depth = 4>
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"stencil.device0" = #dlti.target_device_spec<
    "name" = "slow-net", "description" = "", "kind" = "gpu",
    "peak_gflops_f32" = 1000.0 : f64, "peak_gflops_f64" = 500.0 : f64, "bandwidth_gbps" = 120.0 : f64,
    "network_latency_us" = 200.0 : f64, "network_bandwidth_gbps" = 3.2 : f64, "launch_overhead_us" = 12.0 : f64,
    "onchip_bytes" = 49152 : i64, "l2_bytes" = 786432 : i64, "min_work_groups" = 1024 : i64,
    "max_work_group_size" = 1024 : i64, "simd_width" = 32 : i64, "compute_units" = 14 : i64, "lanes_per_unit" = 32 : i64>>} {
  func.func @latency_bound(%a0: !s, %b0: !s, %n: index) attributes {stencil.max_steps = 1000 : i64} {
    %g = stencil.grid [1, 1, 1] to [65, 257, 257] : !stencil.grid<3>
    // expected-remark @+1 {{exchange depth k = 4 on 'slow-net' for 4 ranks (process grid [4, 1, 1], 1000 steps)}}
    %r:2 = stencil.iterate %n iter_args(%a = %a0, %b = %b0) : !s, !s {
      %c = stencil.apply on %g ins(%x = %a : !s) outs(%b : !s) {
        %zm = stencil.access %x[-1, 0, 0] : !s
        %zp = stencil.access %x[1, 0, 0] : !s
        %v = arith.addf %zm, %zp : f32
        stencil.return %v : f32
      }
      stencil.yield %c, %a : !s, !s
    }
    return
  }
}

// -----

// Six planes over four ranks: two planes per rank, no interior left once a
// radius is taken from both sides. Any depth would compute only ring.
!f = !stencil.field<8x10x10xf32, #stencil.decomp<block, *, *>>
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"stencil.device0" = #dlti.target_device_spec<
    "name" = "m2050", "description" = "seed 001", "kind" = "gpu",
    "peak_gflops_f32" = 1000.0 : f64, "peak_gflops_f64" = 500.0 : f64, "bandwidth_gbps" = 120.0 : f64,
    "network_latency_us" = 2.0 : f64, "network_bandwidth_gbps" = 3.2 : f64, "launch_overhead_us" = 12.0 : f64,
    "onchip_bytes" = 49152 : i64, "l2_bytes" = 786432 : i64, "min_work_groups" = 1024 : i64,
    "max_work_group_size" = 1024 : i64, "simd_width" = 32 : i64, "compute_units" = 14 : i64, "lanes_per_unit" = 32 : i64>>} {
  func.func @thin(%a0: !f, %b0: !f, %n: index) {
    %g = stencil.grid [1, 1, 1] to [7, 9, 9] : !stencil.grid<3>
    // expected-remark @+1 {{stencil-tune-exchange-depth: the blocks of 4 ranks are thinner than the stencil; keeping k = 1}}
    %r:2 = stencil.iterate %n iter_args(%a = %a0, %b = %b0) : !f, !f {
      %c = stencil.apply on %g ins(%x = %a : !f) outs(%b : !f) {
        %zm = stencil.access %x[-1, 0, 0] : !f
        %zp = stencil.access %x[1, 0, 0] : !f
        %s = arith.addf %zm, %zp : f32
        stencil.return %s : f32
      }
      stencil.yield %c, %a : !f, !f
    }
    return
  }
}

// -----

// The latency-bound loop of @latency_bound with a residual: deeper steps
// would compute the neighbours' points too and count them twice in the
// sum, so k stays 1 whatever the network.
!s = !stencil.field<66x258x258xf32, #stencil.decomp<block, *, *>>
// CHECK-LABEL: func.func @reduces
// CHECK-NOT: exchange_depth
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"stencil.device0" = #dlti.target_device_spec<
    "name" = "slow-net", "description" = "", "kind" = "gpu",
    "peak_gflops_f32" = 1000.0 : f64, "peak_gflops_f64" = 500.0 : f64, "bandwidth_gbps" = 120.0 : f64,
    "network_latency_us" = 200.0 : f64, "network_bandwidth_gbps" = 3.2 : f64, "launch_overhead_us" = 12.0 : f64,
    "onchip_bytes" = 49152 : i64, "l2_bytes" = 786432 : i64, "min_work_groups" = 1024 : i64,
    "max_work_group_size" = 1024 : i64, "simd_width" = 32 : i64, "compute_units" = 14 : i64, "lanes_per_unit" = 32 : i64>>} {
  func.func @reduces(%a0: !s, %b0: !s, %z: f32, %n: index) attributes {stencil.max_steps = 1000 : i64} {
    %g = stencil.grid [1, 1, 1] to [65, 257, 257] : !stencil.grid<3>
    // expected-remark @+1 {{stencil-tune-exchange-depth: the loop reduces over its grid, and deeper exchanges would compute the neighbours' points too; keeping k = 1}}
    %r:3 = stencil.iterate %n iter_args(%a = %a0, %b = %b0, %s = %z) : !s, !s, f32 {
      %c, %sum = stencil.apply on %g ins(%x = %a : !s) outs(%b : !s) reduce(add %z : f32) {
        %zm = stencil.access %x[-1, 0, 0] : !s
        %zp = stencil.access %x[1, 0, 0] : !s
        %v = arith.addf %zm, %zp : f32
        stencil.return %v, %v : f32, f32
      }
      stencil.yield %c, %a, %sum : !s, !s, f32
    }
    return
  }
}

// -----

// Time blocks from stencil-tune-workgroup (T = 4) and the exchange depth
// are chosen together. A block reads its arrays once for its 4 steps and
// exchanges a halo 4 planes deep before it, not overlapped; on this
// bandwidth-bound kernel that beats every single-step k, so k = T.
!t = !stencil.field<514x258x258xf32, #stencil.decomp<block, *, *>>
// CHECK-LABEL: func.func @time_blocks_with_exchanges
// CHECK: schedule = #stencil.schedule<wg = [8, 16, 256], time_block = 4, exchange_depth = 4>
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"stencil.device0" = #dlti.target_device_spec<
    "name" = "cpu-node", "description" = "", "kind" = "cpu",
    "peak_gflops_f32" = 2000.0 : f64, "peak_gflops_f64" = 1000.0 : f64, "bandwidth_gbps" = 100.0 : f64,
    "network_latency_us" = 2.0 : f64, "network_bandwidth_gbps" = 12.0 : f64, "launch_overhead_us" = 1.0 : f64,
    "onchip_bytes" = 49152 : i64, "l2_bytes" = 1048576 : i64, "min_work_groups" = 2 : i64,
    "max_work_group_size" = 1048576 : i64, "simd_width" = 16 : i64, "compute_units" = 16 : i64, "lanes_per_unit" = 16 : i64>>} {
  func.func @time_blocks_with_exchanges(%a0: !t, %b0: !t, %n: index) attributes {stencil.max_steps = 1000 : i64} {
    %g = stencil.grid [1, 1, 1] to [513, 257, 257] : !stencil.grid<3>
    // expected-remark @+1 {{exchange depth k = 4 with time_block 4 on 'cpu-node' for 4 ranks (process grid [4, 1, 1], 1000 steps): time blocks of T = 4 steps with k = 4 (each block exchanges a halo 4 x radius deep first, not overlapped):}}
    %r:2 = stencil.iterate %n iter_args(%a = %a0, %b = %b0) : !t, !t attributes {schedule = #stencil.schedule<wg = [8, 16, 256], time_block = 4>} {
      %c = stencil.apply on %g ins(%x = %a : !t) outs(%b : !t) {
        %zm = stencil.access %x[-1, 0, 0] : !t
        %zp = stencil.access %x[1, 0, 0] : !t
        %ym = stencil.access %x[0, -1, 0] : !t
        %yp = stencil.access %x[0, 1, 0] : !t
        %s0 = arith.addf %zm, %zp : f32
        %s1 = arith.addf %s0, %ym : f32
        %s2 = arith.addf %s1, %yp : f32
        stencil.return %s2 : f32
      }
      stencil.yield %c, %a : !t, !t
    }
    return
  }
}

// -----

// Blocks of 40 steps would need halos 40 planes deep, thicker than the 16
// planes each of 4 ranks holds: T shrinks to 16, the deepest that fits,
// and k follows it.
!u = !stencil.field<66x258x258xf32, #stencil.decomp<block, *, *>>
// CHECK-LABEL: func.func @time_blocks_too_deep
// CHECK: schedule = #stencil.schedule<wg = [8, 16, 256], time_block = 16, exchange_depth = 16>
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"stencil.device0" = #dlti.target_device_spec<
    "name" = "cpu-node", "description" = "", "kind" = "cpu",
    "peak_gflops_f32" = 2000.0 : f64, "peak_gflops_f64" = 1000.0 : f64, "bandwidth_gbps" = 100.0 : f64,
    "network_latency_us" = 2.0 : f64, "network_bandwidth_gbps" = 12.0 : f64, "launch_overhead_us" = 1.0 : f64,
    "onchip_bytes" = 49152 : i64, "l2_bytes" = 1048576 : i64, "min_work_groups" = 2 : i64,
    "max_work_group_size" = 1048576 : i64, "simd_width" = 16 : i64, "compute_units" = 16 : i64, "lanes_per_unit" = 16 : i64>>} {
  func.func @time_blocks_too_deep(%a0: !u, %b0: !u, %n: index) attributes {stencil.max_steps = 1000 : i64} {
    %g = stencil.grid [1, 1, 1] to [65, 257, 257] : !stencil.grid<3>
    // expected-remark @+2 {{stencil-tune-exchange-depth: time blocks of 40 steps need halos 40 x radius deep, thicker than the blocks of 4 ranks (process grid [4, 1, 1]); time_block 40 -> 16}}
    // expected-remark @+1 {{exchange depth k = 16 with time_block 16}}
    %r:2 = stencil.iterate %n iter_args(%a = %a0, %b = %b0) : !u, !u attributes {schedule = #stencil.schedule<wg = [8, 16, 256], time_block = 40>} {
      %c = stencil.apply on %g ins(%x = %a : !u) outs(%b : !u) {
        %zm = stencil.access %x[-1, 0, 0] : !u
        %zp = stencil.access %x[1, 0, 0] : !u
        %s0 = arith.addf %zm, %zp : f32
        stencil.return %s0 : f32
      }
      stencil.yield %c, %a : !u, !u
    }
    return
  }
}

// -----

// A compute-bound kernel gains nothing from reading its arrays once per
// block, and a block's exchange is not overlapped: single steps, whose
// exchange hides behind the interior, are predicted faster, so T = 1.
!v = !stencil.field<514x258x258xf32, #stencil.decomp<block, *, *>>
// CHECK-LABEL: func.func @single_steps_win
// CHECK: schedule = #stencil.schedule<wg = [8, 16, 256]>
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"stencil.device0" = #dlti.target_device_spec<
    "name" = "slow-cpu", "description" = "", "kind" = "cpu",
    "peak_gflops_f32" = 1.0 : f64, "peak_gflops_f64" = 1.0 : f64, "bandwidth_gbps" = 100.0 : f64,
    "network_latency_us" = 2.0 : f64, "network_bandwidth_gbps" = 1.0 : f64, "launch_overhead_us" = 1.0 : f64,
    "onchip_bytes" = 49152 : i64, "l2_bytes" = 1048576 : i64, "min_work_groups" = 2 : i64,
    "max_work_group_size" = 1048576 : i64, "simd_width" = 16 : i64, "compute_units" = 16 : i64, "lanes_per_unit" = 16 : i64>>} {
  func.func @single_steps_win(%a0: !v, %b0: !v, %n: index) attributes {stencil.max_steps = 1000 : i64} {
    %g = stencil.grid [1, 1, 1] to [513, 257, 257] : !stencil.grid<3>
    // expected-remark @+1 {{exchange depth k = 1, time_block 1 on 'slow-cpu' for 4 ranks (process grid [4, 1, 1], 1000 steps): single steps are predicted faster than time blocks of T = 4 steps}}
    %r:2 = stencil.iterate %n iter_args(%a = %a0, %b = %b0) : !v, !v attributes {schedule = #stencil.schedule<wg = [8, 16, 256], time_block = 4>} {
      %c = stencil.apply on %g ins(%x = %a : !v) outs(%b : !v) {
        %zm = stencil.access %x[-1, 0, 0] : !v
        %zp = stencil.access %x[1, 0, 0] : !v
        %s0 = arith.addf %zm, %zp : f32
        stencil.return %s0 : f32
      }
      stencil.yield %c, %a : !v, !v
    }
    return
  }
}
