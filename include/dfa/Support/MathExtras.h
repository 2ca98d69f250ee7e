//===- MathExtras.h - integer rounding ---------------------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// The one definition of the rounding every layout, tile and chunk size
/// uses. A granule of 1 or less leaves `x` as it is.
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

} // namespace dfa

#endif // DFA_SUPPORT_MATHEXTRAS_H
