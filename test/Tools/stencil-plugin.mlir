// Upstream mlir-opt with StencilPlugin.so reads and verifies stencil IR and
// runs the tuning passes, with the same result as stencil-opt.
// REQUIRES: plugin
// RUN: mlir-opt --load-dialect-plugin=%stencil_plugin --load-pass-plugin=%stencil_plugin %examples/mlir/heat2d.mlir --pass-pipeline='builtin.module(stencil-attach-target{targets=c2070},stencil-tune-workgroup)' > %t.plugin
// RUN: stencil-opt %examples/mlir/heat2d.mlir --stencil-attach-target=targets=c2070 --stencil-tune-workgroup > %t.ours
// RUN: diff -B %t.plugin %t.ours
// RUN: FileCheck %s < %t.plugin
// RUN: not mlir-opt --load-dialect-plugin=%stencil_plugin %s 2>&1 | FileCheck %s --check-prefix=INVALID
// RUN: not mlir-opt %s 2>&1 | FileCheck %s --check-prefix=NOPLUGIN

// CHECK: stencil.iterate
// CHECK-SAME: schedule = #stencil.schedule<wg = [{{[0-9]+}}, {{[0-9]+}}], time_block = {{[0-9]+}}>

// INVALID: error: 'stencil.grid' op lower bound 5 exceeds upper bound 3 along axis 0
// NOPLUGIN: error: Dialect `stencil' not found for custom op 'stencil.grid'

func.func @bad() {
  %g = stencil.grid [5] to [3] : !stencil.grid<1>
  return
}
