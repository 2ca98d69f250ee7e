//===- MemoriesTest.cpp - the simulator's live-buffer memories ------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Machine.h"

#include <catch2/catch.hpp>

#include <numeric>
#include <vector>

using namespace dfa::sim;

namespace {
constexpr int64_t kPage = Memories::kPageBytes;

Placement chipWide(int64_t offset) {
  Placement p;
  p.level = "HBM";
  p.offset = offset;
  return p;
}

Placement perUnit(int64_t begin, int64_t end, int64_t share) {
  Placement p;
  p.level = "LX";
  p.perUnit = true;
  p.unitBegin = begin;
  p.unitEnd = end;
  p.share = share;
  return p;
}

std::vector<uint8_t> iota(int64_t n) {
  std::vector<uint8_t> v(n);
  std::iota(v.begin(), v.end(), uint8_t(1));
  return v;
}

std::vector<uint8_t> readBack(Memories &m, const Placement &p, int64_t at,
                              int64_t n) {
  std::vector<uint8_t> v(n);
  m.read(p, at, v.data(), n);
  return v;
}
} // namespace

TEST_CASE("a chip-wide buffer allocates only the pages it covers",
          "[sim][memories]") {
  Memories m;
  // Far up a 16 GiB address range, straddling a page boundary.
  Placement p = chipWide((int64_t(12) << 30) + kPage - 100);
  m.hold(p, 300);
  CHECK(m.allocated() == 0); // nothing until written
  std::vector<uint8_t> data = iota(300);
  m.write(p, 0, data.data(), 300);
  CHECK(m.allocated() == 2 * kPage);
  CHECK(readBack(m, p, 0, 300) == data);
  m.release(p, 300);
  CHECK(m.allocated() == 0);
  CHECK(m.peak() == 2 * kPage);
  // Freed memory reads as poison again, not as the old bytes.
  m.hold(p, 300);
  CHECK(readBack(m, p, 0, 300) == std::vector<uint8_t>(300, 0xFF));
}

TEST_CASE("a page two buffers share lives until the last one dies",
          "[sim][memories]") {
  Memories m;
  Placement a = chipWide(0), b = chipWide(1000);
  m.hold(a, 1000);
  m.hold(b, 1000);
  std::vector<uint8_t> data = iota(1000);
  m.write(b, 0, data.data(), 1000);
  m.release(a, 1000);
  CHECK(m.allocated() == kPage);
  CHECK(readBack(m, b, 0, 1000) == data);
  m.release(b, 1000);
  CHECK(m.allocated() == 0);
}

TEST_CASE("unwritten bytes of a live page read as poison",
          "[sim][memories]") {
  Memories m;
  Placement p = chipWide(0);
  m.hold(p, 64);
  uint8_t one = 7;
  m.write(p, 10, &one, 1);
  std::vector<uint8_t> got = readBack(m, p, 8, 4);
  CHECK(got == std::vector<uint8_t>{0xFF, 0xFF, 7, 0xFF});
}

TEST_CASE("a per-unit buffer is an image per unit, in equal shares",
          "[sim][memories]") {
  Memories m;
  Placement p = perUnit(/*begin=*/2, /*end=*/5, /*share=*/100);
  m.hold(p, 300);
  std::vector<uint8_t> data = iota(300);
  m.write(p, 0, data.data(), 300);
  CHECK(readBack(m, p, 0, 300) == data);
  CHECK(m.allocated() >= 300);
  CHECK(m.allocated() < 300 + 3 * 64); // each unit grown to what it holds
  // Unit 3's share is bytes 100..199 of the image: the same memory seen
  // from a buffer on unit 3 alone.
  Placement unit3 = perUnit(3, 4, 100);
  CHECK(readBack(m, unit3, 0, 100) ==
        std::vector<uint8_t>(data.begin() + 100, data.begin() + 200));
  m.release(p, 300);
  CHECK(m.allocated() == 0);
  CHECK(readBack(m, unit3, 0, 4) == std::vector<uint8_t>(4, 0xFF));
}

TEST_CASE("levels and chips are separate memories", "[sim][memories]") {
  Memories m;
  Placement hbm = chipWide(0), vmem = chipWide(0), chip1 = chipWide(0);
  vmem.level = "VMEM";
  chip1.chip = 1;
  for (const Placement *p : {&hbm, &vmem, &chip1})
    m.hold(*p, 16);
  uint8_t a = 1, b = 2, c = 3;
  m.write(hbm, 0, &a, 1);
  m.write(vmem, 0, &b, 1);
  m.write(chip1, 0, &c, 1);
  CHECK(readBack(m, hbm, 0, 1)[0] == 1);
  CHECK(readBack(m, vmem, 0, 1)[0] == 2);
  CHECK(readBack(m, chip1, 0, 1)[0] == 3);
  CHECK(m.allocated() == 3 * kPage);
}
