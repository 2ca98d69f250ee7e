//===- ShardingTest.cpp - how a split crosses a reshape ----------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "lib/Transforms/Sharding.h"

#include <catch2/catch.hpp>

using dfa::shard::reshapeSplitDim;

TEST_CASE("a split of the heads survives splitting and merging them",
          "[transforms][shard]") {
  // [B, S, H*D] split along H*D is [B, S, H, D] split along H, and back.
  CHECK(reshapeSplitDim({2, 8, 256}, {2, 8, 4, 64}, 2, 4) == 2);
  CHECK(reshapeSplitDim({2, 8, 4, 64}, {2, 8, 256}, 2, 4) == 2);
  // GQA's repeat: [B, Hkv, 1, S, D] to [B, Hkv, r, S, D] merged to
  // [B, Hkv*r, S, D]: the KV heads' split is the query heads'.
  CHECK(reshapeSplitDim({1, 8, 4, 16, 128}, {1, 32, 16, 128}, 1, 8) == 1);
  // Size-1 dims before the split do not move it.
  CHECK(reshapeSplitDim({1, 1, 512}, {1, 8, 64}, 2, 4) == 1);
}

TEST_CASE("a split that a reshape scatters has no dim", "[transforms][shard]") {
  // Four heads over eight chips: the heads do not divide.
  CHECK_FALSE(reshapeSplitDim({2, 8, 256}, {2, 8, 4, 64}, 2, 8));
  // Splitting the inner dim of a merge interleaves the parts.
  CHECK_FALSE(reshapeSplitDim({2, 4, 64}, {2, 256}, 2, 4));
  // The split dim's elements land in front of the dims before it.
  CHECK_FALSE(reshapeSplitDim({4, 6}, {24}, 1, 2));
  CHECK_FALSE(reshapeSplitDim({4, 6}, {6, 4}, 1, 2));
  // No split over one chip, or of a dim that is not there.
  CHECK_FALSE(reshapeSplitDim({4, 6}, {24}, 0, 1));
  CHECK_FALSE(reshapeSplitDim({4, 6}, {24}, 2, 2));
}
