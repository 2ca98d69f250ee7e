//===- DataDependent.cpp - ops whose output shape is their data -------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "dfa/Reference/DataDependent.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>

using namespace dfa;
using namespace dfa::ref;

Tensor dfa::ref::nonZero(const Tensor &x) {
  if (x.rank() == 0) // no dims to index: [0, 1] or [0, 0], as the reference
    return Tensor(DType::I64, {0, x.getDouble(0) != 0 ? 1 : 0});
  Shape shape(x.shape().begin(), x.shape().end());
  int64_t rank = int64_t(shape.size());
  std::vector<int64_t> hits;
  for (int64_t i = 0; i < x.numElements(); ++i)
    if (x.getDouble(i) != 0) // NaN is non-zero
      hits.push_back(i);
  int64_t count = int64_t(hits.size());
  Tensor out(DType::I64, {rank, count});
  for (int64_t j = 0; j < count; ++j)
    for (int64_t d = rank - 1, at = hits[j]; d >= 0; --d) {
      out.data<int64_t>()[d * count + j] = at % shape[d];
      at /= shape[d];
    }
  return out;
}

UniqueResult dfa::ref::unique(const Tensor &x, std::optional<int64_t> axis,
                              bool sorted) {
  // Slices: n along the axis, each `outer` runs of `inner` elements.
  Shape shape(x.shape().begin(), x.shape().end());
  int64_t a = axis ? *axis : 0;
  if (!axis)
    shape = {x.numElements()};
  int64_t n = shape[a], outer = 1, inner = 1;
  for (int64_t d = 0; d < a; ++d)
    outer *= shape[d];
  for (int64_t d = a + 1; d < int64_t(shape.size()); ++d)
    inner *= shape[d];
  bool floats = isFloat(x.dtype());
  auto at = [&](int64_t slice, int64_t o, int64_t k) { return (o * n + slice) * inner + k; };
  // Slices compared lexicographically by value, NaN above every number (a
  // total order, as numpy sorts).
  auto cmp = [&](int64_t i, int64_t j) {
    if (!floats) {
      int64_t a = x.getInt(i), b = x.getInt(j);
      return a < b ? -1 : a > b ? 1 : 0;
    }
    double a = x.getDouble(i), b = x.getDouble(j);
    bool na = std::isnan(a), nb = std::isnan(b);
    if (na || nb)
      return na == nb ? 0 : na ? 1 : -1;
    return a < b ? -1 : a > b ? 1 : 0;
  };
  auto less = [&](int64_t p, int64_t q) {
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t k = 0; k < inner; ++k)
        if (int c = cmp(at(p, o, k), at(q, o, k)))
          return c < 0;
    return false;
  };
  // Whether slice p holds a NaN: along an axis such slices are all
  // distinct (NaN != NaN); flat, the NaNs are one value (numpy's
  // equal_nan).
  auto hasNaN = [&](int64_t p) {
    if (!floats || !axis)
      return false;
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t k = 0; k < inner; ++k)
        if (std::isnan(x.getDouble(at(p, o, k))))
          return true;
    return false;
  };
  std::vector<int64_t> order(n);
  for (int64_t i = 0; i < n; ++i)
    order[i] = i;
  std::stable_sort(order.begin(), order.end(), less);
  // Groups of equal slices, in sorted order; each one's first occurrence
  // is its smallest index (the sort is stable).
  std::vector<int64_t> first, count, group(n);
  for (int64_t r = 0; r < n; ++r) {
    int64_t i = order[r];
    if (r == 0 || less(order[r - 1], i) || hasNaN(i)) {
      first.push_back(i);
      count.push_back(0);
    }
    group[i] = int64_t(first.size()) - 1;
    ++count.back();
  }
  int64_t u = int64_t(first.size());
  // Unsorted: groups by first occurrence.
  std::vector<int64_t> rank(u);
  for (int64_t g = 0; g < u; ++g)
    rank[g] = g;
  if (!sorted)
    std::stable_sort(rank.begin(), rank.end(),
                     [&](int64_t p, int64_t q) { return first[p] < first[q]; });
  std::vector<int64_t> position(u); // group -> output position
  for (int64_t p = 0; p < u; ++p)
    position[rank[p]] = p;
  UniqueResult r;
  Shape yShape = shape;
  yShape[a] = u;
  r.y = Tensor(x.dtype(), yShape);
  r.indices = Tensor(DType::I64, {u});
  r.counts = Tensor(DType::I64, {u});
  r.inverse = Tensor(DType::I64, {n});
  size_t bytes = dtypeSize(x.dtype());
  for (int64_t p = 0; p < u; ++p) {
    int64_t g = rank[p], src = first[g];
    r.indices.data<int64_t>()[p] = src;
    r.counts.data<int64_t>()[p] = count[g];
    for (int64_t o = 0; o < outer; ++o)
      std::memcpy(r.y.bytes() + ((o * u + p) * inner) * bytes,
                  x.bytes() + at(src, o, 0) * bytes, inner * bytes);
  }
  for (int64_t i = 0; i < n; ++i)
    r.inverse.data<int64_t>()[i] = position[group[i]];
  return r;
}

