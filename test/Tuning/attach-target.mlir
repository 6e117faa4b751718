// RUN: stencil-opt %s --stencil-attach-target=targets=c2070 | FileCheck %s
// RUN: stencil-opt %s --stencil-attach-target=targets=host | FileCheck %s --check-prefix=HOST
// RUN: %if x86_64 %{ stencil-opt %s --stencil-attach-target=targets=host | FileCheck %s --check-prefix=HOSTX86 %}
// RUN: env STENCIL_HOST_LLC_BYTES=12345678 stencil-opt %s --stencil-attach-target=targets=host | FileCheck %s --check-prefix=HOSTLLC
// RUN: stencil-opt %s '--stencil-attach-target=targets=%S/../../targets/v100.json,mi300x' | FileCheck %s --check-prefix=TWO
// RUN: not stencil-opt %s --stencil-attach-target=targets=tpu 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not stencil-opt %s --stencil-attach-target=targets=%S/Inputs/missing-field.json 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not stencil-opt %s --stencil-attach-target=targets=%S/Inputs/bad-kind.json 2>&1 | FileCheck %s --check-prefix=KIND
// RUN: not stencil-opt %s --stencil-attach-target=targets=%S/Inputs/not-json.json 2>&1 | FileCheck %s --check-prefix=JSON
// RUN: not stencil-opt %s --stencil-attach-target 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: stencil-opt %s --stencil-attach-target=targets=%S/Inputs/xeon-2core.json | FileCheck %s --check-prefix=L1
// RUN: not stencil-opt %s --stencil-attach-target=targets=%S/Inputs/bad-l1.json 2>&1 | FileCheck %s --check-prefix=BADL1
// RUN: sed -e 's/"bandwidth_gbps": 20.0,/"bandwidth_gbps": 20.0, "llc_bandwidth_gbps": 55.5,/' %S/Inputs/xeon-2core.json > %t.llc.json
// RUN: stencil-opt %s --stencil-attach-target=targets=%t.llc.json | FileCheck %s --check-prefix=LLCBW
// RUN: sed -e 's/"bandwidth_gbps": 20.0,/"bandwidth_gbps": 20.0, "llc_bandwidth_gbps": "fast",/' %S/Inputs/xeon-2core.json > %t.badllc.json
// RUN: not stencil-opt %s --stencil-attach-target=targets=%t.badllc.json 2>&1 | FileCheck %s --check-prefix=BADLLC

// The seed's Tesla C2070 (Table 4) as DLTI on the module.
// CHECK: module attributes {dlti.target_system_spec = #dlti.target_system_spec<"stencil.device0" = #dlti.target_device_spec<
// CHECK-SAME: "name" = "c2070"
// CHECK-SAME: "kind" = "gpu"
// CHECK-SAME: "peak_gflops_f32" = 1.030000e+03 : f64
// CHECK-SAME: "bandwidth_gbps" = 1.440000e+02 : f64
// CHECK-SAME: "onchip_bytes" = 49152 : i64
// CHECK-SAME: "min_work_groups" = 8192 : i64
// CHECK-SAME: "max_work_group_size" = 1024 : i64
// CHECK-SAME: "simd_width" = 32 : i64

// HOST: "stencil.device0" = #dlti.target_device_spec<"name" = "host", {{.*}}"kind" = "cpu"

// An x86 host knows its L1 data cache: from sysfs, else from CPUID (a
// virtual machine may list no caches in sysfs; this project's development
// VM lists none). STENCIL_HOST_LLC_BYTES states the last level.
// HOSTX86: "onchip_bytes" = {{[1-9][0-9]*}} : i64
// HOSTX86-SAME: "l1_bytes" = {{[1-9][0-9]*}} : i64
// HOSTLLC: "llc_bytes" = 12345678 : i64

// The optional L1 and last-level cache sizes travel with the description;
// a GPU's has neither.
// L1: "name" = "xeon-2core"{{.*}}"l1_bytes" = 49152 : i64
// L1-SAME: "llc_bytes" = 110100480 : i64
// CHECK-NOT: l1_bytes
// CHECK-NOT: llc_bytes
// BADL1: error: target description '{{.*}}bad-l1.json': field 'l1_bytes' must be a positive integer
// The last-level cache's bandwidth, optional too, travels as a number.
// LLCBW: "name" = "xeon-2core"{{.*}}"llc_bandwidth_gbps" = 5.550000e+01 : f64
// L1-NOT: llc_bandwidth_gbps
// BADLLC: error: target description '{{.*}}badllc.json': field 'llc_bandwidth_gbps' must be a positive number

// TWO: "stencil.device0" = #dlti.target_device_spec<"name" = "v100"
// TWO-SAME: "stencil.device1" = #dlti.target_device_spec<"name" = "mi300x"

// UNKNOWN: error: unknown target 'tpu'; known targets: host, a100, c2070, h100, h200, lavapipe, mi250x, mi300x, phi5110p, tsubame2, v100, xeon-10gbe, or a path to a .json description
// MISSING: error: target description '{{.*}}missing-field.json': missing number field 'bandwidth_gbps'
// KIND: error: target description '{{.*}}bad-kind.json': field 'kind' must be "gpu", "manycore" or "cpu", got "fpga"
// JSON: error: target description '{{.*}}not-json.json' is not valid JSON
// NONE: error: stencil-attach-target needs targets=NAME[,NAME...]
module {}
