//===- ShardingTest.cpp - how a split crosses a reshape ----------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "lib/Transforms/Sharding.h"

#include <catch2/catch.hpp>

using dfa::shard::reshapeSplit;
using dfa::shard::SplitDim;

namespace {
/// The split `s` lands on, as "dim/block" and "xR" when R chips hold each
/// part ("none" without one).
std::string landed(std::vector<int64_t> in, std::vector<int64_t> out, SplitDim s,
                   int64_t n) {
  std::optional<SplitDim> e = reshapeSplit(in, out, s, n);
  if (!e)
    return "none";
  std::string r = std::to_string(e->dim) + "/" + std::to_string(e->block);
  return e->replicas == 1 ? r : r + "x" + std::to_string(e->replicas);
}
} // namespace

TEST_CASE("a split of the heads survives splitting and merging them",
          "[transforms][shard]") {
  // [B, S, H*D] split along H*D is [B, S, H, D] split along H, and back.
  CHECK(landed({2, 8, 256}, {2, 8, 4, 64}, {2, 1}, 4) == "2/1");
  CHECK(landed({2, 8, 4, 64}, {2, 8, 256}, {2, 1}, 4) == "2/1");
  // GQA's repeat: [B, Hkv, 1, S, D] to [B, Hkv, r, S, D] merged to
  // [B, Hkv*r, S, D]: the KV heads' split is the query heads'.
  CHECK(landed({1, 8, 4, 16, 128}, {1, 32, 16, 128}, {1, 1}, 8) == "1/1");
  // Size-1 dims before the split do not move it.
  CHECK(landed({1, 1, 512}, {1, 8, 64}, {2, 1}, 4) == "1/1");
}

TEST_CASE("merging an outer dim into the split one makes blocks",
          "[transforms][shard]") {
  // [B, H, S, D] split along H, merged to [B*H, S, D] (a batched matmul
  // over batch x heads): B blocks of H each hold the chip's heads; the
  // reshape back splits H again.
  CHECK(landed({2, 4, 17, 16}, {8, 17, 16}, {1, 1}, 2) == "0/2");
  CHECK(landed({8, 16, 17}, {2, 4, 16, 17}, {0, 2}, 2) == "1/1");
  // Splitting the inner dim of a merge interleaves the parts: blocks.
  CHECK(landed({2, 4, 64}, {2, 256}, {2, 1}, 4) == "1/4");
  CHECK(landed({4, 6}, {24}, {1, 1}, 2) == "0/4");
}

TEST_CASE("a split that a reshape scatters has no dim", "[transforms][shard]") {
  // Four heads over eight chips: the heads do not divide.
  CHECK(landed({2, 8, 256}, {2, 8, 4, 64}, {2, 1}, 8) == "none");
  // The split dim's elements land in front of the dims before it.
  CHECK(landed({4, 6}, {6, 4}, {1, 1}, 2) == "none");
  // No split over one chip, of a dim that is not there, or of blocks that
  // do not divide the dim.
  CHECK(landed({4, 6}, {24}, {0, 1}, 1) == "none");
  CHECK(landed({4, 6}, {24}, {2, 1}, 2) == "none");
  CHECK(landed({4, 6}, {24}, {1, 4}, 2) == "none");
}

TEST_CASE("a part held by several chips splits by its parts",
          "[transforms][shard]") {
  // Two K/V heads over eight chips, each held by four: [B, S, 2*D] is
  // [B, S, 2, D] split along the heads in two parts.
  CHECK(landed({2, 8, 128}, {2, 8, 2, 64}, {2, 1, 4}, 8) == "2/1x4");
  // Without the replicas the heads do not divide.
  CHECK(landed({2, 8, 128}, {2, 8, 2, 64}, {2, 1, 1}, 8) == "none");
  // GQA's repeat keeps them: [B, 2, 4, S, D] merged to [B, 8, S, D].
  CHECK(landed({1, 2, 4, 16, 64}, {1, 8, 16, 64}, {1, 1, 4}, 8) == "1/1x4");
  // Replicas that do not divide the chips, or leave one part, split
  // nothing.
  CHECK(landed({2, 8, 128}, {2, 8, 2, 64}, {2, 1, 3}, 8) == "none");
  CHECK(landed({2, 8, 128}, {2, 8, 2, 64}, {2, 1, 8}, 8) == "none");
}

TEST_CASE("a split's parts follow from its replicas", "[transforms][shard]") {
  CHECK(SplitDim{1, 1, 1}.parts(8) == 8);
  CHECK(SplitDim{1, 1, 4}.parts(8) == 2);
  CHECK(SplitDim{1, 1, 4} != SplitDim{1, 1, 2});
  CHECK(SplitDim{1, 2, 4} == SplitDim{1, 2, 4});
}
