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

/// Bits one element of an integer, float or graph minifloat type
/// (`!graph.f4E2M1FN`, ...) has. Every element width in dfa goes through it.
unsigned elementBits(mlir::Type elementType);

/// Bytes one element takes: ceil(elementBits / 8), at least 1 (i1 and 4-bit
/// types count one byte). Every byte count in dfa goes through it.
int64_t elementBytes(mlir::Type elementType);

/// Size in bytes of a statically shaped tensor type: elements times
/// elementBytes.
int64_t tensorBytes(mlir::Type type);

/// Number of elements of a statically shaped tensor type.
int64_t tensorElements(mlir::Type type);

/// Default FLOP count: one operation per result element.
int64_t defaultFlops(mlir::Operation *op);

} // namespace dfa::graph

#include "dialects/Graph/GraphInterfaces.h.inc"

#endif // DIALECTS_GRAPH_GRAPHINTERFACES_H
