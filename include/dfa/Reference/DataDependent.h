//===- DataDependent.h - ops whose output shape is their data ---*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// The reference kernels of ops whose output's shape depends on their input
/// values (ONNX NonZero, NonMaxSuppression). The graph dialect holds static
/// shapes only, so these run where the values are known: at import, on
/// constants (the importer folds them), and on the host side of a graph
/// break. Each follows the ONNX reference implementation exactly.
///
//===----------------------------------------------------------------------===//

#ifndef DFA_REFERENCE_DATADEPENDENT_H
#define DFA_REFERENCE_DATADEPENDENT_H

#include "dfa/Reference/Tensor.h"

#include <optional>

namespace dfa::ref {

/// NonZero: int64 [rank, count], the row-major indices of the non-zero
/// elements (NaN is non-zero), one row per dim; a scalar has no dims to
/// index: [0, 1] or [0, 0].
Tensor nonZero(const Tensor &x);

struct NmsOptions {
  int64_t maxPerClass = 0;                // max_output_boxes_per_class
  double iouThreshold = 0;                // suppress above it
  std::optional<double> scoreThreshold;   // keep only scores above it
  bool centerPointBox = false;            // [xc, yc, w, h], else corners
};

/// NonMaxSuppression of `boxes` [B, N, 4] by `scores` [B, C, N]: int64
/// [selected, 3] rows of (batch, class, box). Per batch and class, boxes in
/// order of score (ties: the lower index first) are kept unless a kept one
/// overlaps them by an IoU above the threshold, up to `maxPerClass`.
/// Returns an empty tensor and sets `error` on shapes that do not fit.
Tensor nonMaxSuppression(const Tensor &boxes, const Tensor &scores,
                         const NmsOptions &options, std::string &error);

/// Unique's four results: the distinct values (slices along the axis),
/// where each first occurs, where each input element (slice) went, and
/// how often each occurs; the last three int64.
struct UniqueResult {
  Tensor y, indices, inverse, counts;
};

/// Unique over the flattened input (no axis) or over the slices along
/// `axis`, compared by value, lexicographically, NaN last; `sorted` orders
/// the results ascending, else by first occurrence (as ONNX's Unique).
/// Flat, the NaNs are one value; along an axis a slice holding a NaN is
/// distinct from every other (numpy's rules).
UniqueResult unique(const Tensor &x, std::optional<int64_t> axis, bool sorted);

} // namespace dfa::ref

#endif // DFA_REFERENCE_DATADEPENDENT_H
