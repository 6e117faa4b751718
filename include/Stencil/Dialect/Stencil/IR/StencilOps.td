//===- StencilOps.td - Stencil dialect operations ----------*- tablegen -*-===//

#ifndef STENCIL_DIALECT_STENCIL_IR_STENCILOPS_TD
#define STENCIL_DIALECT_STENCIL_IR_STENCILOPS_TD

include "Stencil/Dialect/Stencil/IR/StencilBase.td"
include "Stencil/Dialect/Stencil/IR/StencilAttrs.td"
include "Stencil/Dialect/Stencil/IR/StencilTypes.td"
include "Stencil/Dialect/Stencil/IR/StencilInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/LoopLikeInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// stencil.grid
//===----------------------------------------------------------------------===//

def Stencil_GridOp : Stencil_Op<"grid", [Pure, AttrSizedOperandSegments]> {
  let summary = "The iteration domain of a stencil computation";
  let description = [{
    Defines the box `[lower, upper)` of grid points that a `stencil.apply`
    computes, one entry per axis, outermost first (the order of the C array's
    subscripts and of `#pragma stencil dimension`). Bounds index field
    storage, which starts at 0, so `[1, 255)` over a 256-point axis leaves a
    halo of one cell on each side. A bound is a constant or an `index` value.

    ```mlir
    %g = stencil.grid [1, 1, 1] to [255, 255, 255] : !stencil.grid<3>
    %h = stencil.grid [1, 1] to [%n, 2047] : !stencil.grid<2>
    ```
  }];
  let arguments = (ins
    Variadic<Index>:$dynamic_lower,
    Variadic<Index>:$dynamic_upper,
    DenseI64ArrayAttr:$static_lower,
    DenseI64ArrayAttr:$static_upper
  );
  let results = (outs Stencil_GridType:$result);
  let assemblyFormat = [{
    custom<DynamicIndexList>($dynamic_lower, $static_lower) `to`
    custom<DynamicIndexList>($dynamic_upper, $static_upper)
    attr-dict `:` qualified(type($result))
  }];
  let builders = [
    OpBuilder<(ins "::llvm::ArrayRef<int64_t>":$lower,
                   "::llvm::ArrayRef<int64_t>":$upper)>,
    /// Bounds that are constants or `index` values.
    OpBuilder<(ins "::llvm::ArrayRef<::mlir::OpFoldResult>":$lower,
                   "::llvm::ArrayRef<::mlir::OpFoldResult>":$upper)>
  ];
  let extraClassDeclaration = [{
    unsigned getRank() { return getType().getRank(); }
    /// True when every bound is a constant.
    bool hasStaticBounds();
    /// The number of points along `axis`, when both its bounds are
    /// constants.
    std::optional<int64_t> getStaticExtent(unsigned axis);
  }];
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
}

//===----------------------------------------------------------------------===//
// stencil.apply
//===----------------------------------------------------------------------===//

