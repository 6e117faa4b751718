# `cpack -G DEB` in a build directory makes stencil-mlir_<version>_<arch>.deb
# (docs/Install.md): everything `cmake --install` puts under /usr, depending
# on Debian's LLVM/MLIR/Clang 22 packages by name.
set(CPACK_PACKAGE_NAME stencil-mlir)
set(CPACK_PACKAGE_VENDOR "stencil-mlir developers")
set(CPACK_PACKAGE_CONTACT "stencil-mlir developers")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
  "Stencil compiler for pragma-annotated C, on MLIR 22")
set(CPACK_PACKAGE_DESCRIPTION
  "stencilcc compiles C programs with #pragma stencil regions for CPUs \
(OpenMP), GPUs (CUDA, ROCm, Vulkan) and MPI clusters, tuning tile, \
work-group and time-block sizes statically. Includes stencil-opt, \
stencil-translate, stencil-lsp-server, the stencil dialect's libraries and \
the StencilMLIR CMake package.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
# What the tools load (libMLIR, libclang-cpp, libLLVM) and what stencilcc
# runs and links every executable with (clang-22, libomp).
set(CPACK_DEBIAN_PACKAGE_DEPENDS
  "libmlir-22, libclang-cpp22, libllvm22, clang-22, libomp-22-dev")
# share/stencil-mlir/rocm-toolkit links to Debian's ld.lld and device
# libraries when it was made from them: they must be there.
set(stencil_recommends "")
if(STENCIL_ROCM_TOOLKIT STREQUAL "share/stencil-mlir/rocm-toolkit")
  string(APPEND CPACK_DEBIAN_PACKAGE_DEPENDS ", lld-22")
  if(STENCIL_ROCM_DEVICE_LIBS)
    string(APPEND CPACK_DEBIAN_PACKAGE_DEPENDS ", rocm-device-libs")
  endif()
else()
  set(stencil_recommends ", lld-22, rocm-device-libs")
endif()
# The CMake package and plugin need the MLIR/Clang development files; the
# other targets need their SDKs (runtime/README.md).
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS
  "libmlir-22-dev, libclang-22-dev, mlir-22-tools, openmpi-bin, libopenmpi-dev, libvulkan-dev, mesa-vulkan-drivers${stencil_recommends}")
include(CPack)
