//===- StencilAttrs.td - Stencil dialect attributes --------*- tablegen -*-===//

#ifndef STENCIL_DIALECT_STENCIL_IR_STENCILATTRS_TD
#define STENCIL_DIALECT_STENCIL_IR_STENCILATTRS_TD

include "Stencil/Dialect/Stencil/IR/StencilBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

class Stencil_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<Stencil_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

def Stencil_AxisDistribution : I32EnumAttr<"AxisDistribution",
    "how one axis of a field is split across ranks", [
      I32EnumAttrCase<"Replicated", 0, "replicated">,
      I32EnumAttrCase<"Block", 1, "block">
    ]> {
  let cppNamespace = "::mlir::stencil";
  let genSpecializedAttr = 0;
}

def Stencil_ReductionKind : I32EnumAttr<"ReductionKind",
    "how a reduction of a stencil.apply combines the values of its points", [
      I32EnumAttrCase<"Add", 0, "add">,
      I32EnumAttrCase<"Mul", 1, "mul">,
      I32EnumAttrCase<"Min", 2, "min">,
      I32EnumAttrCase<"Max", 3, "max">
    ]> {
  let cppNamespace = "::mlir::stencil";
  let genSpecializedAttr = 0;
}

def Stencil_ReductionKindAttr
    : EnumAttr<Stencil_Dialect, Stencil_ReductionKind, "reduction"> {
  let summary = "The combining operation of a reduction";
  let description = [{
    `add`, `mul`, `min` or `max`. On floats, `min` and `max` are C's
    `fmin` and `fmax` (IEEE minNum/maxNum: a NaN operand yields the other
    one); on integers they compare signed values.
  }];
  let assemblyFormat = "`<` $value `>`";
}

def Stencil_ReductionKindArrayAttr
    : TypedArrayAttrBase<Stencil_ReductionKindAttr,
                         "array of reduction kinds">;

def Stencil_DecompositionAttr : Stencil_Attr<"Decomposition", "decomp"> {
  let summary = "Which axes of a field are block-distributed across ranks";
  let description = [{
    One entry per axis, outermost first, as in seed 004's `layout(block, *)`:
    `block` splits the axis into contiguous blocks, one per rank along that
    axis of the process grid (uneven sizes allowed); `*` keeps the axis whole
    on every rank. The number of ranks is a run-time quantity and not part of
    the attribute.

    Example: `#stencil.decomp<block, block, *>`.
  }];
  let parameters = (ins
    ArrayRefParameter<"::mlir::stencil::AxisDistribution", "per-axis kind">:$axes
  );
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    bool isDistributed(unsigned axis) const {
      return getAxes()[axis] == AxisDistribution::Block;
    }
    unsigned getRank() const { return getAxes().size(); }
  }];
}

def Stencil_ScheduleAttr : Stencil_Attr<"Schedule", "schedule"> {
  let summary = "Performance parameters chosen for a stencil computation";
  let description = [{
    The parameter vector of seed 000 §3.1 plus the exchange depth of
    seed 001 §3.2, written by the tuning passes (or by hand) and read by the
    lowering passes:

    - `wg`: the work-group shape (W, H, D), innermost axis *last*, like the
      grid and the C array; one work item per point on GPUs, one tile per
      task on CPUs. Its rank must equal the rank of the grid it schedules.
    - `tile`: the points one work group computes per sweep (optional, defaults
      to `wg`); each entry is a multiple of the `wg` entry, so a tile of
      `[256, 8, 32]` over `wg = [1, 8, 32]` is a sweep along the outer axis.
    - `time_block`: T, time steps computed per pass over memory (overlapped
      temporal blocking, seed 000 Fig. 3). 1 means no temporal blocking.
    - `exchange_depth`: k, time steps per halo exchange of a distributed field
      (seed 001); the exchanged halo is k times the stencil radius.
    - `streaming_stores`: CPU sweeps without time blocking (every step when
      `time_block` is 1, else the steps left over after the whole blocks)
      write their destination with non-temporal vector stores, which skip
      the read for ownership of each written line; this pays when the fields
      a sweep touches do not fit in the last-level cache. Printed only when
      true.

    Example: `#stencil.schedule<wg = [1, 8, 32], time_block = 2>`.
  }];
  let parameters = (ins
    ArrayRefParameter<"int64_t", "work-group shape">:$wg,
    ArrayRefParameter<"int64_t", "tile shape (empty: same as wg)">:$tile,
    "int64_t":$timeBlock,
    "int64_t":$exchangeDepth,
    DefaultValuedParameter<"bool", "false">:$streamingStores
  );
  let builders = [
    AttrBuilder<(ins "::llvm::ArrayRef<int64_t>":$wg,
                     CArg<"int64_t", "1">:$timeBlock,
                     CArg<"int64_t", "1">:$exchangeDepth,
                     CArg<"bool", "false">:$streamingStores), [{
      return $_get($_ctxt, wg, ::llvm::ArrayRef<int64_t>(), timeBlock,
                   exchangeDepth, streamingStores);
    }]>
  ];
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The tile, `wg` when none was given.
    ::llvm::ArrayRef<int64_t> getTileOrWorkGroup() const {
      return getTile().empty() ? getWg() : getTile();
    }
    unsigned getRank() const { return getWg().size(); }
  }];
}

#endif // STENCIL_DIALECT_STENCIL_IR_STENCILATTRS_TD
