//===- StencilToMPI.h - Halo exchanges as MPI runtime calls -----*- C++ -*-===//
//
// The ExchangeLowering of functions that stencil-distribute made one MPI
// rank's part: `stencil.exchange` becomes a call of runtime/mpi, and the
// steps of a distributed copy-form time loop exchange their halo while the
// points that read none are computed (seed 001, seed 003), every k steps
// with a k-deep halo when the schedule's exchange_depth is k (the redundant
// ring computed in between). Backends call it through lowerFunction
// (StencilCommon/LoweringBackend.h); convert-stencil-to-loops and
// convert-stencil-to-gpu do.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_CONVERSION_STENCILTOMPI_STENCILTOMPI_H
#define STENCIL_CONVERSION_STENCILTOMPI_STENCILTOMPI_H

#include "Stencil/Conversion/StencilCommon/LoweringBackend.h"

#include <memory>

namespace mlir::stencil {

/// With `deviceBuffers` (convert-stencil-to-gpu) the exchanged buffers are
/// in GPU memory: the exchanges call the runtime's `_device` entry points,
/// which pack and unpack the faces on the device and send them from host
/// memory.
std::unique_ptr<ExchangeLowering>
createMPIExchangeLowering(bool deviceBuffers = false);

} // namespace mlir::stencil

#endif // STENCIL_CONVERSION_STENCILTOMPI_STENCILTOMPI_H
