//===- Chunk.cpp - splitting a kernel into chunks -------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Chunk.h"
#include "dfa/Transforms/SplitDims.h"
#include "dfa/Transforms/TargetModel.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace dfa;
using namespace dfa::graph;

namespace {

constexpr int64_t kWhole = kWholeOperand;
using Dims = SmallVector<int64_t, 4>;

/// Records that `v` is split along `d`; false on a conflict.
bool assign(KernelSplit &s, Value v, int64_t d) {
  auto [it, inserted] = s.dimOf.try_emplace(v, d);
  return inserted || it->second == d;
}
} // namespace

std::optional<KernelSplit> dfa::splitKernel(KernelOp k, int64_t d) {
  auto yield = cast<YieldOp>(k.getBlock().getTerminator());
  if (yield.getValues().size() != 1)
    return std::nullopt;
  KernelSplit s;
  s.outDim = d;
  if (!assign(s, yield.getValues()[0], d))
    return std::nullopt;
  // Backwards: every op's results are assigned by its users before it.
  for (Operation &op : llvm::reverse(k.getBlock().without_terminator())) {
    if (op.getNumResults() != 1)
      return std::nullopt;
    Value r = op.getResult(0);
    auto it = s.dimOf.find(r);
    if (it == s.dimOf.end())
      return std::nullopt;
    int64_t rd = it->second;
    if (op.getNumOperands() == 0) {
      // A constant in the body is used whole by every chunk.
      if (rd != kWhole)
        return std::nullopt;
      continue;
    }
    if (rd == kWhole) {
      for (Value in : op.getOperands())
        if (!assign(s, in, kWhole))
          return std::nullopt;
      continue;
    }
    std::optional<Dims> dims = splitOperandDims(&op, rd);
    if (!dims || dims->size() != op.getNumOperands())
      return std::nullopt;
    for (auto [in, od] : llvm::zip(op.getOperands(), *dims))
      if (!assign(s, in, od))
        return std::nullopt;
  }
  // Every kernel input is either split or whole.
  for (BlockArgument arg : k.getBlock().getArguments())
    s.dimOf.try_emplace(arg, kWhole);
  return s;
}
