//===- Pattern.h - where the bad elements sit on the device ------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// The structure of a mismatch, read in the device's terms: only the
/// partial last stick (tile, vector) of the minor dim is wrong (a copy
/// range that stops at the last whole one); one position in every stick
/// (a tile-boundary or stride error); one unit's block; the right values
/// at the wrong places (a permutation; the two minor strides swapped);
/// NaNs or one constant where values should be; or scattered small errors
/// with no structure (numerics).
///
//===----------------------------------------------------------------------===//

#ifndef DFA_BISECT_PATTERN_H
#define DFA_BISECT_PATTERN_H

#include "dfa/Bisect/Compare.h"

namespace dfa::bisect {

/// How a tensor is held on the device, as far as the pattern needs.
struct DeviceLayout {
  /// Elements of the minor dim stored and moved as one, and their name
  /// ("stick", "tile", "vector"; "element" when 1).
  int64_t granule = 1;
  std::string granuleName = "element";
  /// Units the tensor's rows are divided among (for blocks).
  int64_t units = 1;
};

struct Pattern {
  /// tail, tile-boundary, block, permutation, transposed, nan, constant,
  /// scattered, all, or none.
  std::string kind = "none";
  /// The pattern in words, with the device's coordinates.
  std::string where;
  /// A structure a numerical difference does not produce.
  bool structural() const {
    return kind == "tail" || kind == "tile-boundary" || kind == "block" ||
           kind == "permutation" || kind == "transposed" || kind == "constant";
  }
};

Pattern findPattern(const Metrics &m, const ref::Tensor &got,
                    const ref::Tensor &reference, const DeviceLayout &layout);

/// `t` [.., M, N] as read with its two minor strides swapped: element
/// [.., i, j] from position j * M + i of the row-major image; nullopt when
/// the two minor dims are not both at least 2.
std::optional<ref::Tensor> swapMinorStrides(const ref::Tensor &t);

/// "[0, 64]": a flat index as a multi-index of `shape`.
std::string indexString(int64_t flat, llvm::ArrayRef<int64_t> shape);

} // namespace dfa::bisect

#endif // DFA_BISECT_PATTERN_H
