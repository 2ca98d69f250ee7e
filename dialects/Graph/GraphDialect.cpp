//===- GraphDialect.cpp - graph dialect registration ------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "dialects/Graph/GraphDialect.h"
#include "dialects/Graph/GraphOps.h"

using namespace mlir;
using namespace dfa::graph;

#include "dialects/Graph/GraphDialect.cpp.inc"
#include "dialects/Graph/GraphInterfaces.cpp.inc"

void GraphDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "dialects/Graph/GraphOps.cpp.inc"
      >();
}

Operation *GraphDialect::materializeConstant(OpBuilder &builder,
                                             Attribute value, Type type,
                                             Location loc) {
  auto elements = dyn_cast<ElementsAttr>(value);
  if (!elements || elements.getType() != type)
    return nullptr;
  return builder.create<ConstantOp>(loc, elements);
}

int64_t dfa::graph::tensorElements(Type type) {
  auto shaped = cast<ShapedType>(type);
  return shaped.getNumElements();
}

int64_t dfa::graph::elementBytes(Type elementType) {
  int64_t bits = elementType.getIntOrFloatBitWidth();
  return std::max<int64_t>(1, (bits + 7) / 8);
}

int64_t dfa::graph::tensorBytes(Type type) {
  auto shaped = cast<ShapedType>(type);
  return shaped.getNumElements() * elementBytes(shaped.getElementType());
}
