// Seed 002 §4.2-4.3: the grid's outermost axis split across devices and
// each device's local work size.
// RUN: stencil-opt %s --stencil-tune-split=intensity=middle --split-input-file -verify-diagnostics | FileCheck %s
// RUN: not stencil-opt %s --stencil-tune-split=intensity=huge --split-input-file 2>&1 | FileCheck %s --check-prefix=BAD

// The paper's worked example: two devices whose processing elements are in
// the ratio 2 : 5 (128 and 320), a middle-intensity kernel, 1000 work items
// along the split axis: 2/7 x 0.3 = 0.0857 of them, 86, go to the weaker
// device and 914 to the stronger. In 2-D the local size is a pair of
// divisors whose product is a warp multiple; 100 x 86 and 100 x 914 have
// none, so the rule's fallback applies: the largest divisor of x, and 1. The
// attribute lists axes outermost first, like the IR; the remark in the
// seed's order, x first.
// CHECK-LABEL: func.func @worked_example
// CHECK: stencil.device_split = array<i64: 86, 914>
// CHECK-SAME: stencil.local_sizes = [array<i64: 1, 100>, array<i64: 1, 100>]
// BAD: error: stencil-tune-split: intensity must be big, middle or small, got 'huge'
module attributes {dlti.target_system_spec = #dlti.target_system_spec<
    "stencil.device0" = #dlti.target_device_spec<
      "name" = "few", "description" = "", "kind" = "gpu",
      "peak_gflops_f32" = 1000.0 : f64, "peak_gflops_f64" = 500.0 : f64, "bandwidth_gbps" = 100.0 : f64,
      "network_latency_us" = 1.0 : f64, "network_bandwidth_gbps" = 10.0 : f64, "launch_overhead_us" = 5.0 : f64,
      "onchip_bytes" = 49152 : i64, "l2_bytes" = 1048576 : i64, "min_work_groups" = 16 : i64,
      "max_work_group_size" = 1024 : i64, "simd_width" = 32 : i64, "compute_units" = 2 : i64, "lanes_per_unit" = 64 : i64>,
    "stencil.device1" = #dlti.target_device_spec<
      "name" = "many", "description" = "", "kind" = "gpu",
      "peak_gflops_f32" = 2500.0 : f64, "peak_gflops_f64" = 1250.0 : f64, "bandwidth_gbps" = 250.0 : f64,
      "network_latency_us" = 1.0 : f64, "network_bandwidth_gbps" = 10.0 : f64, "launch_overhead_us" = 5.0 : f64,
      "onchip_bytes" = 49152 : i64, "l2_bytes" = 1048576 : i64, "min_work_groups" = 16 : i64,
      "max_work_group_size" = 1024 : i64, "simd_width" = 32 : i64, "compute_units" = 5 : i64, "lanes_per_unit" = 64 : i64>>} {
  func.func @worked_example(%a0: !stencil.field<1002x102xf32>, %b0: !stencil.field<1002x102xf32>, %n: index) {
    %g = stencil.grid [1, 1] to [1001, 101] : !stencil.grid<2>
    // expected-remark @+1 {{split over 2 devices for a middle kernel; few (128 PEs): 86 of 1000 points along the outermost axis, local size 100x1; many (320 PEs): 914 of 1000 points along the outermost axis, local size 100x1}}
    %r:2 = stencil.iterate %n iter_args(%a = %a0, %b = %b0) : !stencil.field<1002x102xf32>, !stencil.field<1002x102xf32> {
      %c = stencil.apply on %g ins(%x = %a : !stencil.field<1002x102xf32>) outs(%b : !stencil.field<1002x102xf32>) {
        %l = stencil.access %x[-1, 0] : !stencil.field<1002x102xf32>
        %h = stencil.access %x[1, 0] : !stencil.field<1002x102xf32>
        %v = arith.addf %l, %h : f32
        stencil.return %v : f32
      }
      stencil.yield %c, %a : !stencil.field<1002x102xf32>, !stencil.field<1002x102xf32>
    }
    return
  }
}

