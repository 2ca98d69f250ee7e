//===- GraphInterfaces.h - graph op interfaces ------------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef DIALECTS_GRAPH_GRAPHINTERFACES_H
#define DIALECTS_GRAPH_GRAPHINTERFACES_H

#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/PatternMatch.h"

namespace dfa::ref {
class Evaluator;
} // namespace dfa::ref

namespace dfa::graph {

/// Size in bytes of a statically shaped tensor type (i1 counts one byte).
int64_t tensorBytes(mlir::Type type);

/// Number of elements of a statically shaped tensor type.
int64_t tensorElements(mlir::Type type);

/// Default FLOP count: one operation per result element.
int64_t defaultFlops(mlir::Operation *op);

} // namespace dfa::graph

#include "dialects/Graph/GraphInterfaces.h.inc"

#endif // DIALECTS_GRAPH_GRAPHINTERFACES_H
