//===- SchedOps.h - sched dialect operations --------------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef DIALECTS_SCHED_SCHEDOPS_H
#define DIALECTS_SCHED_SCHEDOPS_H

#include "dialects/Sched/SchedDialect.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#define GET_TYPEDEF_CLASSES
#include "dialects/Sched/SchedTypes.h.inc"

#define GET_ATTRDEF_CLASSES
#include "dialects/Sched/SchedAttrs.h.inc"

#define GET_OP_CLASSES
#include "dialects/Sched/SchedOps.h.inc"

#endif // DIALECTS_SCHED_SCHEDOPS_H
