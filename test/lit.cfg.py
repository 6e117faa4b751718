# -*- Python -*-
# lit configuration for the stencil-mlir test suite.

import os
import shutil
import platform

import lit.formats
from lit.llvm import llvm_config

config.name = "STENCIL"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test", ".c"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.stencil_obj_root, "test")
config.excludes = ["CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py", "lib", "Inputs", "README.md",
                   "compare.sh", "compare-outputs.sh", "mpi-compare.sh", "corpus", "crashes",
                   "downstream"]

llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
# The host's bandwidth is measured once per machine (lib/Tuning/
# HostMeasurement.cpp); the tests tune for a fixed 20 GB/s so that their
# schedules do not depend on the machine (test/Tuning/host-bandwidth.test
# measures).
config.environment["STENCIL_HOST_BANDWIDTH_GBPS"] = "20"

config.substitutions.append(("%stencil_src_root", config.stencil_src_root))
config.substitutions.append(("%stencil_obj_root", config.stencil_obj_root))
config.substitutions.append(
    ("%examples", os.path.join(config.stencil_src_root, "examples")))

llvm_config.add_tool_substitutions(
    ["stencil-opt", "stencil-translate", "stencilcc", "stencil-lsp-server",
     "stencil-reduce", "stencil-translate-fuzzer", "stencil-opt-fuzzer",
     "stencil-schedule-fuzzer"],
    [config.stencil_tools_dir])
# Scripts under test/ call the tools by name.
llvm_config.with_environment("PATH", config.stencil_tools_dir,
                             append_path=True)
config.substitutions.append(
    ("%clang", os.path.join(config.llvm_tools_dir, "clang")))
llvm_config.add_tool_substitutions(["mlir-translate", "mlir-opt"],
                                  [config.llvm_tools_dir])
config.substitutions.append(("%stencil_tools_dir", config.stencil_tools_dir))

# StencilPlugin.so in upstream mlir-opt. Not under ASan: the sanitizer's
# runtime must come first in the process, and mlir-opt is not instrumented.
stencil_plugin = os.path.join(config.stencil_obj_root, "lib", "StencilPlugin.so")
config.substitutions.append(("%stencil_plugin", stencil_plugin))
if (not config.stencil_asan and os.path.exists(stencil_plugin) and
        os.path.exists(os.path.join(config.llvm_tools_dir, "mlir-opt"))):
    config.available_features.add("plugin")

# Two threads pinned to one core: how the host's bandwidth probe sees
# other processes sharing the cores (host-bandwidth-probes.test).
if (os.cpu_count() or 1) >= 2 and shutil.which("taskset"):
    config.available_features.add("taskset-two-cores")

# groff renders the manual page (groff-base, scripts/install-deps.sh).
if shutil.which("groff"):
    config.available_features.add("groff")

# The host's architecture, for tests of x86-64 specifics (code models).
if platform.machine() in ("x86_64", "AMD64"):
    config.available_features.add("x86_64")

# Vectors with fused multiply-adds, which the host probe times for the FP
# peak (lib/Tuning/HostMeasurement.cpp: AVX-512, else AVX2 with FMA).
try:
    with open("/proc/cpuinfo") as cpuinfo:
        cpu_flags = next((line.split() for line in cpuinfo
                          if line.startswith("flags")), [])
except OSError:
    cpu_flags = []
if "x86_64" in config.available_features and (
        "avx512f" in cpu_flags or ("avx2" in cpu_flags and "fma" in cpu_flags)):
    config.available_features.add("fma-probe")

# The bin/ directory of a second build made by another C++ compiler
# (scripts/test.sh passes --param other_build=...): the IR both emit must be
# the same.
other_build = lit_config.params.get("other_build")
if other_build:
    config.available_features.add("other-build")
    config.substitutions.append(("%other_build_bin", other_build))

# MPI integration tests need mpirun and the runtime's MPI part.
if shutil.which("mpirun") and os.path.exists(
        os.path.join(config.stencil_obj_root, "lib",
                     "libstencil_mpi_runtime.a")):
    config.available_features.add("mpi")
    # As root (CI containers) OpenMPI wants to be told; more ranks than
    # cores is the point of the tests here. One thread per rank.
    mpirun = "mpirun --oversubscribe"
    if os.geteuid() == 0:
        mpirun += " --allow-run-as-root"
    config.substitutions.append(("%mpirun", "env OMP_NUM_THREADS=1 " + mpirun))
    for name in ["HOME", "TMPDIR"]:
        if name in os.environ:
            config.environment[name] = os.environ[name]

# GPU backends (docs/GPU.md): a feature per runtime that CMake built, per
# tool, and per device present. Tests that need a missing one are reported
# UNSUPPORTED, which is how a machine without an NVIDIA or AMD GPU skips
# running the CUDA and HIP executables.
def runtime_built(name):
    return os.path.exists(os.path.join(config.stencil_obj_root, "lib",
                                       "libstencil_%s_runtime.a" % name))

icd_dirs = ["/usr/share/vulkan/icd.d", "/etc/vulkan/icd.d"]
if runtime_built("vulkan") and any(
        os.path.isdir(d) and os.listdir(d) for d in icd_dirs):
    config.available_features.add("vulkan")
    # Khronos's validation layer (vulkan-validationlayers), which
    # vulkan-validation.test runs the runtime under.
    if any(os.path.exists(os.path.join(d, "VkLayer_khronos_validation.json"))
           for d in ["/usr/share/vulkan/explicit_layer.d",
                     "/etc/vulkan/explicit_layer.d"]):
        config.available_features.add("vulkan-validation")
        # The layer with synchronization validation. Core checks stay on:
        # VUID-RuntimeSpirv-Workgroup-06530 (a SPIR-V 1.0 module's workgroup
        # variables summed against the device's limit) was filtered here as
        # a false alarm until a merged module of such a sum lost an NVIDIA
        # H200 (stencil-merge-kernel-modules, separate-workgroup-memory).
        config.substitutions.append(
            ("%vulkan_validate",
             "env VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation "
             "VK_LAYER_ENABLES="
             "VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT"))
if runtime_built("cuda"):
    config.available_features.add("cuda-backend")
    ptxas = os.path.join(config.cuda_toolkit, "bin", "ptxas")
    if os.access(ptxas, os.X_OK):
        config.available_features.add("ptxas")
        config.substitutions.append(("%ptxas", ptxas))
    if os.path.exists("/dev/nvidiactl") and shutil.which("nvidia-smi"):
        config.available_features.add("cuda-device")
if runtime_built("hip"):
    config.available_features.add("hip-backend")
    if os.path.exists("/dev/kfd"):
        config.available_features.add("hip-device")
if config.rocm_toolkit:
    config.available_features.add("amdgpu-codegen")
    # ocml/ockl linked in: kernels calling them become complete objects.
    if config.rocm_device_libs:
        config.available_features.add("amdgpu-device-libs")
    # Relative to the prefix when CMake made it (share/stencil-mlir/...).
    config.substitutions.append(
        ("%rocm_toolkit",
         os.path.join(config.stencil_obj_root, config.rocm_toolkit)))
