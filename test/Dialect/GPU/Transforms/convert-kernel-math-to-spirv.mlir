// RUN: stencil-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(gpu.module(stencil-convert-kernel-math-to-spirv))' | FileCheck %s

// Math ops become GLSL.std.450 instructions (a Shader target), on f64 too
// when the target allows Float64; arith and the rest are left to
// convert-gpu-to-spirv.
// CHECK-LABEL: gpu.func @c_math
// CHECK: %[[R:.*]] = spirv.GL.Sqrt %{{.*}} : f32
// CHECK: %[[A:.*]] = spirv.GL.FAbs %[[R]] : f32
// CHECK: %[[E:.*]] = spirv.GL.Exp %[[A]] : f32
// CHECK: %[[D:.*]] = spirv.GL.Sqrt %{{.*}} : f64
// CHECK: spirv.GL.FAbs %[[D]] : f64
// CHECK: arith.addf %[[E]], %[[E]] : f32
// CHECK-NOT: math.
gpu.module @kernels [#spirv.target_env<#spirv.vce<v1.0, [Shader, Float64], [SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>] {
  gpu.func @c_math(%x: f32, %y: f64) -> (f32, f64) {
    %r = math.sqrt %x : f32
    %a = math.absf %r : f32
    %e = math.exp %a : f32
    %d = math.sqrt %y : f64
    %b = math.absf %d : f64
    %s = arith.addf %e, %e : f32
    gpu.return %s, %b : f32, f64
  }
}

// -----

// GLSL.std.450's Exp takes 16- and 32-bit floats only.
gpu.module @kernels [#spirv.target_env<#spirv.vce<v1.0, [Shader, Float64], [SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>] {
  gpu.func @exp_f64(%y: f64) -> f64 {
    // expected-error @+1 {{'math.exp' op on f64 cannot run on the vulkan target: SPIR-V's GLSL.std.450 instruction takes 16- and 32-bit floats only}}
    %e = math.exp %y : f64
    gpu.return %e : f64
  }
}

// -----

// An op without a SPIR-V pattern is named, with the target.
gpu.module @kernels [#spirv.target_env<#spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>] {
  gpu.func @erf(%x: f32) -> f32 {
    // expected-error @+1 {{'math.erf' op has no SPIR-V lowering for the vulkan target (v1.0)}}
    %e = math.erf %x : f32
    gpu.return %e : f32
  }
}

// -----

// expected-error @+1 {{'gpu.module' op has no SPIR-V target; run spirv-attach-target first}}
gpu.module @kernels {
  gpu.func @no_target(%x: f32) -> f32 {
    %r = math.sqrt %x : f32
    gpu.return %r : f32
  }
}
