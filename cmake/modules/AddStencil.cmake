# add_stencil_library(name sources... [add_mlir_library arguments])
# One library of the project: built by add_mlir_library (out of libMLIR,
# not installed by MLIR's rules), installed in lib/ and exported in the
# StencilMLIR CMake package as StencilMLIR::<name> (docs/Install.md).
function(add_stencil_library name)
  add_mlir_library(${name} ${ARGN} EXCLUDE_FROM_LIBMLIR DISABLE_INSTALL)
  target_include_directories(${name} INTERFACE
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  install(TARGETS ${name}
    EXPORT StencilMLIRTargets
    ARCHIVE DESTINATION lib COMPONENT stencil-dev
    LIBRARY DESTINATION lib COMPONENT stencil-dev)
  set_property(GLOBAL APPEND PROPERTY STENCIL_EXPORTED_LIBRARIES ${name})
endfunction()

# add_stencil_tool(name sources... ): a tool installed in bin/. Installed,
# it finds libMLIR/libLLVM where they were found at build time (Debian's
# /usr/lib/llvm-22/lib), not only in $ORIGIN/../lib as LLVM's own tools do.
function(add_stencil_tool name)
  add_llvm_executable(${name} ${ARGN})
  llvm_update_compile_flags(${name})
  set_property(TARGET ${name} APPEND PROPERTY INSTALL_RPATH
    "${LLVM_LIBRARY_DIR}")
  install(TARGETS ${name} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
    COMPONENT stencil-tools)
endfunction()
