//===- LayoutTest.cpp - stored layouts: sizes, offsets, names ---------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "dfa/Target/Layout.h"
#include "dfa/Target/Target.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <set>

using namespace dfa::target;

namespace {
Layout::Encoding encoding(Layout::Kind kind, int64_t granule = 1,
                          int64_t rows = 0, int64_t pack = 1,
                          std::vector<int64_t> order = {}) {
  Layout::Encoding e;
  e.kind = kind;
  e.granule = granule;
  e.rows = rows;
  e.pack = pack;
  e.order.assign(order.begin(), order.end());
  return e;
}

Layout make(const Layout::Encoding &e, std::vector<int64_t> shape,
            int64_t eb) {
  INFO(e.invalidFor(int64_t(shape.size())));
  REQUIRE(e.invalidFor(int64_t(shape.size())).empty());
  return Layout::make(e, shape, eb);
}

/// Every element has its own offset, inside the image.
void requireBijective(const Layout &l) {
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

TEST_CASE("sticks pad the minor dim", "[target][layout]") {
  Layout l = make(encoding(Layout::Kind::Stick, 64), {65}, 2);
  // Two sticks of 64 f16: 256 bytes; element 64 opens the second stick.
  REQUIRE(l.bytes == 256);
  REQUIRE(l.offsetOf({64}) == 128);
  requireBijective(l);
  Layout m = make(encoding(Layout::Kind::Stick, 32), {3, 33}, 4);
  REQUIRE(m.bytes == 3 * 64 * 4);
  REQUIRE(m.offsetOf({1, 0}) == 64 * 4);
}

TEST_CASE("TPU tiles: (8,128) and (8,128)(2,1)", "[target][layout]") {
  Layout f32 = make(encoding(Layout::Kind::Tile, 128, 8), {10, 130}, 4);
  // Padded to 16 x 256: four tiles of 8 x 128.
  REQUIRE(f32.bytes == 16 * 256 * 4);
  REQUIRE(f32.offsetOf({0, 1}) == 4);
  REQUIRE(f32.offsetOf({1, 0}) == 128 * 4);
  REQUIRE(f32.offsetOf({0, 128}) == 8 * 128 * 4); // the second tile
  REQUIRE(f32.offsetOf({8, 0}) == 2 * 8 * 128 * 4);
  requireBijective(f32);
  // 16-bit: 16 x 128 tiles, row pairs interleaved in each sublane.
  Layout f16 = make(encoding(Layout::Kind::Tile, 128, 8, 2), {16, 128}, 2);
  REQUIRE(f16.bytes == 16 * 128 * 2);
  REQUIRE(f16.offsetOf({1, 0}) == 2);      // row 1 next to row 0
  REQUIRE(f16.offsetOf({0, 1}) == 2 * 2);  // then column 1
  REQUIRE(f16.offsetOf({2, 0}) == 256 * 2);
  requireBijective(f16);
}

TEST_CASE("a permutation stores channels last", "[target][layout]") {
  Layout l = make(encoding(Layout::Kind::Vector, 320, 0, 1, {0, 2, 3, 1}),
                  {1, 64, 2, 2}, 4);
  REQUIRE(l.bytes == 2 * 2 * 320 * 4);
  REQUIRE(l.offsetOf({0, 1, 0, 0}) == 4);       // channels adjacent
  REQUIRE(l.offsetOf({0, 0, 0, 1}) == 320 * 4); // next pixel, next vector
  requireBijective(l);
}

TEST_CASE("malformed encodings are refused", "[target][layout]") {
  CHECK(encoding(Layout::Kind::Stick, 0).invalidFor(1) != "");
  CHECK(encoding(Layout::Kind::Tile, 128, 0).invalidFor(2) != "");
  CHECK(encoding(Layout::Kind::Dense, 64).invalidFor(1) != "");
  CHECK(encoding(Layout::Kind::Stick, 64, 8).invalidFor(1) != "");
  CHECK(encoding(Layout::Kind::Dense, 1, 0, 1, {0, 0}).invalidFor(2) ==
        "not a permutation");
  CHECK(encoding(Layout::Kind::Dense, 1, 0, 1, {1, 0}).invalidFor(3) ==
        "the permutation has 2 dims, the tensor 3");
  CHECK(encoding(Layout::Kind::Tile, 128, 8, 2, {1, 0}).invalidFor(2) == "");
}

namespace {
/// A shipped description, by name.
Target shipped(const std::string &name) {
  Registry registry;
  Target t;
  std::string err;
  INFO(err);
  REQUIRE(registry.find(name, t, err) == dfa::Status::Ok);
  return t;
}

/// `of` and `make(encoding())` give the same layout.
void requireRoundTrip(const Layout &l) {
  Layout::Encoding e = l.encoding();
  INFO(l.name());
  REQUIRE(e.invalidFor(int64_t(l.shape.size())) == "");
  std::optional<Layout> back = Layout::make(e, l.shape, l.elemBytes);
  REQUIRE(back->sameAs(l));
  REQUIRE(back->bytes == l.bytes);
  REQUIRE(back->name() == l.name());
  for (int64_t d = 0; d < int64_t(l.shape.size()); ++d)
    REQUIRE(back->granule(d) == l.granule(d));
  requireBijective(l);
}
} // namespace

TEST_CASE("every target's layout is rebuilt from its encoding", "[target][layout]") {
  const std::vector<std::vector<int64_t>> shapes = {
      {}, {65}, {3, 33}, {10, 130}, {2, 17, 300}, {1, 64, 7, 7}};
  for (const char *name : {"cpu", "gpu-h100", "tpu-v4", "tpu-v5e", "wse-2",
                           "groq-tsp", "spyre"}) {
    Target t = shipped(name);
    for (int64_t eb : {1, 2, 4, 8})
      for (const std::vector<int64_t> &shape : shapes) {
        INFO(name << " eb " << eb << " rank " << shape.size());
        requireRoundTrip(Layout::of(t, shape, eb));
        if (shape.size() == 4)
          requireRoundTrip(Layout::of(t, shape, eb, {0, 2, 3, 1}));
      }
  }
}

TEST_CASE("TPU tiles come from the description, packed by element width",
          "[target][layout]") {
  Target t = shipped("tpu-v4");
  // XLA's tiles: 32-bit (8,128); 16-bit (8,128)(2,1) and 8-bit
  // (8,128)(4,1), the same 8 rows with two or four of them packed into a
  // 32-bit word -- tile, tile_16bit and tile_8bit.
  Layout f32 = Layout::of(t, {10, 130}, 4);
  CHECK(f32.name() == "tile(8,128)");
  CHECK(f32.granule(0) == 8);
  CHECK(f32.granule(1) == 128);
  Layout f16 = Layout::of(t, {10, 130}, 2);
  CHECK(f16.name() == "tile(8,128)(2,1)");
  CHECK(f16.bytes == 16 * 256 * 2);
  CHECK(f16.granule(0) == 8);
  Layout i8 = Layout::of(t, {10, 130}, 1);
  CHECK(i8.name() == "tile(8,128)(4,1)");
  CHECK(i8.bytes == 16 * 256);
  // Four rows share a 32-bit word: row 1 is the next byte.
  CHECK(i8.offsetOf({1, 0}) == 1);
  CHECK(i8.offsetOf({0, 1}) == 4);
  CHECK(i8.offsetOf({4, 0}) == 4 * 128);
  // A small second-minor dim takes a smaller tile (XLA's compact layout,
  // layout.small_second_minor_tiles): 2 rows for 1-2, 4 for 3-4.
  CHECK(Layout::of(t, {2, 130}, 4).name() == "tile(2,128)");
  CHECK(Layout::of(t, {2, 130}, 4).bytes == 2 * 256 * 4);
  CHECK(Layout::of(t, {1, 130}, 2).name() == "tile(2,128)(2,1)");
  CHECK(Layout::of(t, {3, 130}, 2).name() == "tile(4,128)(2,1)");
  CHECK(Layout::of(t, {6, 3, 130}, 4).bytes == 6 * 4 * 256 * 4);
  CHECK(Layout::of(t, {5, 130}, 4).name() == "tile(8,128)");
  // The second-minor dim is the stored one: [130, 2] stored transposed.
  CHECK(Layout::of(t, {130, 2}, 4, {1, 0}).name() == "tile(2,128) perm(1,0)");
  CHECK(Layout::of(t, {2, 130}, 4, {1, 0}).bytes == 136 * 128 * 4);
  // Rank 1 has no second-minor dim: the large tile.
  CHECK(Layout::of(t, {130}, 4).name() == "tile(8,128)");
  requireRoundTrip(Layout::of(t, {3, 130}, 1));
  // A description with another tile gets its own: no (8,128) in the code.
  std::string err;
  std::string text = R"({"schema": "dfa.target/1", "name": "t", "family": "tpu",
    "clock_hz": {"value": 1e9, "source": "x"},
    "compute": {"unit_name": "core", "units": {"value": 1, "source": "x"},
                "peak_flops": {"f32": {"value": 1e12, "source": "x"}}},
    "memory": [{"name": "HBM", "kind": "dram", "scope": "chip", "managed": "software",
                "capacity_bytes": {"value": 1e9, "source": "x"},
                "bandwidth_bytes_per_s": {"value": 1e11, "source": "x"}}],
    "layout": {"tile": [4, 64], "tile_16bit": [8, 64], "tile_8bit": [2, 64]},
    "overheads": {"launch_ns": {"value": 1, "source": "x"},
                  "dma_setup_ns": {"value": 1, "source": "x"},
                  "sync_ns": {"value": 1, "source": "x"}}})";
  std::optional<Target> small = parseTarget("t.json", text, err);
  INFO(err);
  REQUIRE(small);
  CHECK(Layout::of(*small, {5, 70}, 4).name() == "tile(4,64)");
  CHECK(Layout::of(*small, {5, 70}, 2).name() == "tile(8,64)(2,1)");
  CHECK(Layout::of(*small, {5, 70}, 2).bytes == 8 * 128 * 2);
  // Two rows cannot hold four 8-bit rows a word: they pack two.
  CHECK(Layout::of(*small, {5, 70}, 1).name() == "tile(2,64)(2,1)");
  CHECK(Layout::of(*small, {5, 70}, 1).bytes == 6 * 128);
  // No small_second_minor_tiles: a 1-row dim pads to the whole tile.
  CHECK(Layout::of(*small, {1, 70}, 4).name() == "tile(4,64)");
  requireRoundTrip(Layout::of(*small, {5, 70}, 1));
}
