//===- StencilInterfaces.td - Stencil op interfaces --------*- tablegen -*-===//
//
// Generic views of stencil ops, so that analyses (access extents, halo
// inference) and later passes work on any op that reads fields at offsets or
// computes over a grid, not on a fixed list of ops.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_DIALECT_STENCIL_IR_STENCILINTERFACES_TD
#define STENCIL_DIALECT_STENCIL_IR_STENCILINTERFACES_TD

include "mlir/IR/OpBase.td"

def Stencil_FieldAccessOpInterface : OpInterface<"FieldAccessOpInterface"> {
  let description = [{
    An op that reads one field at a constant offset from the current grid
    point. The offset has one entry per axis of the field, outermost first;
    a field with fewer axes than the grid names the grid axis each of its
    axes runs along (`getAccessAxes`).
  }];
  let cppNamespace = "::mlir::stencil";
  let methods = [
    InterfaceMethod<"The field value that is read.",
      "::mlir::Value", "getAccessedField">,
    InterfaceMethod<"The offset from the current point, outermost axis first.",
      "::llvm::ArrayRef<int64_t>", "getAccessOffset">,
    InterfaceMethod<[{
        The grid axis each entry of the offset runs along, outermost first
        (the identity for a field of the grid's rank).
      }],
      "::llvm::SmallVector<int64_t, 3>", "getAccessAxes">
  ];
  let extraSharedClassDeclaration = [{
    /// The offset in the grid's axes: zero along the axes the field lacks.
    ::llvm::SmallVector<int64_t, 3> getGridOffset(unsigned gridRank) {
      ::llvm::SmallVector<int64_t, 3> offset(gridRank, 0);
      for (auto [axis, o] : ::llvm::zip_equal($_op.getAccessAxes(),
                                              $_op.getAccessOffset()))
        offset[axis] = o;
      return offset;
    }
  }];
}

def Stencil_DomainOpInterface : OpInterface<"DomainOpInterface"> {
  let description = [{
    An op that computes one value per point of a `stencil.grid` domain from
    fields read through `FieldAccessOpInterface` ops in its single-block
    region. `getFieldForArgument` maps a region argument back to the operand
    it stands for, so that extents found inside the region can be charged to
    the SSA field outside.
  }];
  let cppNamespace = "::mlir::stencil";
  let methods = [
    InterfaceMethod<"The grid value giving the iteration domain.",
      "::mlir::Value", "getGrid">,
    InterfaceMethod<[{
        The operand bound to a region argument, or a null value when the
        argument is not one of the op's inputs.
      }],
      "::mlir::Value", "getFieldForArgument",
      (ins "::mlir::BlockArgument":$argument)>,
    InterfaceMethod<[{
        The fields written on the domain; result `i` equals written field `i`
        outside the domain.
      }],
      "::mlir::OperandRange", "getWrittenFields">
  ];
}

#endif // STENCIL_DIALECT_STENCIL_IR_STENCILINTERFACES_TD
