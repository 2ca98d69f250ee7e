//===- SchedPlan.h - memory arenas and unit timelines -----------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// Private to lib/Conversion/GraphToSched. An Arena places buffers in one memory (per
/// unit for per-unit memories, blocks spanning ranges of units) first-fit by
/// live range: a released block remembers the
/// tokens of the ops that last used it, so whoever reuses its bytes waits
/// for them (write-after-read). A Timeline says when a range of units or a
/// DMA engine is free, for static start cycles.
///
//===----------------------------------------------------------------------===//

#ifndef LIB_CONVERSION_GRAPHTOSCHED_SCHEDPLAN_H
#define LIB_CONVERSION_GRAPHTOSCHED_SCHEDPLAN_H

#include "mlir/IR/Value.h"
#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace dfa {

/// The blocks one arena placed, in the order it placed them, with when
/// each lived: the clock counts the arena's allocations and releases.
struct ArenaLog {
  struct Block {
    int64_t size, ub, ue;
    int64_t from, to = std::numeric_limits<int64_t>::max(); // [from, to)
  };
  std::vector<Block> blocks;
  int64_t capacity = 0, align = 1; // the arena's
};

/// The recordings of a lowering's arenas, and the plans made from them,
/// by (memory level, chip).
using ArenaLogs = std::map<std::pair<std::string, int64_t>, ArenaLog>;
using ArenaPlans = std::map<std::pair<std::string, int64_t>, std::vector<int64_t>>;

/// Offsets for `log`'s blocks, in its order, that an offline planner with
/// every lifetime known gives (XLA's GlobalDecreasingSizeBestFitHeap):
/// largest first, each in the smallest gap between the blocks already
/// placed whose lifetimes and units it shares, else above them. None when
/// the plan passes `capacity`.
std::optional<std::vector<int64_t>> planOffsets(const ArenaLog &log,
                                                int64_t capacity,
                                                int64_t align);

class Arena {
public:
  Arena(int64_t capacity, int64_t align)
      : capacity(capacity), align(std::max<int64_t>(1, align)) {}

  /// Records every block in `log`, with no capacity: a first run whose
  /// lifetimes an offline plan (planOffsets) places.
  void record(ArenaLog *l) {
    log = l;
    log->capacity = capacity;
    log->align = align;
  }
  /// Places the n-th block at `offsets[n]`, as planned from a recording of
  /// the same lowering, when it misses every live block there (else, if
  /// the lowering took another course, first fit).
  void replay(const std::vector<int64_t> *offsets) { plan = offsets; }

  /// The offset of a new block of `size` bytes in each of units [ub, ue)
  /// (the same offset in every unit's memory, as SPMD code addresses it),
  /// or none when it does not fit; `deps` gets the tokens of the released
  /// blocks whose bytes it reuses. Blocks of disjoint unit ranges (two PE
  /// rectangles) never conflict.
  std::optional<int64_t> allocate(int64_t size, int64_t ub, int64_t ue,
                                  llvm::SmallVectorImpl<mlir::Value> &deps) {
    size = padded(size);
    Lane &own = lanes.try_emplace({ub, ue}, ub, ue).first->second;
    widest = std::max(widest, ue - ub);
    llvm::SmallVector<Lane *, 4> near = lanesOver(ub, ue);
    ++clock;
    // The lowest offset that fits every lane sharing a unit: each lane
    // moves it up past its blocks until none does. A planned offset is
    // taken where it fits.
    int64_t at = 0;
    if (plan && next < plan->size()) {
      int64_t want = (*plan)[next++];
      if (llvm::all_of(near, [&](Lane *lane) {
            return lane->firstFit(want, size) == want;
          }))
        at = want;
    }
    for (bool moved = true; moved;) {
      moved = false;
      for (Lane *lane : near) {
        int64_t fit = lane->firstFit(at, size);
        moved |= fit != at;
        at = fit;
      }
    }
    if (log) {
      open[{at, ub, ue}] = log->blocks.size();
      log->blocks.push_back({size, ub, ue, clock});
    } else if (at + size > capacity) {
      return std::nullopt;
    }
    own.insert({at, at + size});
    high = std::max(high, at + size);
    for (Lane *lane : near)
      lane->reuse(at, at + size, ub, ue, deps);
    return at;
  }

