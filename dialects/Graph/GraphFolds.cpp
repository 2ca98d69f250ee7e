//===- GraphFolds.cpp - graph op folders ------------------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "dialects/Graph/GraphOps.h"

#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace dfa::graph;

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValue(); }

OpFoldResult CastOp::fold(FoldAdaptor) {
  if (getInput().getType() == getOutput().getType())
    return getInput();
  // cast(cast(x : A -> B) -> A) is x when B holds every value of A exactly.
  if (auto inner = getInput().getDefiningOp<CastOp>()) {
    Type a = getElementTypeOrSelf(inner.getInput().getType());
    Type b = getElementTypeOrSelf(inner.getOutput().getType());
    if (inner.getInput().getType() == getOutput().getType() &&
        a.isIntOrFloat() && b.isIntOrFloat() &&
        a.getIntOrFloatBitWidth() < b.getIntOrFloatBitWidth() &&
        (isa<FloatType>(a) == isa<FloatType>(b)) && !a.isBF16())
      return inner.getInput();
  }
  return {};
}

OpFoldResult ReshapeOp::fold(FoldAdaptor adaptor) {
  if (getInput().getType() == getOutput().getType())
    return getInput();
  if (auto inner = getInput().getDefiningOp<ReshapeOp>()) {
    getInputMutable().assign(inner.getInput());
    return getResult();
  }
  if (auto dense = dyn_cast_or_null<DenseElementsAttr>(adaptor.getInput()))
    return dense.reshape(getOutput().getType());
  return {};
}

OpFoldResult TransposeOp::fold(FoldAdaptor) {
  ArrayRef<int64_t> perm = getPerm();
  for (int64_t i = 0, e = perm.size(); i < e; ++i)
    if (perm[i] != i)
      return {};
  return getInput();
}

OpFoldResult ConcatOp::fold(FoldAdaptor) {
  if (getInputs().size() == 1 &&
      getInputs()[0].getType() == getOutput().getType())
    return getInputs()[0];
  return {};
}
