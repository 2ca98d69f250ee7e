//===- SchedPlanTest.cpp - arenas and timelines against brute force ---------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The lowering's Arena indexes blocks by unit range and skips gapless
// prefixes, and its Timeline indexes busy ranges by first resource, so that
// lowering stays linear in the program. Here both are driven by random
// operation sequences and compared, step by step, with the plain definitions:
// first fit over every live block sharing a unit, the tokens of every
// released block whose bytes are reused, the latest end of every busy range
// that overlaps.
//
//===----------------------------------------------------------------------===//

#include "lib/Conversion/GraphToSched/SchedPlan.h"

#include "mlir/IR/Block.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/MLIRContext.h"

#include <catch2/catch.hpp>

#include <array>
#include <random>
#include <set>

using namespace dfa;

namespace {
struct Rect {
  int64_t lo, hi, ub, ue;
  bool overlaps(const Rect &o) const {
    return lo < o.hi && o.lo < hi && ub < o.ue && o.ub < ue;
  }
};

/// The definition: first fit over all live blocks; every released block
/// keeps its tokens until a new block covers it whole.
struct NaiveArena {
  int64_t capacity, align;
  std::vector<Rect> live;
  std::vector<std::pair<Rect, std::vector<const void *>>> ghosts;

  std::optional<int64_t> allocate(int64_t size, int64_t ub, int64_t ue,
                                  std::set<const void *> &deps) {
    size = (std::max<int64_t>(size, 1) + align - 1) / align * align;
    std::vector<int64_t> candidates{0};
    for (const Rect &r : live)
      candidates.push_back(r.hi);
    std::sort(candidates.begin(), candidates.end());
    std::optional<int64_t> at;
    for (int64_t c : candidates) {
      Rect nb{c, c + size, ub, ue};
      if (std::none_of(live.begin(), live.end(),
                       [&](const Rect &r) { return r.overlaps(nb); })) {
        at = c;
        break;
      }
    }
    if (!at || *at + size > capacity)
      return std::nullopt;
    Rect nb{*at, *at + size, ub, ue};
    live.push_back(nb);
    llvm::erase_if(ghosts, [&](auto &g) {
      if (!g.first.overlaps(nb))
        return false;
      deps.insert(g.second.begin(), g.second.end());
      return nb.lo <= g.first.lo && g.first.hi <= nb.hi && nb.ub <= g.first.ub &&
             g.first.ue <= nb.ue;
    });
    return at;
  }
  void release(size_t i, std::vector<const void *> tokens) {
    ghosts.push_back({live[i], std::move(tokens)});
    live.erase(live.begin() + i);
  }
};
} // namespace

TEST_CASE("arena matches first fit over unit ranges", "[schedplan]") {
  mlir::MLIRContext ctx;
  mlir::Block block;
  mlir::Type index = mlir::IndexType::get(&ctx);
  for (int i = 0; i < 64; ++i)
    block.addArgument(index, mlir::UnknownLoc::get(&ctx));

  for (unsigned seed = 1; seed <= 40; ++seed) {
    std::mt19937 rng(seed);
    auto pick = [&](int64_t lo, int64_t hi) {
      return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
    };
    // Few units and a small memory, so that ranges overlap, partly cover
    // each other and the arena fills up.
    int64_t capacity = 256 * pick(2, 8), align = pick(0, 1) ? 16 : 1;
    int64_t units = pick(1, 12);
    Arena arena(capacity, align);
    NaiveArena naive{capacity, align, {}, {}};
    for (int step = 0; step < 400; ++step) {
      if (!naive.live.empty() && pick(0, 2) == 0) {
        size_t i = size_t(pick(0, int64_t(naive.live.size()) - 1));
        Rect r = naive.live[i];
        llvm::SmallVector<mlir::Value> tokens;
        std::vector<const void *> raw;
        for (int64_t n = pick(0, 3); n > 0; --n) {
          mlir::Value v = block.getArgument(unsigned(pick(0, 63)));
          tokens.push_back(v);
          raw.push_back(v.getAsOpaquePointer());
        }
        arena.release(r.lo, r.ub, r.ue, tokens);
        naive.release(i, raw);
        continue;
      }
      int64_t ub = pick(0, units - 1), ue = pick(ub + 1, std::min(units, ub + 4));
      int64_t size = pick(1, capacity / 4);
      llvm::SmallVector<mlir::Value> deps;
      std::set<const void *> want;
      std::optional<int64_t> got = arena.allocate(size, ub, ue, deps);
      std::optional<int64_t> expect = naive.allocate(size, ub, ue, want);
      INFO("seed " << seed << " step " << step);
      REQUIRE(got == expect);
      std::set<const void *> have;
      for (mlir::Value v : deps)
        have.insert(v.getAsOpaquePointer());
      REQUIRE(have == want);
    }
    CHECK(arena.liveBytes(0, units) > 0);
  }
}

