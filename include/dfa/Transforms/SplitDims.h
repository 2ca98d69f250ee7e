//===- SplitDims.h - how a split of an op's result splits its operands -*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// One rule for every stage that cuts ops into pieces along a dim of their
/// result: the lowering running a kernel as chunks (Chunk.cpp) and
/// graph-shard splitting a chain of activations across chips. Each piece
/// computes a contiguous range of the result's dim `d` from the same range
/// of its operands' mapped dims (and whole operands elsewhere).
///
//===----------------------------------------------------------------------===//

#ifndef DFA_TRANSFORMS_SPLITDIMS_H
#define DFA_TRANSFORMS_SPLITDIMS_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace dfa {

/// An operand every piece reads whole.
constexpr int64_t kWholeOperand = -1;

/// The dim of each operand of `op` that follows a split of its (first)
/// result along `d` (kWholeOperand: read whole), or none when `op` cannot
/// be split so (a softmax along `d`, a reduction over it, a reshape that
/// merges `d` with its neighbours). A mapped dim has the extent of `d`.
std::optional<llvm::SmallVector<int64_t, 4>> splitOperandDims(mlir::Operation *op,
                                                              int64_t d);

/// A window of a tensor: each dim's first index and extent.
struct Window {
  llvm::SmallVector<int64_t> start, size;
};

/// `type` with the window's extents: the type of one piece.
mlir::RankedTensorType windowType(mlir::RankedTensorType type, const Window &w);

/// The window of a reshape's input (of shape `in`) that holds the window
/// `w` of its result (of shape `out`), the same elements, or none where
/// they are not one window of the input. Dims are matched in groups of
/// equal products; a group that merges input dims (GQA's key heads and
/// their repeats into the query heads) holds a range of the merged dim
/// where it is whole below one input dim, a range of that dim and one
/// index of each above; a group that splits one input dim holds an
/// interval of it.
std::optional<Window> reshapeWindow(llvm::ArrayRef<int64_t> in, llvm::ArrayRef<int64_t> out,
                                    const Window &w);

/// `type` with dim `d` (if >= 0) set to `extent`: the type of one piece.
mlir::RankedTensorType chunkType(mlir::RankedTensorType type, int64_t d,
                                 int64_t extent);

} // namespace dfa

#endif // DFA_TRANSFORMS_SPLITDIMS_H