  /// Frees the block at `offset` of units [ub, ue); later users of its bytes
  /// wait for `tokens`.
  void release(int64_t offset, int64_t ub, int64_t ue,
               llvm::ArrayRef<mlir::Value> tokens) {
    ++clock;
    if (log) {
      auto it = open.find({offset, ub, ue});
      if (it != open.end()) {
        log->blocks[it->second].to = clock;
        open.erase(it);
      }
    }
    auto lane = lanes.find({ub, ue});
    if (lane != lanes.end())
      lane->second.release(offset, tokens);
  }

  int64_t highWater() const { return high; }
  int64_t size() const { return capacity; }
  int64_t padded(int64_t size) const {
    return (std::max<int64_t>(size, 1) + align - 1) / align * align;
  }
  /// Bytes live in the memory of any unit of [ub, ue).
  int64_t liveBytes(int64_t ub, int64_t ue) {
    int64_t n = 0;
    for (Lane *lane : lanesOver(ub, ue))
      for (const Block &b : lane->live)
        n += b.hi - b.lo;
    return n;
  }

private:
  struct Block {
    int64_t lo, hi;
  };
  struct Ghost {
    int64_t hi;
    llvm::SmallVector<mlir::Value, 2> tokens;
  };
  /// The blocks of one unit range, which never overlap each other: sorted
  /// by offset, they are sorted by end too. A released block leaves a ghost
  /// with the tokens of its last users until a new block covers it whole,
  /// in bytes and in units (a block of this range or of a wider one).
  struct Lane {
    Lane(int64_t ub, int64_t ue) : ub(ub), ue(ue) {}
    int64_t ub, ue;
    std::vector<Block> live;
    size_t prefix = 0;       // live[0, prefix) cover [0, prefixHi) gaplessly
    int64_t prefixHi = 0;
    std::multimap<int64_t, Ghost> ghosts; // by offset
    int64_t longestGhost = 0;

    /// The lowest offset from `at` up where `size` bytes miss every block.
    /// Resident weights fill the bottom of a memory: the gapless prefix is
    /// skipped whole, or rescanning it for every activation would make
    /// lowering quadratic in the program.
    int64_t firstFit(int64_t at, int64_t size) {
      while (prefix < live.size() && live[prefix].lo <= prefixHi)
        prefixHi = std::max(prefixHi, live[prefix++].hi);
      if (at < prefixHi)
        at = prefixHi;
      auto it = std::upper_bound(
          live.begin() + prefix, live.end(), at,
          [](int64_t a, const Block &b) { return a < b.hi; });
      for (; it != live.end() && it->lo < at + size; ++it)
        at = it->hi;
      return at;
    }
    void insert(Block nb) {
      auto pos = std::upper_bound(
          live.begin(), live.end(), nb.lo,
          [](int64_t lo, const Block &b) { return lo < b.lo; });
      truncatePrefix(size_t(pos - live.begin()));
      live.insert(pos, nb);
    }
    void release(int64_t offset, llvm::ArrayRef<mlir::Value> tokens) {
      auto it = std::lower_bound(
          live.begin(), live.end(), offset,
          [](const Block &b, int64_t lo) { return b.lo < lo; });
      if (it == live.end() || it->lo != offset)
        return;
      truncatePrefix(size_t(it - live.begin()));
      longestGhost = std::max(longestGhost, it->hi - it->lo);
      ghosts.emplace(it->lo,
                     Ghost{it->hi, {tokens.begin(), tokens.end()}});
      live.erase(it);
    }
    /// A new block [lo, hi) over units [u0, u1) waits for the ghosts whose
    /// bytes it reuses, and lays those it covers to rest.
    void reuse(int64_t lo, int64_t hi, int64_t u0, int64_t u1,
               llvm::SmallVectorImpl<mlir::Value> &deps) {
      bool coversUnits = u0 <= ub && ue <= u1;
      for (auto it = ghosts.lower_bound(lo - longestGhost);
           it != ghosts.end() && it->first < hi;) {
        if (it->second.hi <= lo) {
          ++it;
          continue;
        }
        deps.append(it->second.tokens.begin(), it->second.tokens.end());
        if (coversUnits && lo <= it->first && it->second.hi <= hi)
          it = ghosts.erase(it);
        else
          ++it;
      }
    }
    /// Keeps the prefix below block `i`, which is about to change: what
    /// lies below it is still gapless (blocks are disjoint and sorted, so
    /// the last one ends highest).
    void truncatePrefix(size_t i) {
      if (i >= prefix)
        return;
      prefix = i;
      prefixHi = i ? live[i - 1].hi : 0;
    }
  };

