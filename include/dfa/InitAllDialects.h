//===- InitAllDialects.h - register every dfa dialect -----------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef DFA_INITALLDIALECTS_H
#define DFA_INITALLDIALECTS_H

#include "dialects/Graph/GraphDialect.h"
#include "dialects/Sched/SchedDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/DialectRegistry.h"

namespace dfa {

/// Adds every dialect a dfa tool parses or produces to `registry`.
inline void registerAllDialects(mlir::DialectRegistry &registry) {
  registry.insert<graph::GraphDialect, sched::SchedDialect, mlir::func::FuncDialect>();
}

} // namespace dfa

#endif // DFA_INITALLDIALECTS_H
