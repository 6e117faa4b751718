//===- StencilTypes.td - Stencil dialect types -------------*- tablegen -*-===//

#ifndef STENCIL_DIALECT_STENCIL_IR_STENCILTYPES_TD
#define STENCIL_DIALECT_STENCIL_IR_STENCILTYPES_TD

include "Stencil/Dialect/Stencil/IR/StencilBase.td"
include "Stencil/Dialect/Stencil/IR/StencilAttrs.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinTypeInterfaces.td"

class Stencil_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<Stencil_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

def Stencil_FieldType : Stencil_Type<"Field", "field",
    [ShapedTypeInterface]> {
  let summary = "A 1-D to 3-D grid of f32, f64, i32 or i64 values, halo included";
  let description = [{
    A field is the whole storage of one array of the program: its index space
    is `[0, size)` along every axis, boundary and halo cells included, so that
    `stencil.access` offsets and `stencil.grid` bounds address exactly the
    elements of the C array or memref it comes from. Sizes are static or `?`.

    The cells of a field that an apply on grid `[lb, ub)` may read around the
    domain — its *halo* — are `[0, lb)` and `[ub, size)` along each axis; the
    verifier rejects accesses that would leave the field.

    A distributed field carries a `#stencil.decomp` that says which axes are
    split across ranks; only such fields may be the operand of
    `stencil.exchange`.

    Examples:

    ```mlir
    !stencil.field<4194304xf32>
    !stencil.field<?x2048xf64>
    !stencil.field<64x64xi32>
    !stencil.field<256x128x128xf32, #stencil.decomp<block, *, *>>
    ```
  }];
  let parameters = (ins
    ArrayRefParameter<"int64_t", "sizes of the field along each axis">:$shape,
    "::mlir::Type":$elementType,
    OptionalParameter<"::mlir::stencil::DecompositionAttr">:$decomposition
  );
  let builders = [
    TypeBuilderWithInferredContext<(ins
        "::llvm::ArrayRef<int64_t>":$shape, "::mlir::Type":$elementType,
        CArg<"::mlir::stencil::DecompositionAttr", "{}">:$decomposition), [{
      return $_get(elementType.getContext(), shape, elementType, decomposition);
    }]>
  ];
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// ShapedTypeInterface: fields always have a rank.
    bool hasRank() const { return true; }
    /// ShapedTypeInterface: clone with a new shape and/or element type; the
    /// decomposition is kept when the rank does not change.
    FieldType cloneWith(std::optional<::llvm::ArrayRef<int64_t>> shape,
                        ::mlir::Type elementType) const;
    /// The memref type a field of this type is stored in at the boundaries of
    /// the dialect.
    ::mlir::MemRefType getMemRefType() const;
    /// Whether the field is split across ranks.
    bool isDistributed() const { return static_cast<bool>(getDecomposition()); }
  }];
}

def Stencil_GridType : Stencil_Type<"Grid", "grid"> {
  let summary = "An iteration domain of rank 1 to 3";
  let description = [{
    The type of the values produced by `stencil.grid`. It carries only the
    rank; the bounds are operands or attributes of the defining op so that
    they may be dynamic.

    Example: `!stencil.grid<3>`.
  }];
  let parameters = (ins "unsigned":$rank);
  let assemblyFormat = "`<` $rank `>`";
  let genVerifyDecl = 1;
}

def Stencil_AnyField : Type<CPred<"::llvm::isa<::mlir::stencil::FieldType>($_self)">,
                            "stencil field", "::mlir::stencil::FieldType">;

#endif // STENCIL_DIALECT_STENCIL_IR_STENCILTYPES_TD