  /// The lanes whose unit ranges overlap [ub, ue), in order.
  llvm::SmallVector<Lane *, 4> lanesOver(int64_t ub, int64_t ue) {
    llvm::SmallVector<Lane *, 4> out;
    for (auto it = lanes.lower_bound(
             {ub - widest, std::numeric_limits<int64_t>::min()});
         it != lanes.end() && it->first.first < ue; ++it)
      if (ub < it->first.second)
        out.push_back(&it->second);
    return out;
  }

  int64_t capacity, align, high = 0;
  ArenaLog *log = nullptr;
  std::map<std::tuple<int64_t, int64_t, int64_t>, size_t> open; // log's live
  const std::vector<int64_t> *plan = nullptr;
  size_t next = 0;
  int64_t clock = 0;
  /// Lanes by unit range; no range is wider than `widest` units.
  std::map<std::pair<int64_t, int64_t>, Lane> lanes;
  int64_t widest = 0;
};

/// When ranges of resources (units, or DMA engines) are next free.
class Timeline {
public:
  int64_t freeAt(int64_t lo, int64_t hi) const {
    int64_t t = 0;
    for (auto it = busy.lower_bound(lo - widest);
         it != busy.end() && it->first < hi; ++it)
      if (lo < it->second.hi)
        t = std::max(t, it->second.until);
    return t;
  }
  /// Ranges inside [lo, hi) that free up by `until` are forgotten.
  void occupy(int64_t lo, int64_t hi, int64_t until) {
    for (auto it = busy.lower_bound(lo); it != busy.end() && it->first < hi;)
      if (it->second.hi <= hi && it->second.until <= until)
        it = busy.erase(it);
      else
        ++it;
    widest = std::max(widest, hi - lo);
    busy.emplace(lo, Busy{hi, until});
  }

private:
  struct Busy {
    int64_t hi, until;
  };
  std::multimap<int64_t, Busy> busy; // by first resource
  int64_t widest = 0;
};

/// When one resource (a DMA engine or link) is busy: every interval, so
/// that a copy whose operands are ready early can run in a gap left before
/// copies planned earlier, as the simulator runs it.
class Intervals {
public:
  /// The earliest start at or after `ready` for an op that then holds the
  /// resource until max(start + cycles, floor).
  int64_t earliest(int64_t ready, int64_t cycles, int64_t floor) const {
    int64_t start = ready;
    for (;;) {
      int64_t end = std::max(start + cycles, floor);
      auto it = busy.upper_bound(start);
      if (it != busy.begin() && std::prev(it)->second > start) {
        start = std::prev(it)->second;
        continue;
      }
      if (it != busy.end() && it->first < end) {
        start = it->second;
        continue;
      }
      return start;
    }
  }
  /// Back-to-back intervals merge, so a queue of copies is one interval
  /// to step over, not one per copy.
  void occupy(int64_t start, int64_t end) {
    if (end <= start)
      return;
    auto next = busy.lower_bound(start);
    if (next != busy.end() && next->first == end) {
      end = next->second;
      next = busy.erase(next);
    }
    if (next != busy.begin()) {
      auto prev = std::prev(next);
      if (prev->second == start) {
        prev->second = end;
        return;
      }
    }
    busy.emplace(start, end);
  }

private:
  std::map<int64_t, int64_t> busy; // start -> end, disjoint
};

} // namespace dfa

#endif // LIB_CONVERSION_GRAPHTOSCHED_SCHEDPLAN_H
