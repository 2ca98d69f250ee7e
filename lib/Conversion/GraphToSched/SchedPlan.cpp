//===- SchedPlan.cpp - an offline plan of an arena's blocks ---------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "SchedPlan.h"

#include <numeric>

using namespace dfa;

std::optional<std::vector<int64_t>>
dfa::planOffsets(const ArenaLog &log, int64_t capacity, int64_t align) {
  const std::vector<ArenaLog::Block> &blocks = log.blocks;
  std::vector<size_t> order(blocks.size());
  std::iota(order.begin(), order.end(), 0);
  // Largest first; of equal sizes, the earliest.
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return blocks[a].size > blocks[b].size;
  });
  std::vector<int64_t> offsets(blocks.size(), 0);
  std::vector<size_t> placed;
  std::vector<std::pair<int64_t, int64_t>> taken;
  for (size_t i : order) {
    const ArenaLog::Block &b = blocks[i];
    taken.clear();
    for (size_t j : placed) {
      const ArenaLog::Block &o = blocks[j];
      if (b.from < o.to && o.from < b.to && b.ub < o.ue && o.ub < b.ue)
        taken.push_back({offsets[j], offsets[j] + o.size});
    }
    std::sort(taken.begin(), taken.end());
    // The smallest gap that holds it (the lowest of equal ones), else the
    // end of the highest.
    int64_t best = -1, bestGap = std::numeric_limits<int64_t>::max();
    int64_t at = 0;
    for (auto [lo, hi] : taken) {
      if (lo - at >= b.size && lo - at < bestGap) {
        best = at;
        bestGap = lo - at;
      }
      at = std::max(at, (hi + align - 1) / align * align);
    }
    offsets[i] = best >= 0 ? best : at;
    if (offsets[i] + b.size > capacity)
      return std::nullopt;
    placed.push_back(i);
  }
  return offsets;
}
