//===- MathExtras.h - integer rounding ---------------------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// The one definition of the rounding every layout, tile and chunk size
/// uses (a granule of 1 or less leaves `x` as it is), and the search the
/// sizing passes share.
///
//===----------------------------------------------------------------------===//

#ifndef DFA_SUPPORT_MATHEXTRAS_H
#define DFA_SUPPORT_MATHEXTRAS_H

#include <cstdint>

namespace dfa {

/// ceil(x / m) for x >= 0.
inline int64_t ceilDiv(int64_t x, int64_t m) {
  return m <= 1 ? x : (x + m - 1) / m;
}
/// The smallest multiple of `m` that is at least `x`, for x >= 0.
inline int64_t roundUp(int64_t x, int64_t m) {
  return m <= 1 ? x : ceilDiv(x, m) * m;
}

/// The smallest n in [lo, hi] for which `holds(n)`, where `holds` is false
/// up to some n and true from there on; `hi` when only it (or nothing)
/// holds. Bisection: log2(hi - lo) calls.
template <typename Pred>
int64_t firstTrue(int64_t lo, int64_t hi, Pred holds) {
  while (lo < hi) {
    int64_t mid = lo + (hi - lo) / 2;
    if (holds(mid))
      hi = mid;
    else
      lo = mid + 1;
  }
  return lo;
}

} // namespace dfa

#endif // DFA_SUPPORT_MATHEXTRAS_H
