//===- GraphDialect.h - graph dialect ---------------------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef DIALECTS_GRAPH_GRAPHDIALECT_H
#define DIALECTS_GRAPH_GRAPHDIALECT_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Dialect.h"

#include "dialects/Graph/GraphDialect.h.inc"

#endif // DIALECTS_GRAPH_GRAPHDIALECT_H
