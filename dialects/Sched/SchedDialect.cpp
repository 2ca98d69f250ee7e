//===- SchedDialect.cpp - sched dialect registration ------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "dialects/Sched/SchedOps.h"

#include "dialects/Graph/GraphDialect.h"
#include "dialects/Graph/GraphInterfaces.h"

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

#include "dialects/Sched/SchedInterfaces.cpp.inc"

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
  auto placed =
      llvm::dyn_cast_or_null<PlacedBufferOpInterface>(buffer.getDefiningOp());
  if (!placed) {
    // A program input: chip-wide, on the chip input_chips names (else 0).
    auto arg = llvm::dyn_cast<mlir::BlockArgument>(buffer);
    auto program = arg ? llvm::dyn_cast_or_null<ProgramOp>(
                             arg.getOwner()->getParentOp())
                       : ProgramOp();
    if (program)
      if (std::optional<llvm::ArrayRef<int64_t>> chips = program.getInputChips();
          chips && arg.getArgNumber() < chips->size())
        s.chip = (*chips)[arg.getArgNumber()];
    return s;
  }
  if (std::optional<uint64_t> c = placed.getChip())
    s.chip = int64_t(*c);
  if (std::optional<uint64_t> u = placed.getUnit()) {
    s.unitBegin = int64_t(*u);
    std::optional<uint64_t> e = placed.getUnitEnd();
    s.unitEnd = e ? int64_t(*e) : s.unitBegin + 1;
  }
  return s;
}

dfa::target::Layout dfa::sched::storedLayout(mlir::Value buffer,
                                             int64_t elemBytes) {
  mlir::RankedTensorType t = llvm::cast<BufferType>(buffer.getType()).getTensor();
  unsigned bits = 0; // packed sub-byte elements, when derived from the type
  if (elemBytes <= 0) {
    elemBytes = graph::elementBytes(t.getElementType());
    bits = graph::elementBits(t.getElementType());
  }
  auto placed =
      llvm::dyn_cast_or_null<PlacedBufferOpInterface>(buffer.getDefiningOp());
  graph::LayoutAttr layout = placed ? placed.getLayoutAttr() : graph::LayoutAttr();
  if (!layout)
    return target::Layout::rowMajor(t.getShape(), elemBytes).packBits(bits);
  return layout.apply(t.getShape(), elemBytes).packBits(bits);
}