TEST_CASE("arena skips a resident prefix and reuses released bytes",
          "[schedplan]") {
  Arena arena(1 << 20, 64);
  llvm::SmallVector<mlir::Value> deps;
  // Weights packed from 0 over units [0, 4).
  for (int i = 0; i < 100; ++i)
    REQUIRE(arena.allocate(100, 0, 4, deps) == i * 128);
  // A disjoint range starts at 0; an overlapping one goes past the weights.
  CHECK(arena.allocate(64, 4, 8, deps) == 0);
  CHECK(arena.allocate(64, 3, 5, deps) == 100 * 128);
  arena.release(128, 0, 4, {});
  CHECK(arena.allocate(128, 0, 2, deps) == 128);
  CHECK(arena.allocate(128, 0, 2, deps) == 100 * 128);
  // Units 2 and 3 of the released block are still free.
  CHECK(arena.allocate(64, 2, 4, deps) == 128);
  CHECK(arena.highWater() == 100 * 128 + 128);
  CHECK_FALSE(arena.allocate(1 << 20, 0, 1, deps));
  CHECK(deps.empty());
}

TEST_CASE("an offline plan places what first fit cannot, and replays",
          "[schedplan]") {
  // First fit: a 2-block [0, 2), a 4-block [2, 6); the 2-block dies, a
  // 1-block takes [0, 1), and a 5-block finds 1 + 4 free bytes in two
  // holes of a 10-byte memory.
  llvm::SmallVector<mlir::Value> deps;
  auto run = [&](Arena &a) {
    std::vector<std::optional<int64_t>> at;
    at.push_back(a.allocate(2, 0, 1, deps));
    at.push_back(a.allocate(4, 0, 1, deps));
    a.release(*at[0], 0, 1, {});
    at.push_back(a.allocate(1, 0, 1, deps));
    at.push_back(a.allocate(5, 0, 1, deps));
    return at;
  };
  Arena firstFit(10, 1);
  CHECK_FALSE(run(firstFit)[3]);
  ArenaLog log;
  Arena recording(10, 1);
  recording.record(&log);
  std::vector<std::optional<int64_t>> recorded = run(recording);
  REQUIRE(recorded[3]); // a recording has no capacity
  REQUIRE(log.blocks.size() == 4);
  CHECK(log.blocks[0].to < log.blocks[2].from);
  std::optional<std::vector<int64_t>> plan = planOffsets(log, 10, 1);
  REQUIRE(plan);
  CHECK(*plan == std::vector<int64_t>{0, 5, 9, 0});
  CHECK_FALSE(planOffsets(log, 9, 1));
  Arena replaying(10, 1);
  replaying.replay(&*plan);
  std::vector<std::optional<int64_t>> replayed = run(replaying);
  for (size_t i = 0; i < plan->size(); ++i)
    CHECK(replayed[i] == (*plan)[i]);
}

