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

LogicalResult GraphDialect::verifyOperationAttribute(Operation *op,
                                                    NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  Attribute value = attr.getValue();
  auto fail = [&](const Twine &what) {
    return op->emitError() << "'" << name << "' " << what;
  };
  if (name == kSourceAttr || name == kTargetAttr || name == kNameAttr)
    return isa<StringAttr>(value) ? success() : fail("must be a string");
  if (name == kOpsetAttr)
    return isa<IntegerAttr>(value) ? success() : fail("must be an integer");
  if (name == kWeightStreamingAttr)
    return isa<UnitAttr>(value) ? success() : fail("must be a unit attribute");
  if (name == kFusionsRefusedAttr) {
    auto list = dyn_cast<ArrayAttr>(value);
    if (!list)
      return fail("must be an array of {op, kernel, reason}");
    for (Attribute e : list) {
      auto d = dyn_cast<DictionaryAttr>(e);
      if (!d || !d.getAs<StringAttr>("op") || !d.getAs<StringAttr>("kernel") ||
          !d.getAs<StringAttr>("reason"))
        return fail("entries must be {op, kernel, reason} strings");
    }
    return success();
  }
  return fail("is not an attribute of the graph dialect");
}

/// graph.name on a function's argument or result: the graph input's or
/// output's name.
static LogicalResult verifyNameAttribute(Operation *op, NamedAttribute attr,
                                         StringRef what) {
  if (attr.getName().getValue() != kNameAttr)
    return op->emitError() << "'" << attr.getName().getValue() << "' is not a "
                           << what << " attribute of the graph dialect";
  if (!isa<StringAttr>(attr.getValue()))
    return op->emitError() << "'" << kNameAttr << "' must be a string";
  return success();
}

LogicalResult GraphDialect::verifyRegionArgAttribute(Operation *op, unsigned,
                                                     unsigned,
                                                     NamedAttribute attr) {
  return verifyNameAttribute(op, attr, "argument");
}

LogicalResult GraphDialect::verifyRegionResultAttribute(Operation *op,
                                                        unsigned, unsigned,
                                                        NamedAttribute attr) {
  return verifyNameAttribute(op, attr, "result");
}
