// RUN: stencil-opt %s --pass-pipeline='builtin.module(spirv.module(stencil-spirv-no-contraction))' | FileCheck %s
// RUN: stencil-opt %s --no-implicit-module --pass-pipeline='spirv.module(stencil-spirv-no-contraction)' | mlir-translate --no-implicit-module --test-spirv-roundtrip | FileCheck %s --check-prefix=ROUNDTRIP

// Every floating-point operation keeps its own rounding and its place in
// C's order; integer operations are left alone.
// CHECK-LABEL: spirv.func @order
// CHECK: spirv.FMul %{{.*}}, %{{.*}} {no_contraction} : f32
// CHECK: spirv.FAdd %{{.*}}, %{{.*}} {no_contraction} : f32
// CHECK: spirv.FSub %{{.*}}, %{{.*}} {no_contraction} : f32
// CHECK: spirv.FDiv %{{.*}}, %{{.*}} {no_contraction} : f32
// CHECK: spirv.FNegate %{{.*}} {no_contraction} : f32
// CHECK: spirv.IAdd %{{.*}}, %{{.*}} : i32
// The serialized module carries the decoration.
// ROUNDTRIP-COUNT-5: {no_contraction}
// ROUNDTRIP: spirv.IAdd
spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], []> {
  spirv.func @order(%a: f32, %b: f32, %i: i32) -> f32 "None" {
    %m = spirv.FMul %a, %b : f32
    %s = spirv.FAdd %m, %b : f32
    %d = spirv.FSub %s, %b : f32
    %q = spirv.FDiv %d, %a : f32
    %n = spirv.FNegate %q : f32
    %j = spirv.IAdd %i, %i : i32
    spirv.ReturnValue %n : f32
  }
}
