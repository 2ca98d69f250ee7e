//===- Cost.cpp - time of work and transfers on a target --------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "dfa/Target/Cost.h"

#include <algorithm>
#include <cmath>

using namespace dfa::target;


double dfa::target::kernelUnits(const Target &t, int64_t planned) {
  return t.caps.placement == Placement::ChipPartition ? t.units.value
                                                      : double(planned);
}

double dfa::target::unitShare(const Target &t, int64_t planned) {
  return std::clamp(kernelUnits(t, std::max<int64_t>(planned, 1)) /
                        std::max(1.0, t.units.value),
                    1e-9, 1.0);
}

double dfa::target::kernelOverheadSeconds(const Target &t) {
  return (t.caps.staticPlan ? t.syncNs.value : t.launchNs.value) * 1e-9;
}

KernelTime dfa::target::kernelTime(const Target &t, const Work &w) {
  KernelTime time;
  time.memory = w.bandwidth > 0 ? w.bytes / w.bandwidth : 0;
  double share = unitShare(t, w.units);
  // Systolic arrays: weight-stationary folds (SCALE-Sim's closed form).
  // The array is K rows by N columns (`compute.matrix_unit` k and n);
  // `limits.mxu_count` arrays per chip, shared by its units.
  std::optional<double> arraysPerChip = t.limit("mxu_count");
  if (w.matrix && w.m > 0 && w.n > 0 && w.k > 0 && t.caps.matrixModel == MatrixModel::Systolic &&
      t.matrixK && t.matrixN && arraysPerChip) {
    double r = t.matrixK->value, c = t.matrixN->value;
    double arrays = std::max(
        1.0, std::floor(*arraysPerChip * share + 0.5));
    double folds = double(w.batch) * std::ceil(double(w.k) / r) *
                   std::ceil(double(w.n) / c);
    double perArray = std::ceil(folds / arrays), m = double(w.m);
    // SCALE-Sim: each fold loads its weights (R), streams M rows, drains
    // (C - 1) and skews (R - 1). Pipelined: the next fold's weights load
    // while this one streams, and rows follow each other through the
    // array, so a fold costs max(R, M) and the fill and drain are paid once.
    double cycles = t.systolicModel == "pipelined-ws"
                        ? perArray * std::max(r, m) + (r + c - 2)
                        : perArray * (2 * r + c + m - 2);
    time.compute = cycles / std::max(1.0, t.clockHz.value);
    return time;
  }
  double peak = peakRate(t, w.matrix, w.dtype);
  time.compute = peak > 0 ? w.flops / (peak * share) : 0;
  return time;
}

double dfa::target::peakRate(const Target &t, bool matrix,
                             llvm::StringRef dtype, bool measured) {
  // Vector work runs at the published vector rate where there is one, else
  // at the matrix peak (an optimistic bound; such kernels are memory-bound).
  double peak = t.peak(dtype);
  if (!matrix) {
    auto it = t.peakFlopsVector.find(dtype.str());
    if (it == t.peakFlopsVector.end())
      it = t.peakFlopsVector.find("f32");
    if (it != t.peakFlopsVector.end())
      peak = it->second.value;
  } else if (measured && t.matrixEfficiency) {
    peak *= t.matrixEfficiency->value;
  }
  return peak;
}

double dfa::target::computeSeconds(const Target &t, const Work &w) {
  return kernelTime(t, w).seconds();
}

double dfa::target::bandwidthOf(const MemoryLevel &m, int64_t units) {
  return m.bandwidthBytesPerS.value *
         (m.scope == "unit" ? double(std::max<int64_t>(units, 1)) : 1.0);
}

TransferPath dfa::target::transferPath(const Target &t, const MemoryLevel &src,
                                       int64_t srcUnits, const MemoryLevel &dst,
                                       int64_t dstUnits, bool crossChip) {
  TransferPath p;
  p.dma = src.kind == "dram" || dst.kind == "dram";
  if (crossChip && t.chipToChip) {
    p.kind = TransferPath::Link;
    p.bandwidth = t.chipToChip->bandwidthBytesPerS.value;
    p.latencyNs = t.chipToChip->latencyNs.value;
    return p;
  }
  if (&src == &dst && t.onChip) {
    p.kind = TransferPath::Fabric;
    p.bandwidth = t.onChip->bandwidthBytesPerS.value;
    p.latencyNs = t.onChip->latencyNs.value;
    return p;
  }
  // A per-unit memory moves its bytes through every unit the buffer spans.
  double a = bandwidthOf(src, srcUnits), b = bandwidthOf(dst, dstUnits);
  p.kind = TransferPath::Memory;
  p.sourceBound = a <= b;
  p.level = p.sourceBound ? &src : &dst;
  p.bandwidth = std::min(a, b);
  // The farther memory's latency, whichever side bounds the bandwidth.
  p.latencyNs = std::max(src.latencyNs.value, dst.latencyNs.value);
  return p;
}

double dfa::target::transferSeconds(const Target &t, const TransferPath &path,
                                    double bytes) {
  double s = ((path.dma ? t.dmaSetupNs.value : 0) + path.latencyNs) * 1e-9;
  if (path.bandwidth > 0)
    s += bytes / path.bandwidth;
  return s;
}

int64_t dfa::target::toCycles(const Target &t, double seconds) {
  return std::max<int64_t>(1, int64_t(std::ceil(seconds * t.clockHz.value)));
}
