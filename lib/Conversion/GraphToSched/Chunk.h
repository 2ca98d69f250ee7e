//===- Chunk.h - splitting a kernel into chunks -----------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// Private to lib/Conversion/GraphToSched. A kernel whose operands do not fit the
/// scratchpad runs as chunks along one dim of its output: each chunk's
/// operand slices are copied in, computed and copied out, while the next
/// chunk's copies overlap it. `splitKernel` says, for a dim of the output,
/// which dim of every value in the kernel's body follows it (or that the
/// value is needed whole by every chunk, e.g. a weight when the rows are
/// split), and fails when some op cannot be split that way (a reduction
/// over that dim, a causal attention over its rows, ...).
///
//===----------------------------------------------------------------------===//

#ifndef LIB_CONVERSION_GRAPHTOSCHED_CHUNK_H
#define LIB_CONVERSION_GRAPHTOSCHED_CHUNK_H

#include "dfa/Transforms/SplitDims.h"
#include "dialects/Graph/GraphOps.h"

#include "llvm/ADT/DenseMap.h"

#include <optional>

namespace dfa {

struct KernelSplit {
  int64_t outDim = 0; // the split dim of the kernel's output
  llvm::DenseMap<mlir::Value, int64_t>
      dimOf; // body value -> split dim; -1: whole
  int64_t dim(mlir::Value v) const {
    auto it = dimOf.find(v);
    return it == dimOf.end() ? -1 : it->second;
  }
};

/// How kernel `k` (one output) splits along dim `d` of its output.
std::optional<KernelSplit> splitKernel(graph::KernelOp k, int64_t d);

} // namespace dfa

#endif // LIB_CONVERSION_GRAPHTOSCHED_CHUNK_H
