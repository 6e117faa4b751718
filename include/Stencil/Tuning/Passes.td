//===- Passes.td - Target descriptions and static tuning ---*- tablegen -*-===//

#ifndef STENCIL_TUNING_PASSES_TD
#define STENCIL_TUNING_PASSES_TD

include "mlir/Pass/PassBase.td"

def StencilAttachTarget : Pass<"stencil-attach-target", "ModuleOp"> {
  let summary = "Attach target descriptions to the module as DLTI";
  let description = [{
    Reads each named target (`targets/NAME.json`, a path to a `.json` file,
    or `host`, detected when the pass runs) and places them on the module as
    `dlti.target_system_spec`, device i under the ID `stencil.device<i>`.
    The tuning passes read only that attribute, so lit tests state targets
    inline. Unknown names and missing or mistyped fields are errors that
    name the file and field.
  }];
  let dependentDialects = ["::mlir::DLTIDialect"];
  let options = [
    ListOption<"targets", "targets", "std::string",
               "Targets to attach: names from targets/, paths to .json "
               "files, or host">,
    ListOption<"targetDirs", "target-dirs", "std::string",
               "More directories to search for NAME.json">
  ];
}

def StencilTuneWorkGroup : Pass<"stencil-tune-workgroup", "ModuleOp"> {
  let summary = "Choose work-group shape and time-block depth (seed 000)";
  let description = [{
    Seed 000 §3.1–3.3: the parameter vector (W, H, D, T) grows from
    (1, 1, 1, 1) along the evolution vector while the tile (work group plus
    the halo that grows with T) fits the device's on-chip memory, the
    algorithm's B/F stays at or above the system's (the loop remains
    memory-bound), and enough work groups remain; powers of two; the growth
    order depends on the device kind (gpu, manycore, cpu). The comparisons
    follow the paper's prose where its appendix pseudo-code is inverted;
    docs/Tuning.md explains the reading. The choice goes into each time
    loop's `#stencil.schedule` (its exchange depth is kept) with a remark
    saying why.
  }];
  let options = [
    Option<"device", "device", "unsigned", /*default=*/"0",
           "Index of the attached device to tune for">,
    Option<"acrossRanks", "across-ranks", "bool", /*default=*/"true",
           "Whether distributed fields will be split across MPI ranks "
           "(stencilcc --mpi); without it a function runs as one process, "
           "its halo exchanges the identity">
  ];
}

def StencilTuneExchangeDepth
    : Pass<"stencil-tune-exchange-depth", "ModuleOp"> {
  let summary = "Choose the halo-exchange depth k (seed 001)";
  let description = [{
    For time loops over distributed fields, seed 001 §3.2: with k steps per
    exchange of a k-deep halo, one block costs
    max(T_inner, T_comm) + T_boundary, each computation costing
    max(flop/F, byte/B) per point plus a launch cost, communication the
    device's network latency plus the halo bytes over its bandwidth; k
    minimizes (steps / k) x that. A remark lists the prediction for every k
    tried; the choice goes into the schedule's `exchange_depth`.

    Where the schedule already blocks the loop in time (`time_block` T > 1,
    from stencil-tune-workgroup), the two are chosen together: T shrinks to
    the deepest block whose halo (T x radius) fits the ranks' blocks, down
    to 1; then one block per T steps (arrays read once for T steps, each
    block exchanging first, not overlapped; k = T) is compared with the
    single steps above, and the faster is kept. The exchange is modelled by
    its faces; the diagonal neighbours' edges and corners travel with them.
  }];
  let options = [
    Option<"ranks", "ranks", "int64_t", /*default=*/"4",
           "Number of ranks the grid is split over">,
    Option<"maxDepth", "max-depth", "int64_t", /*default=*/"8",
           "Largest k considered for single steps (time blocks take k = T)">,
    Option<"device", "device", "unsigned", /*default=*/"0",
           "Index of the attached device each rank runs on">
  ];
}

def StencilTuneSplit : Pass<"stencil-tune-split", "ModuleOp"> {
  let summary = "Split the grid across devices and choose local work sizes "
                "(seed 002)";
  let description = [{
    With several devices attached, seed 002 §4.2: the share of the grid's
    outermost axis each device gets follows its number of processing
    elements and the kernel's intensity class; §4.3: each device's local
    work size comes from divisors of its part, warp multiples and the
    contiguous access direction. Writes `stencil.device_split` (points per
    device) and `stencil.local_sizes` on each time loop, with a remark.
  }];
  let options = [
    Option<"intensity", "intensity", "std::string", /*default=*/"\"\"",
           "Override the intensity class: big, middle or small">
  ];
}

#endif // STENCIL_TUNING_PASSES_TD
