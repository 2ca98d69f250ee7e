//===- SchedDialect.h - sched dialect ---------------------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef DIALECTS_SCHED_SCHEDDIALECT_H
#define DIALECTS_SCHED_SCHEDDIALECT_H

#include "dialects/Graph/GraphDialect.h"

#include "mlir/IR/Dialect.h"

#include "dialects/Sched/SchedDialect.h.inc"

#endif // DIALECTS_SCHED_SCHEDDIALECT_H
