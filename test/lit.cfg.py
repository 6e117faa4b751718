# -*- Python -*-
# lit configuration for the stencil-mlir test suite.

import os

import lit.formats
from lit.llvm import llvm_config

config.name = "STENCIL"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test", ".c"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.stencil_obj_root, "test")
config.excludes = ["CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py", "lib", "Inputs", "README.md",
                   "compare.sh", "mpi-compare.sh"]

llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

config.substitutions.append(("%stencil_src_root", config.stencil_src_root))
config.substitutions.append(("%stencil_obj_root", config.stencil_obj_root))
config.substitutions.append(
    ("%examples", os.path.join(config.stencil_src_root, "examples")))

llvm_config.add_tool_substitutions(
    ["stencil-opt", "stencil-translate", "stencilcc"],
    [config.stencil_tools_dir])
# Scripts under test/ call the tools by name.
llvm_config.with_environment("PATH", config.stencil_tools_dir,
                             append_path=True)
config.substitutions.append(
    ("%clang", os.path.join(config.llvm_tools_dir, "clang")))
llvm_config.add_tool_substitutions(["mlir-translate"], [config.llvm_tools_dir])

# MPI integration tests need mpirun and the runtime's MPI part.
import shutil
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
