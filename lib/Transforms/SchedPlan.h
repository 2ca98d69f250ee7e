//===- SchedPlan.h - memory arenas and unit timelines -----------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// Private to lib/Transforms. An Arena places buffers in one memory (of a
/// range of units) first-fit by live range: a released block remembers the
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
#include <optional>
#include <vector>

namespace dfa {

class Arena {
public:
  Arena(int64_t capacity, int64_t align)
      : capacity(capacity), align(std::max<int64_t>(1, align)) {}

  /// The offset of a new block of `size` bytes, or none when it does not
  /// fit; `deps` gets the tokens of the released blocks it reuses.
  std::optional<int64_t> allocate(int64_t size,
                                  llvm::SmallVectorImpl<mlir::Value> &deps) {
    size = padded(size);
    int64_t at = 0;
    size_t pos = 0;
    for (; pos < live.size(); ++pos) {
      if (live[pos].first >= at + size)
        break;
      at = std::max(at, live[pos].second);
    }
    if (at + size > capacity)
      return std::nullopt;
    live.insert(live.begin() + pos, {at, at + size});
    high = std::max(high, at + size);
    llvm::erase_if(ghosts, [&](Ghost &g) {
      if (g.hi <= at || at + size <= g.lo)
        return false;
      deps.append(g.tokens.begin(), g.tokens.end());
      return at <= g.lo && g.hi <= at + size;
    });
    return at;
  }

  /// Frees the block at `offset`; later users of its bytes wait for `tokens`.
  void release(int64_t offset, llvm::ArrayRef<mlir::Value> tokens) {
    auto it = std::find_if(live.begin(), live.end(),
                           [&](auto &b) { return b.first == offset; });
    if (it == live.end())
      return;
    ghosts.push_back({it->first, it->second, {tokens.begin(), tokens.end()}});
    live.erase(it);
  }

  int64_t highWater() const { return high; }
  int64_t size() const { return capacity; }
  int64_t padded(int64_t size) const {
    return (std::max<int64_t>(size, 1) + align - 1) / align * align;
  }
  int64_t liveBytes() const {
    int64_t n = 0;
    for (auto &b : live)
      n += b.second - b.first;
    return n;
  }

private:
  struct Ghost {
    int64_t lo, hi;
    llvm::SmallVector<mlir::Value, 2> tokens;
  };
  int64_t capacity, align, high = 0;
  std::vector<std::pair<int64_t, int64_t>> live; // sorted by offset
  std::vector<Ghost> ghosts;
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
