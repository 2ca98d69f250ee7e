//===- SchedPlan.h - memory arenas and unit timelines -----------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// Private to lib/Transforms. An Arena places buffers in one memory (per
/// unit for per-unit memories, blocks spanning ranges of units) first-fit by
/// live range: a released block remembers the
/// tokens of the ops that last used it, so whoever reuses its bytes waits
/// for them (write-after-read). A Timeline says when a range of units or a
/// DMA engine is free, for static start cycles.
///
//===----------------------------------------------------------------------===//

#ifndef LIB_TRANSFORMS_SCHEDPLAN_H
#define LIB_TRANSFORMS_SCHEDPLAN_H

#include "mlir/IR/Value.h"
#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <limits>
#include <optional>
#include <vector>

namespace dfa {

class Arena {
public:
  Arena(int64_t capacity, int64_t align)
      : capacity(capacity), align(std::max<int64_t>(1, align)) {}

  /// The offset of a new block of `size` bytes in each of units [ub, ue)
  /// (the same offset in every unit's memory, as SPMD code addresses it),
  /// or none when it does not fit; `deps` gets the tokens of the released
  /// blocks whose bytes it reuses. Blocks of disjoint unit ranges (two PE
  /// rectangles) never conflict.
  std::optional<int64_t> allocate(int64_t size, int64_t ub, int64_t ue,
                                  llvm::SmallVectorImpl<mlir::Value> &deps) {
    size = padded(size);
    // First fit. The scan starts past the gapless prefix when every block
    // of it overlaps [ub, ue): resident weights fill the bottom of a
    // memory, and rescanning them for every activation made lowering
    // quadratic in the program.
    extendPrefix();
    bool skip = prefixCount > 0 && ub < prefixUe && prefixUb < ue;
    int64_t at = skip ? prefixHi : 0;
    for (size_t i = skip ? prefixCount : 0; i < live.size(); ++i) {
      const Block &b = live[i];
      if (!b.overlapsUnits(ub, ue))
        continue;
      if (b.lo >= at + size)
        break;
      at = std::max(at, b.hi);
    }
    if (at + size > capacity)
      return std::nullopt;
    Block nb{at, at + size, ub, ue};
    auto pos = std::upper_bound(live.begin(), live.end(), nb,
                                [](const Block &x, const Block &y) {
                                  return x.lo < y.lo;
                                });
    if (size_t(pos - live.begin()) < prefixCount)
      resetPrefix();
    live.insert(pos, nb);
    high = std::max(high, at + size);
    llvm::erase_if(ghosts, [&](Ghost &g) {
      if (g.block.hi <= at || at + size <= g.block.lo ||
          !g.block.overlapsUnits(ub, ue))
        return false;
      deps.append(g.tokens.begin(), g.tokens.end());
      return at <= g.block.lo && g.block.hi <= at + size && ub <= g.block.ub &&
             g.block.ue <= ue;
    });
    return at;
  }

  /// Frees the block at `offset` of units starting at `ub`; later users of
  /// its bytes wait for `tokens`.
  void release(int64_t offset, int64_t ub, llvm::ArrayRef<mlir::Value> tokens) {
    auto it = std::lower_bound(
        live.begin(), live.end(), offset,
        [](const Block &b, int64_t lo) { return b.lo < lo; });
    while (it != live.end() && it->lo == offset && it->ub != ub)
      ++it;
    if (it == live.end() || it->lo != offset)
      return;
    if (size_t(it - live.begin()) < prefixCount)
      resetPrefix();
    ghosts.push_back({*it, {tokens.begin(), tokens.end()}});
    live.erase(it);
  }

  int64_t highWater() const { return high; }
  int64_t size() const { return capacity; }
  int64_t padded(int64_t size) const {
    return (std::max<int64_t>(size, 1) + align - 1) / align * align;
  }
  /// Bytes live in the memory of any unit of [ub, ue).
  int64_t liveBytes(int64_t ub, int64_t ue) const {
    int64_t n = 0;
    for (const Block &b : live)
      if (b.overlapsUnits(ub, ue))
        n += b.hi - b.lo;
    return n;
  }

private:
  struct Block {
    int64_t lo, hi, ub, ue;
    bool overlapsUnits(int64_t u0, int64_t u1) const {
      return ub < u1 && u0 < ue;
    }
  };
  struct Ghost {
    Block block;
    llvm::SmallVector<mlir::Value, 2> tokens;
  };
  /// Grows the prefix of `live` that covers [0, prefixHi) without a gap
  /// and whose blocks all share units [prefixUb, prefixUe).
  void extendPrefix() {
    while (prefixCount < live.size()) {
      const Block &b = live[prefixCount];
      int64_t u0 = std::max(prefixUb, b.ub), u1 = std::min(prefixUe, b.ue);
      if (b.lo > prefixHi || u0 >= u1)
        return;
      prefixHi = std::max(prefixHi, b.hi);
      prefixUb = u0;
      prefixUe = u1;
      ++prefixCount;
    }
  }
  void resetPrefix() {
    prefixCount = 0;
    prefixHi = 0;
    prefixUb = std::numeric_limits<int64_t>::min();
    prefixUe = std::numeric_limits<int64_t>::max();
  }

  int64_t capacity, align, high = 0;
  std::vector<Block> live; // sorted by offset
  std::vector<Ghost> ghosts;
  size_t prefixCount = 0;
  int64_t prefixHi = 0, prefixUb = std::numeric_limits<int64_t>::min(),
          prefixUe = std::numeric_limits<int64_t>::max();
};

/// When ranges of resources (units, or DMA engines) are next free.
class Timeline {
public:
  int64_t freeAt(int64_t lo, int64_t hi) const {
    int64_t t = 0;
    for (const Busy &b : busy)
      if (b.lo < hi && lo < b.hi)
        t = std::max(t, b.until);
    return t;
  }
  void occupy(int64_t lo, int64_t hi, int64_t until) {
    llvm::erase_if(busy, [&](Busy &b) {
      return lo <= b.lo && b.hi <= hi && b.until <= until;
    });
    busy.push_back({lo, hi, until});
  }

private:
  struct Busy {
    int64_t lo, hi, until;
  };
  std::vector<Busy> busy;
};

} // namespace dfa

#endif // LIB_TRANSFORMS_SCHEDPLAN_H
