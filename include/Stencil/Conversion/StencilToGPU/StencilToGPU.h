//===- StencilToGPU.h - The device backend of the lowering ------*- C++ -*-===//
//
// Buffers in device memory (copied in at each load, back at each store, so
// host and device exchange data at region entry and exit only), every box of
// points a `gpu.launch` with one work item per point, time blocks as
// kernels that keep a tile and its halo in workgroup memory.
// `convert-stencil-to-gpu` lowers with it.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_CONVERSION_STENCILTOGPU_STENCILTOGPU_H
#define STENCIL_CONVERSION_STENCILTOGPU_STENCILTOGPU_H

#include "Stencil/Conversion/StencilCommon/LoweringBackend.h"

#include <memory>
#include <string>

namespace mlir::stencil {

struct DeviceLoweringOptions {
  /// The work group of applies without a schedule, outermost first;
  /// missing entries count from the innermost axis.
  SmallVector<int64_t, 3> defaultWorkGroup;
  /// The workgroup memory a time-blocked kernel may use, in bytes.
  int64_t workgroupMemoryLimit = 0;
  /// The most work items in a work group, and the device that says so, for
  /// messages (0: no limit known).
  int64_t maxWorkGroupSize = 0;
  std::string deviceName;
};

std::unique_ptr<LoweringBackend>
createDeviceLoweringBackend(const DeviceLoweringOptions &options);

} // namespace mlir::stencil

#endif // STENCIL_CONVERSION_STENCILTOGPU_STENCILTOGPU_H