// -----

// Devices within 2 : 3 of each other share evenly (Eq. (8)); more devices
// are chained pairwise from the weakest. Three equal devices get thirds,
// the last one the remainder.
// CHECK-LABEL: func.func @even
// CHECK: stencil.device_split = array<i64: 333, 333, 334>
module attributes {dlti.target_system_spec = #dlti.target_system_spec<
    "stencil.device0" = #dlti.target_device_spec<
      "name" = "a", "description" = "", "kind" = "gpu",
      "peak_gflops_f32" = 1000.0 : f64, "peak_gflops_f64" = 500.0 : f64, "bandwidth_gbps" = 100.0 : f64,
      "network_latency_us" = 1.0 : f64, "network_bandwidth_gbps" = 10.0 : f64, "launch_overhead_us" = 5.0 : f64,
      "onchip_bytes" = 49152 : i64, "l2_bytes" = 1048576 : i64, "min_work_groups" = 16 : i64,
      "max_work_group_size" = 1024 : i64, "simd_width" = 32 : i64, "compute_units" = 4 : i64, "lanes_per_unit" = 64 : i64>,
    "stencil.device1" = #dlti.target_device_spec<
      "name" = "b", "description" = "", "kind" = "gpu",
      "peak_gflops_f32" = 1000.0 : f64, "peak_gflops_f64" = 500.0 : f64, "bandwidth_gbps" = 100.0 : f64,
      "network_latency_us" = 1.0 : f64, "network_bandwidth_gbps" = 10.0 : f64, "launch_overhead_us" = 5.0 : f64,
      "onchip_bytes" = 49152 : i64, "l2_bytes" = 1048576 : i64, "min_work_groups" = 16 : i64,
      "max_work_group_size" = 1024 : i64, "simd_width" = 32 : i64, "compute_units" = 4 : i64, "lanes_per_unit" = 64 : i64>,
    "stencil.device2" = #dlti.target_device_spec<
      "name" = "c", "description" = "", "kind" = "gpu",
      "peak_gflops_f32" = 1000.0 : f64, "peak_gflops_f64" = 500.0 : f64, "bandwidth_gbps" = 100.0 : f64,
      "network_latency_us" = 1.0 : f64, "network_bandwidth_gbps" = 10.0 : f64, "launch_overhead_us" = 5.0 : f64,
      "onchip_bytes" = 49152 : i64, "l2_bytes" = 1048576 : i64, "min_work_groups" = 16 : i64,
      "max_work_group_size" = 1024 : i64, "simd_width" = 32 : i64, "compute_units" = 4 : i64, "lanes_per_unit" = 64 : i64>>} {
  func.func @even(%a0: !stencil.field<1002x102xf32>, %b0: !stencil.field<1002x102xf32>, %n: index) {
    %g = stencil.grid [1, 1] to [1001, 101] : !stencil.grid<2>
    // expected-remark @+1 {{split over 3 devices for a middle kernel}}
    %r:2 = stencil.iterate %n iter_args(%a = %a0, %b = %b0) : !stencil.field<1002x102xf32>, !stencil.field<1002x102xf32> {
      %c = stencil.apply on %g ins(%x = %a : !stencil.field<1002x102xf32>) outs(%b : !stencil.field<1002x102xf32>) {
        %l = stencil.access %x[-1, 0] : !stencil.field<1002x102xf32>
        %v = arith.addf %l, %l : f32
        stencil.return %v : f32
      }
      stencil.yield %c, %a : !stencil.field<1002x102xf32>, !stencil.field<1002x102xf32>
    }
    return
  }
}

// -----

// One device is not a split.
// expected-error @+1 {{stencil-tune-split needs at least two attached devices, got 0}}
module {}