def Stencil_ApplyOp : Stencil_Op<"apply", [
    IsolatedFromAbove, AttrSizedOperandSegments, RecursiveMemoryEffects,
    DeclareOpInterfaceMethods<Stencil_DomainOpInterface>
  ]> {
  let summary = "Apply a stencil function at every point of a grid";
  let description = [{
    The stencil function of seed 000 §3.4. The region runs once per point of
    `grid`; its arguments stand for the `ins` operands — fields read with
    `stencil.access` at constant offsets, and scalars (coefficients, the C
    function's variables) used as they are. It returns one element value per
    `outs` field. The op is isolated from above: everything the function
    needs enters through `ins`, so it can become a GPU kernel as it is.

    Each field result equals its `outs` operand outside the grid and the
    returned value on it (destination passing style with value semantics:
    the `outs` field is not modified). Reading an `outs` field through `ins`
    therefore sees the values from before the apply, at any offset.

    An apply may also reduce values over its grid (Himeno's residual
    `gosa += ss*ss`): `reduce(kind %init : type, ...)` adds one scalar
    result per reduction, after the fields, and the body returns one
    contribution per reduction after the output values. A reduction's
    result is `init` combined with the contributions of all grid points by
    `kind` (`#stencil.reduction`), in an unspecified order: floating-point
    sums and products may differ from a sequential loop by reassociation.
    An apply that reduces may write no field (`outs()`, a checksum): it
    then reads at least one field, which gives the grid's rank.

    Every access must stay inside the accessed field: with grid `[lb, ub)`,
    offset `o` along an axis of size `n` needs `lb + o >= 0` and
    `ub + o <= n`. An optional `schedule` attribute carries the tuned
    work-group shape; its `time_block` must be 1 (temporal blocking is a
    property of `stencil.iterate`).

    ```mlir
    %b1 = stencil.apply on %g ins(%a = %a0 : !stencil.field<66xf32>,
                                  %c = %c0 : f32)
                              outs(%b0 : !stencil.field<66xf32>) {
      %l = stencil.access %a[-1] : !stencil.field<66xf32>
      %r = stencil.access %a[1] : !stencil.field<66xf32>
      %s = arith.addf %l, %r : f32
      %v = arith.mulf %c, %s : f32
      stencil.return %v : f32
    }
    %b2, %sum = stencil.apply on %g ins(%a = %a0 : !stencil.field<66xf32>)
        outs(%b0 : !stencil.field<66xf32>) reduce(add %zero : f32) {
      %v = stencil.access %a[0] : !stencil.field<66xf32>
      %sq = arith.mulf %v, %v : f32
      stencil.return %v, %sq : f32, f32
    }
    ```
  }];
  let arguments = (ins
    Stencil_GridType:$grid,
    Variadic<AnyType>:$inputs,
    Variadic<Stencil_AnyField>:$outputs,
    Variadic<AnyTypeOf<[AnySignlessInteger, AnyFloat]>>:$reduce_inits,
    OptionalAttr<Stencil_ScheduleAttr>:$schedule,
    OptionalAttr<Stencil_ReductionKindArrayAttr>:$reductions
  );
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let hasCanonicalizer = 1;
  let skipDefaultBuilders = 1;
  let builders = [
    /// Builds an apply with an entry block whose arguments have the types of
    /// `inputs`; the caller fills the body and its `stencil.return`.
    OpBuilder<(ins "::mlir::Value":$grid, "::mlir::ValueRange":$inputs,
                   "::mlir::ValueRange":$outputs,
                   CArg<"::mlir::stencil::ScheduleAttr", "{}">:$schedule)>,
    /// The same with reductions: one kind per init.
    OpBuilder<(ins "::mlir::Value":$grid, "::mlir::ValueRange":$inputs,
                   "::mlir::ValueRange":$outputs,
                   "::mlir::ValueRange":$reduceInits,
                   "::llvm::ArrayRef<::mlir::stencil::ReductionKind>":$kinds,
                   CArg<"::mlir::stencil::ScheduleAttr", "{}">:$schedule)>
  ];
  let extraClassDeclaration = [{
    ::mlir::Block *getBodyBlock() { return &getBody().front(); }
    unsigned getRank() {
      return ::llvm::cast<GridType>(getGrid().getType()).getRank();
    }
    /// The `stencil.grid` defining the domain, if the grid is not a block
    /// argument.
    GridOp getGridOp();
    /// The results that are fields, one per output, and the reduced
    /// scalars, one per reduction.
    ::mlir::ResultRange getFieldResults() {
      return getResults().take_front(getOutputs().size());
    }
    ::mlir::ResultRange getReductionResults() {
      return getResults().drop_front(getOutputs().size());
    }
    unsigned getNumReductions() { return getReduceInits().size(); }
    /// The kind of each reduction, in order.
    ::llvm::SmallVector<ReductionKind> getReductionKinds();
    /// The type of the first field written, else of the first read of the
    /// grid's rank: the fields' shape (an apply that only reduces writes
    /// none).
    FieldType getFirstFieldType();
  }];
}

def Stencil_AccessOp : Stencil_Op<"access", [
    Pure, DeclareOpInterfaceMethods<Stencil_FieldAccessOpInterface>,
    TypesMatchWith<"result type is the field's element type", "field",
                   "result",
                   "::llvm::cast<::mlir::stencil::FieldType>($_self).getElementType()">
  ]> {
  let summary = "Read a field at a constant offset from the current point";
  let description = [{
    Valid only in the body of a `stencil.apply`, on one of its field
    arguments. The offset has one entry per axis of the field, outermost
    first; the extents of all accesses give the halo each field needs.

    ```mlir
    %w = stencil.access %a[0, 0, -1] : !stencil.field<256x256x256xf32>
    ```

    A field with fewer axes than the grid (a coefficient table `cx[i]` in an
    `i, j, k` nest, Physis's mixed-dimension grids) is read `along` the grid
    axes its own axes follow, one distinct grid axis per field axis, in any
    order: field axis `d` is read at the point's coordinate along grid axis
    `along[d]` plus `offset[d]`, and the field is the same at every
    coordinate along the other grid axes. Without `along`, the field has the
    grid's rank and its axes are the grid's.

    ```mlir
    // cz[k - 1] and cyz[j][k + 1] in a 3-D nest
    %c = stencil.access %cz[-1] along [2] : !stencil.field<64xf32>
    %d = stencil.access %cyz[0, 1] along [1, 2] : !stencil.field<64x64xf32>
    ```
  }];
  let arguments = (ins Stencil_AnyField:$field, DenseI64ArrayAttr:$offset,
                       OptionalAttr<DenseI64ArrayAttr>:$along);
  let results = (outs AnyTypeOf<[AnyFloat, AnySignlessInteger]>:$result);
  let assemblyFormat = [{
    $field `` custom<Offset>($offset) (`along` custom<Offset>($along)^)?
    attr-dict `:` qualified(type($field))
  }];
  let extraClassDeclaration = [{
    /// The grid axis that each field axis runs along (the identity when
    /// the field has the grid's rank).
    ::llvm::SmallVector<int64_t, 3> getGridAxes();
  }];
  let hasVerifier = 1;
}

def Stencil_IndexOp : Stencil_Op<"index", [
    Pure, HasParent<"ApplyOp">
  ]> {
  let summary = "The coordinate of the current point along one axis";
  let description = [{
    Valid only in the body of a `stencil.apply`: the index of the point being
    computed along axis `axis` (outermost 0), in the fields' index space, so
    the C program's loop variable (`i*dx`, `(i*j) % 13`). It is the same on
    every backend, and in the global view on distributed fields: a rank
    computing its block sees the global index.

    ```mlir
    %i = stencil.index 0
    ```
  }];
  let arguments = (ins ConfinedAttr<I64Attr, [IntNonNegative]>:$axis);
  let results = (outs Index:$result);
  let assemblyFormat = "$axis attr-dict";
  let hasVerifier = 1;
}

def Stencil_ReturnOp : Stencil_Op<"return", [
    Pure, HasParent<"ApplyOp">, Terminator, ReturnLike
  ]> {
  let summary = "Return the values of a stencil function at one point";
  let description = [{
    Terminates a `stencil.apply` body with one value per `outs` field, of the
    field's element type, then one contribution per reduction, of the
    reduction's type.
  }];
  let arguments = (ins Variadic<AnyType>:$values);
  let assemblyFormat = "attr-dict ($values^ `:` type($values))?";
}

//===----------------------------------------------------------------------===//
// stencil.iterate
//===----------------------------------------------------------------------===//

def Stencil_IterateOp : Stencil_Op<"iterate", [
    RecursiveMemoryEffects,
    DeclareOpInterfaceMethods<RegionBranchOpInterface,
                              ["getEntrySuccessorOperands"]>,
    // getInitsMutable is the accessor ODS generates for `inits`.
    DeclareOpInterfaceMethods<LoopLikeOpInterface,
                              ["getRegionIterArgs", "getYieldedValuesMutable",
                               "getLoopResults"]>
  ]> {
  let summary = "The time loop: run the body a number of steps over fields";
  let description = [{
    The time loop of seed 000 Fig. 4 with its fields carried from step to
    step. The body's arguments are bound to `iter_args` for the first step
    and to the operands of `stencil.yield` for each next step; the results
    are the values yielded by the last step (the initial values when `steps`
    is 0). A yield that exchanges two arguments is the pointer swap of the C
    program made explicit; a yield of freshly computed fields is the copy
    section. Besides fields, the loop may carry scalars (integers, floats,
    indices): a reduction that accumulates across steps, or the value of the
    C program's step variable.

    `schedule`'s `time_block` T > 1 asks the lowering to compute T steps per
    pass over memory (overlapped tiles); it must be set here, where the time
    loop is, and its `wg` rank must equal the rank of every grid in the body.

    The op is a `RegionBranchOpInterface` (the body is entered from the
    inits and re-entered from the yield; the results come from the inits
    when `steps` is 0, else from the last yield) and a
    `LoopLikeOpInterface`, so upstream analyses and transformations, such
    as loop-invariant code motion, see through it.

    ```mlir
    %r:2 = stencil.iterate %steps iter_args(%a = %a0, %b = %b0)
        : !stencil.field<66xf32>, !stencil.field<66xf32> {
      %b1 = stencil.apply on %g ins(%x = %a : !stencil.field<66xf32>)
                              outs(%b : !stencil.field<66xf32>) { ... }
      stencil.yield %b1, %a : !stencil.field<66xf32>, !stencil.field<66xf32>
    }
    ```
  }];
  let arguments = (ins
    Index:$steps,
    Variadic<AnyTypeOf<[Stencil_AnyField, AnySignlessInteger, AnyFloat,
                        Index]>>:$inits,
    OptionalAttr<Stencil_ScheduleAttr>:$schedule
  );
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let hasCanonicalizer = 1;
  let skipDefaultBuilders = 1;
  let builders = [
    /// Builds a loop whose entry block has one argument per init; the caller
    /// fills the body and its `stencil.yield`.
    OpBuilder<(ins "::mlir::Value":$steps, "::mlir::ValueRange":$inits,
                   CArg<"::mlir::stencil::ScheduleAttr", "{}">:$schedule)>
  ];
  let extraClassDeclaration = [{
    ::mlir::Block *getBodyBlock() { return &getBody().front(); }
  }];
}

def Stencil_YieldOp : Stencil_Op<"yield", [
    Pure, HasParent<"IterateOp">, Terminator, ReturnLike
  ]> {
  let summary = "The fields and scalars carried into the next time step";
  let arguments = (ins Variadic<AnyType>:$values);
  let assemblyFormat = "attr-dict ($values^ `:` qualified(type($values)))?";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// stencil.exchange
//===----------------------------------------------------------------------===//

def Stencil_ExchangeOp : Stencil_Op<"exchange", [
    Pure, AllTypesMatch<["field", "result"]>
  ]> {
  let summary = "Refresh the halo of a distributed field from its neighbours";
  let description = [{
    Seed 001 §2.1's halo exchange and seed 004's `reflect`: after it, every
    rank's copy of `widths[d]` cells beyond its block along each distributed
    axis `d` holds its neighbour's current values. In the global view of the
    field this is the identity — the op marks where the lowering to ranks
    must communicate, and with which width. Widths along axes that are not
    distributed must be 0; the field must carry a `#stencil.decomp`.

    ```mlir
    %p1 = stencil.exchange %p widths [1, 1, 0]
        : !stencil.field<256x128x128xf32, #stencil.decomp<block, block, *>>
    ```
  }];
  let arguments = (ins Stencil_AnyField:$field, DenseI64ArrayAttr:$widths);
  let results = (outs Stencil_AnyField:$result);
  let assemblyFormat = [{
    $field `widths` custom<Offset>($widths) attr-dict `:` qualified(type($field))
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// stencil.load / stencil.store
//===----------------------------------------------------------------------===//

def Stencil_LoadOp : Stencil_Op<"load", [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>
  ]> {
  let summary = "Take the contents of a memref as a field";
  let description = [{
    The field equals the memref's contents at this point of the program, all
    cells (halo included). Element type and shape must match; a `?` on
    either side matches any size.

    ```mlir
    %a = stencil.load %A : memref<256x256xf32> -> !stencil.field<256x256xf32>
    ```
  }];
  let arguments = (ins AnyMemRef:$memref);
  let results = (outs Stencil_AnyField:$result);
  let assemblyFormat = [{
    $memref attr-dict `:` type($memref) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def Stencil_StoreOp : Stencil_Op<"store", [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>
  ]> {
  let summary = "Write all cells of a field into a memref";
  let description = [{
    ```mlir
    stencil.store %a to %A : !stencil.field<256x256xf32> to memref<256x256xf32>
    ```
  }];
  let arguments = (ins Stencil_AnyField:$field, AnyMemRef:$memref);
  let assemblyFormat = [{
    $field `to` $memref attr-dict `:` qualified(type($field)) `to` type($memref)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// stencil.write_raw
//===----------------------------------------------------------------------===//

def Stencil_WriteRawOp : Stencil_Op<"write_raw", [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>
  ]> {
  let summary = "Write all cells of a field to a file, in C order";
  let description = [{
    Creates (or truncates) the file whose NUL-terminated name starts at the
    element of `path` and writes every cell of the field into it as raw
    bytes, the last axis fastest: the bytes of the C array the field models
    (`stencil_write_raw(A, path)` of `stencil_io.h`). On a distributed field
    the write is collective: each rank writes its own block at its place in
    the file (MPI-IO), so the global array never exists in one memory. A
    file that cannot be written stops the program with a message. A null
    `path` writes nothing (`if (c) stencil_write_raw(A, f);`, its
    condition evaluated by the caller). It stands outside time loops: a
    time block computes steps in an order of its own.

    ```mlir
    stencil.write_raw %a to %path : !stencil.field<64x64xf32> to memref<i8>
    ```
  }];
  let arguments = (ins Stencil_AnyField:$field, MemRefRankOf<[I8], [0]>:$path);
  let assemblyFormat = [{
    $field `to` $path attr-dict `:` qualified(type($field)) `to` type($path)
  }];
  let hasVerifier = 1;
}

#endif // STENCIL_DIALECT_STENCIL_IR_STENCILOPS_TD
