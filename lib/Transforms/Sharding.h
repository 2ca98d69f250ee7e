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

#include <cstdint>
#include <optional>

namespace dfa::shard {

/// Where a split of dim `d` of a tensor of shape `in` into `n` equal,
/// contiguous parts lands when the tensor is reshaped to `out`: the dim of
/// `out` whose split into `n` parts gives every part the same elements, or
/// nullopt when no dim does. Part c holds, for each index of the dims
/// before `d`, the c-th n-th of the rest; a dim `e` of `out` splits the
/// same way when the dims before it count as many elements as those before
/// `d` and both `in[d]` and `out[e]` divide by `n` ([B, S, H*D] split along
/// H*D reshapes to [B, S, H, D] split along H; [B, S, H, D] split along H
/// to [B, S, H*D] split along H*D).
std::optional<int64_t> reshapeSplitDim(llvm::ArrayRef<int64_t> in,
                                       llvm::ArrayRef<int64_t> out, int64_t d,
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
