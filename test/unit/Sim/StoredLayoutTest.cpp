//===- StoredLayoutTest.cpp - element offsets of stored layouts ------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "lib/Sim/Machine.h"
#include "lib/Sim/StoredLayout.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <set>

using namespace dfa::sim;

namespace {
StoredLayout parse(const std::string &name, std::vector<int64_t> shape,
                   int64_t eb) {
  std::string err;
  auto l = parseLayout(name, shape, eb, err);
  INFO(err);
  REQUIRE(l);
  return *l;
}

/// Every element has its own offset, inside the image.
void requireBijective(const StoredLayout &l) {
  llvm::SmallVector<int64_t> offsets, zero(l.shape.size(), 0);
  l.regionOffsets(zero, l.shape, offsets);
  std::set<int64_t> seen(offsets.begin(), offsets.end());
  REQUIRE(seen.size() == offsets.size());
  for (int64_t o : offsets) {
    REQUIRE(o >= 0);
    REQUIRE(o + l.elemBytes <= l.bytes);
  }
}
} // namespace

TEST_CASE("sticks pad the minor dim", "[sim][layout]") {
  StoredLayout l = parse("stick(64)", {65}, 2);
  // Two sticks of 64 f16: 256 bytes; element 64 opens the second stick.
  REQUIRE(l.bytes == 256);
  REQUIRE(l.offsetOf({64}) == 128);
  requireBijective(l);
  StoredLayout m = parse("stick(32)", {3, 33}, 4);
  REQUIRE(m.bytes == 3 * 64 * 4);
  REQUIRE(m.offsetOf({1, 0}) == 64 * 4);
}

TEST_CASE("TPU tiles: (8,128) and (8,128)(2,1)", "[sim][layout]") {
  StoredLayout f32 = parse("tile(8,128)", {10, 130}, 4);
  // Padded to 16 x 256: four tiles of 8 x 128.
  REQUIRE(f32.bytes == 16 * 256 * 4);
  REQUIRE(f32.offsetOf({0, 1}) == 4);
  REQUIRE(f32.offsetOf({1, 0}) == 128 * 4);
  REQUIRE(f32.offsetOf({0, 128}) == 8 * 128 * 4); // the second tile
  REQUIRE(f32.offsetOf({8, 0}) == 2 * 8 * 128 * 4);
  requireBijective(f32);
  // 16-bit: 16 x 128 tiles, row pairs interleaved in each sublane.
  StoredLayout f16 = parse("tile(8,128)(2,1)", {16, 128}, 2);
  REQUIRE(f16.bytes == 16 * 128 * 2);
  REQUIRE(f16.offsetOf({1, 0}) == 2);      // row 1 next to row 0
  REQUIRE(f16.offsetOf({0, 1}) == 2 * 2);  // then column 1
  REQUIRE(f16.offsetOf({2, 0}) == 256 * 2);
  requireBijective(f16);
}

TEST_CASE("a permutation stores channels last", "[sim][layout]") {
  StoredLayout l = parse("vector(320) perm(0,2,3,1)", {1, 64, 2, 2}, 4);
  REQUIRE(l.bytes == 2 * 2 * 320 * 4);
  REQUIRE(l.offsetOf({0, 1, 0, 0}) == 4);       // channels adjacent
  REQUIRE(l.offsetOf({0, 0, 0, 1}) == 320 * 4); // next pixel, next vector
  requireBijective(l);
}

TEST_CASE("malformed layouts are errors", "[sim][layout]") {
  std::string err;
  REQUIRE(!parseLayout("stick(0)", {4}, 2, err));
  REQUIRE(!parseLayout("tile(8)", {4, 4}, 4, err));
  REQUIRE(!parseLayout("row-major perm(0,0)", {4, 4}, 4, err));
  REQUIRE(!parseLayout("zigzag", {4}, 4, err));
  REQUIRE(err.find("zigzag") != std::string::npos);
}
