//===- Cost.cpp - time of work and transfers on a target --------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "dfa/Target/Cost.h"

#include <algorithm>
#include <cmath>

using namespace dfa::target;

double dfa::target::computeSeconds(const Target &t, const Work &w) {
  // Vector work runs at the published vector rate where there is one, else
  // at the matrix peak (an optimistic bound; such kernels are memory-bound).
  double peak = t.peak(w.dtype);
  if (!w.matrix) {
    auto it = t.peakFlopsVector.find(w.dtype);
    if (it == t.peakFlopsVector.end())
      it = t.peakFlopsVector.find("f32");
    if (it != t.peakFlopsVector.end())
      peak = it->second.value;
  }
  double share = std::clamp(w.units / std::max(1.0, t.units.value), 1e-9, 1.0);
  double compute = peak > 0 ? w.flops / (peak * share) : 0;
  double memory = w.bandwidth > 0 ? w.bytes / w.bandwidth : 0;
  return std::max(compute, memory);
}

double dfa::target::transferSeconds(const Target &t, double bytes,
                                    double bandwidth, double latencyNs) {
  double s = (t.dmaSetupNs.value + latencyNs) * 1e-9;
  if (bandwidth > 0)
    s += bytes / bandwidth;
  return s;
}

int64_t dfa::target::toCycles(const Target &t, double seconds) {
  return std::max<int64_t>(1, int64_t(std::ceil(seconds * t.clockHz.value)));
}
