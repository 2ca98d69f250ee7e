//===- SchedDialect.cpp - sched dialect registration ------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "dialects/Sched/SchedOps.h"

#include "dialects/Graph/GraphDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace dfa::sched;

#include "dialects/Sched/SchedDialect.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "dialects/Sched/SchedTypes.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "dialects/Sched/SchedAttrs.cpp.inc"

#define GET_OP_CLASSES
#include "dialects/Sched/SchedOps.cpp.inc"

void SchedDialect::initialize() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "dialects/Sched/SchedTypes.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "dialects/Sched/SchedAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "dialects/Sched/SchedOps.cpp.inc"
      >();
}

dfa::sched::BufferSite dfa::sched::siteOf(mlir::Value buffer) {
  BufferSite s;
  mlir::Operation *def = buffer.getDefiningOp();
  if (!def)
    return s;
  auto get = [&](llvm::StringRef name) {
    return def->getAttrOfType<mlir::IntegerAttr>(name);
  };
  if (mlir::IntegerAttr c = get("chip"))
    s.chip = c.getInt();
  if (mlir::IntegerAttr u = get("unit")) {
    s.unitBegin = u.getInt();
    mlir::IntegerAttr e = get("unit_end");
    s.unitEnd = e ? e.getInt() : s.unitBegin + 1;
  }
  return s;
}