TEST_CASE("offline plans never overlap blocks that live together",
          "[schedplan]") {
  for (unsigned seed = 1; seed <= 30; ++seed) {
    std::mt19937 rng(seed);
    auto pick = [&](int64_t lo, int64_t hi) {
      return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
    };
    ArenaLog log;
    int64_t align = pick(0, 1) ? 16 : 1, units = pick(1, 6), total = 0;
    for (int64_t n = pick(1, 200), clock = 0; n > 0; --n) {
      int64_t ub = pick(0, units - 1), ue = pick(ub + 1, units);
      int64_t size = (pick(1, 300) + align - 1) / align * align;
      clock += pick(0, 2);
      int64_t to = pick(0, 4) ? clock + pick(1, 40)
                              : std::numeric_limits<int64_t>::max();
      log.blocks.push_back({size, ub, ue, clock, to});
      total += size;
    }
    std::optional<std::vector<int64_t>> plan =
        planOffsets(log, std::numeric_limits<int64_t>::max(), align);
    REQUIRE(plan);
    INFO("seed " << seed);
    int64_t high = 0;
    for (size_t i = 0; i < log.blocks.size(); ++i) {
      const ArenaLog::Block &a = log.blocks[i];
      CHECK((*plan)[i] % align == 0);
      high = std::max(high, (*plan)[i] + a.size);
      for (size_t j = 0; j < i; ++j) {
        const ArenaLog::Block &b = log.blocks[j];
        bool together = a.from < b.to && b.from < a.to && a.ub < b.ue && b.ub < a.ue;
        bool overlap = (*plan)[i] < (*plan)[j] + b.size && (*plan)[j] < (*plan)[i] + a.size;
        REQUIRE_FALSE((together && overlap));
      }
    }
    CHECK(high <= total);
    // The plan's own peak is a capacity it fits, and a byte less is not.
    CHECK(planOffsets(log, high, align));
  }
}

TEST_CASE("timeline gives the latest end of overlapping busy ranges",
          "[schedplan]") {
  for (unsigned seed = 1; seed <= 20; ++seed) {
    std::mt19937 rng(seed);
    auto pick = [&](int64_t lo, int64_t hi) {
      return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
    };
    Timeline timeline;
    std::vector<std::array<int64_t, 3>> all; // lo, hi, until: never forgotten
    for (int step = 0; step < 500; ++step) {
      int64_t lo = pick(0, 30), hi = pick(lo + 1, std::min<int64_t>(32, lo + 8));
      int64_t expect = 0;
      for (auto [l, h, until] : all)
        if (l < hi && lo < h)
          expect = std::max(expect, until);
      INFO("seed " << seed << " step " << step);
      REQUIRE(timeline.freeAt(lo, hi) == expect);
      // Mostly later than what it waits for, as the lowering does; now and
      // then earlier, so that not every covered range is forgotten.
      int64_t until = pick(0, 5) ? expect + pick(1, 50) : pick(1, expect + 1);
      timeline.occupy(lo, hi, until);
      all.push_back({lo, hi, until});
    }
  }
}

TEST_CASE("intervals give the earliest gap that holds an op", "[schedplan]") {
  for (unsigned seed = 1; seed <= 20; ++seed) {
    std::mt19937 rng(seed);
    auto pick = [&](int64_t lo, int64_t hi) {
      return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
    };
    Intervals busy;
    std::vector<std::pair<int64_t, int64_t>> all;
    for (int step = 0; step < 300; ++step) {
      int64_t ready = pick(0, 2000), cycles = pick(1, 60);
      int64_t floor = pick(0, 3) ? 0 : ready + pick(0, 200);
      int64_t start = busy.earliest(ready, cycles, floor);
      int64_t end = std::max(start + cycles, floor);
      INFO("seed " << seed << " step " << step);
      REQUIRE(start >= ready);
      // It overlaps nothing, and no earlier start would have fitted.
      for (auto [s, e] : all)
        REQUIRE((end <= s || e <= start));
      // (Every candidate start is the ready cycle or where an op ends.)
      std::vector<int64_t> candidates;
      if (ready < start)
        candidates.push_back(ready);
      for (auto [s, e] : all)
        if (e >= ready && e < start)
          candidates.push_back(e);
      for (int64_t t : candidates) {
        int64_t te = std::max(t + cycles, floor);
        bool clash = false;
        for (auto [s, e] : all)
          clash |= !(te <= s || e <= t);
        REQUIRE(clash);
      }
      busy.occupy(start, end);
      all.push_back({start, end});
    }
  }
}