namespace {

/// A box as [xmin, xmax, ymin, ymax].
std::array<double, 4> extent(const Tensor &boxes, int64_t at, bool center) {
  double v[4];
  for (int k = 0; k < 4; ++k)
    v[k] = boxes.getDouble(at + k);
  if (center) // [xc, yc, w, h]
    return {v[0] - v[2] / 2, v[0] + v[2] / 2, v[1] - v[3] / 2, v[1] + v[3] / 2};
  // [y1, x1, y2, x2], either diagonal
  return {std::min(v[1], v[3]), std::max(v[1], v[3]), std::min(v[0], v[2]),
          std::max(v[0], v[2])};
}

/// Whether `a` overlaps `b` by an IoU above `threshold` (the ONNX
/// reference's test, early outs included).
bool suppresses(const std::array<double, 4> &a, const std::array<double, 4> &b,
                double threshold) {
  double ix0 = std::max(a[0], b[0]), ix1 = std::min(a[1], b[1]);
  if (ix1 <= ix0)
    return false;
  double iy0 = std::max(a[2], b[2]), iy1 = std::min(a[3], b[3]);
  if (iy1 <= iy0)
    return false;
  double inter = (ix1 - ix0) * (iy1 - iy0);
  double areaA = (a[1] - a[0]) * (a[3] - a[2]);
  double areaB = (b[1] - b[0]) * (b[3] - b[2]);
  double uni = areaA + areaB - inter;
  if (inter <= 0 || areaA <= 0 || areaB <= 0 || uni <= 0)
    return false;
  return inter / uni > threshold;
}

} // namespace

Tensor dfa::ref::nonMaxSuppression(const Tensor &boxes, const Tensor &scores,
                                   const NmsOptions &o, std::string &error) {
  if (boxes.rank() != 3 || boxes.shape()[2] != 4 || scores.rank() != 3 ||
      scores.shape()[0] != boxes.shape()[0] ||
      scores.shape()[2] != boxes.shape()[1]) {
    error = "boxes must be [batch, boxes, 4] and scores [batch, classes, boxes], got " +
            shapeString(boxes.shape()) + " and " + shapeString(scores.shape());
    return {};
  }
  int64_t batches = boxes.shape()[0], n = boxes.shape()[1],
          classes = scores.shape()[1];
  std::vector<std::array<int64_t, 3>> selected;
  std::vector<int64_t> order;
  std::vector<std::array<double, 4>> kept;
  for (int64_t b = 0; b < batches; ++b)
    for (int64_t c = 0; c < classes && o.maxPerClass > 0; ++c) {
      int64_t base = (b * classes + c) * n;
      order.clear();
      for (int64_t i = 0; i < n; ++i)
        if (!o.scoreThreshold || scores.getDouble(base + i) > *o.scoreThreshold)
          order.push_back(i);
      std::stable_sort(order.begin(), order.end(), [&](int64_t x, int64_t y) {
        return scores.getDouble(base + x) > scores.getDouble(base + y);
      });
      kept.clear();
      for (int64_t i : order) {
        if (int64_t(kept.size()) >= o.maxPerClass)
          break;
        std::array<double, 4> box = extent(boxes, (b * n + i) * 4, o.centerPointBox);
        if (std::none_of(kept.begin(), kept.end(), [&](const auto &k) {
              return suppresses(box, k, o.iouThreshold);
            })) {
          kept.push_back(box);
          selected.push_back({b, c, i});
        }
      }
    }
  Tensor out(DType::I64, {int64_t(selected.size()), 3});
  for (size_t r = 0; r < selected.size(); ++r)
    for (int k = 0; k < 3; ++k)
      out.data<int64_t>()[r * 3 + k] = selected[r][k];
  return out;
}
