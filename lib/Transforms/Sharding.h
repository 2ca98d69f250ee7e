//===- Sharding.h - how a split of a tensor crosses ops ----------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The shape rules of graph-shard's tensor parallelism, as plain functions
// over shapes (unit-tested in test/unit/Transforms/ShardingTest.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef DFA_LIB_TRANSFORMS_SHARDING_H
#define DFA_LIB_TRANSFORMS_SHARDING_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/ArrayRef.h"

#include <algorithm>
#include <cstdint>
#include <optional>

namespace dfa::shard {

/// A split of a tensor among chips: dim `dim` seen as `block` groups, each
/// cut into equal contiguous parts (block 1: the dim itself cut into
/// parts). A reshape that merges an outer dim into the split one
/// ([B, H, S, D] split along H to [B*H, S, D]) makes blocks. Of N chips,
/// each run of `replicas` consecutive chips holds the same part, so there
/// are N / replicas parts: the K/V heads of a GQA model with fewer K/V
/// heads than chips (two heads over eight chips: each held by four), as
/// vLLM and TensorRT-LLM replicate them; 1 is one part per chip.
struct SplitDim {
  int64_t dim = -1;
  int64_t block = 1;
  int64_t replicas = 1;
  /// The parts the dim is cut into over `chips` chips.
  int64_t parts(int64_t chips) const {
    return chips / std::max<int64_t>(1, replicas);
  }
  bool operator==(const SplitDim &o) const {
    return dim == o.dim && block == o.block && replicas == o.replicas;
  }
  bool operator!=(const SplitDim &o) const { return !(*this == o); }
};

/// Where split `s` of a tensor of shape `in` among `n` chips lands when the
/// tensor is reshaped to `out`: the dim (and its blocks) of `out` whose
/// split gives every chip the same elements, or nullopt when none does.
/// Every chip holds, of each of the G = in[0] x ... x in[dim-1] x block
/// groups of the tensor's elements in order, the c-th n-th; a dim e of
/// `out` splits the same way when G is the elements of out's dims before e
/// times some block b_e that divides out[e], with out[e] / b_e dividing by
/// n ([B, S, H*D] split along H*D reshapes to [B, S, H, D] split along H;
/// [B, H, S, D] split along H to [B*H, S, D] split along B*H in B blocks,
/// and back). The parts are `s.parts(n)`; the result keeps `s.replicas`.
std::optional<SplitDim> reshapeSplit(llvm::ArrayRef<int64_t> in,
                                     llvm::ArrayRef<int64_t> out, SplitDim s,
                                     int64_t n);

} // namespace dfa::shard

namespace dfa {
namespace target {
struct Target;
}
/// graph-shard's tensor-parallel mode (TensorParallel.cpp): makes `module`
/// the program each of `chips` chips runs; counts the collectives inserted
/// and the ops split.
mlir::LogicalResult partitionTensorParallel(mlir::ModuleOp module,
                                            const target::Target &t,
                                            int64_t chips, bool remarks,
                                            int64_t &collectives,
                                            int64_t &partitioned);
} // namespace dfa

#endif // DFA_LIB_TRANSFORMS_SHARDING_H
