//===- Pattern.cpp - where the bad elements sit on the device --------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "dfa/Bisect/Pattern.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <set>

using namespace dfa;
using namespace dfa::bisect;

std::string dfa::bisect::indexString(int64_t flat, llvm::ArrayRef<int64_t> shape) {
  std::vector<int64_t> idx(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    int64_t n = std::max<int64_t>(1, shape[d]);
    idx[d] = flat % n;
    flat /= n;
  }
  std::string s = "[";
  for (size_t d = 0; d < idx.size(); ++d)
    s += (d ? ", " : "") + std::to_string(idx[d]);
  return s + "]";
}

namespace {

/// The values of `t` sorted, NaNs last (equal to each other).
std::vector<double> sortedValues(const ref::Tensor &t) {
  std::vector<double> v = t.toDoubles();
  std::sort(v.begin(), v.end(), [](double a, double b) {
    if (std::isnan(a))
      return false;
    if (std::isnan(b))
      return true;
    return a < b;
  });
  return v;
}

bool sameValues(const std::vector<double> &a, const std::vector<double> &b) {
  if (a.size() != b.size())
    return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (!(a[i] == b[i] || (std::isnan(a[i]) && std::isnan(b[i]))))
      return false;
  return true;
}

} // namespace

std::optional<ref::Tensor> dfa::bisect::swapMinorStrides(const ref::Tensor &t) {
  llvm::ArrayRef<int64_t> s = t.shape();
  if (s.size() < 2 || s[s.size() - 1] < 2 || s[s.size() - 2] < 2)
    return std::nullopt;
  int64_t m = s[s.size() - 2], n = s.back(), plane = m * n;
  ref::Tensor out = t.clone();
  size_t e = ref::dtypeSize(t.dtype());
  for (int64_t p = 0; p < t.numElements() / plane; ++p)
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j)
        std::memcpy(out.bytes() + (p * plane + i * n + j) * e,
                    t.bytes() + (p * plane + j * m + i) * e, e);
  return out;
}

Pattern dfa::bisect::findPattern(const Metrics &m, const ref::Tensor &got,
                                 const ref::Tensor &ref,
                                 const DeviceLayout &layout) {
  Pattern p;
  if (m.bad.empty())
    return p;
  llvm::ArrayRef<int64_t> shape = ref.shape();
  int64_t n = ref.numElements();
  int64_t minor = shape.empty() ? 1 : std::max<int64_t>(1, shape.back());
  int64_t g = std::max<int64_t>(1, layout.granule);
  auto count = [&](size_t k) {
    return std::to_string(k) + " of " + std::to_string(n) + " elements";
  };
  const std::string &gname = layout.granuleName;

  // Tail: only the partial last granule of the minor dim.
  if (g > 1 && minor % g != 0 && minor > g) {
    int64_t whole = minor / g * g;
    bool tail = llvm::all_of(m.bad, [&](int64_t i) { return i % minor >= whole; });
    if (tail) {
      p.kind = "tail";
      std::string range = whole == minor - 1
                              ? "minor index " + std::to_string(whole)
                              : llvm::formatv("minor indices {0} to {1}", whole,
                                              minor - 1)
                                    .str();
      p.where = llvm::formatv("{0}: {1}, past the last whole {2} ({3} "
                              "elements per {2}; {2} {4} of {5} holds {6} "
                              "value(s) and {7} padding), first at {8}",
                              count(m.bad.size()), range, gname, g, whole / g,
                              minor / g + 1, minor - whole, g - (minor - whole),
                              indexString(m.bad.front(), shape))
                    .str();
      return p;
    }
  }
  // Every bad element at one position of its granule.
  if (g > 1 && minor >= 2 * g && m.bad.size() > 1) {
    int64_t r = m.bad.front() % minor % g;
    if (llvm::all_of(m.bad, [&](int64_t i) { return i % minor % g == r; })) {
      p.kind = "tile-boundary";
      p.where = llvm::formatv("{0}: element {1} of every {2} ({3} per {2}), "
                              "first at {4}",
                              count(m.bad.size()), r, gname, g,
                              indexString(m.bad.front(), shape))
                    .str();
      return p;
    }
  }
  // The right values, in the wrong places.
  // (Not for integers and bools: any balanced set of flips would match.)
  if (m.bad.size() > 1 && m.nanMismatches == 0 && ref::isFloat(ref.dtype()) &&
      sameValues(sortedValues(got), sortedValues(ref))) {
    std::optional<ref::Tensor> swapped = swapMinorStrides(ref);
    if (swapped && std::memcmp(swapped->bytes(), got.bytes(), got.byteSize()) == 0) {
      p.kind = "transposed";
      p.where = count(m.bad.size()) +
                " hold the reference's values read with the two minor "
                "strides swapped (element [.., i, j] from [.., j, i] of the "
                "row-major image)";
    } else {
      p.kind = "permutation";
      p.where = count(m.bad.size()) +
                " hold the reference's values at other positions";
    }
    return p;
  }
  // One unit's share of the rows.
  if (layout.units > 1 && m.bad.size() > 1) {
    int64_t share = (n + layout.units - 1) / layout.units;
    int64_t u = m.bad.front() / share;
    if (m.bad.back() / share == u && int64_t(m.bad.size()) * 2 >= share) {
      p.kind = "block";
      p.where = llvm::formatv("{0}, all in unit {1}'s block (elements {2} to "
                              "{3} of {4} units' equal shares)",
                              count(m.bad.size()), u, u * share,
                              std::min(n, (u + 1) * share) - 1, layout.units)
                    .str();
      return p;
    }
  }
  if (m.nanMismatches == int64_t(m.bad.size())) {
    p.kind = "nan";
    p.where = count(m.bad.size()) + " differ in NaN-ness from the "
              "reference (NaN on one side only), first at " +
              indexString(m.bad.front(), shape);
    return p;
  }
  if (int64_t(m.bad.size()) == n) {
    p.kind = "all";
    p.where = "every element, worst at " + indexString(m.maxAbsIndex, shape);
    return p;
  }
  if (m.constantFill) {
    p.kind = "constant";
    p.where = count(m.bad.size()) + " all hold " +
              llvm::formatv("{0}", *m.constantFill).str() + ", first at " +
              indexString(m.bad.front(), shape);
    return p;
  }
  p.kind = "scattered";
  p.where = count(m.bad.size()) + " with no structure, worst at " +
            indexString(m.maxAbsIndex, shape) +
            " (" + shortNumber(m.maxUlp) + " ulps)";
  return p;
}
