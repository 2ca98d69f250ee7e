//===- Cost.h - time of work and transfers on a target ----------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// The analytic model the scheduler uses for start cycles: a kernel takes
/// the longer of its compute time (FLOPs over the peak of the units it
/// uses) and its memory time (bytes over the bandwidth of the level it
/// reads); a transfer takes its setup, latency and bytes over bandwidth.
///
//===----------------------------------------------------------------------===//

#ifndef DFA_TARGET_COST_H
#define DFA_TARGET_COST_H

#include "dfa/Target/Target.h"

#include <algorithm>

namespace dfa::target {

struct Work {
  double flops = 0;
  double bytes = 0;
  /// Runs on the matrix units (matmul, conv, attention) or the vector units.
  bool matrix = false;
  std::string dtype = "f32";
  /// Units used out of the target's.
  double units = 1;
  /// Bandwidth of the memory the operands stream from (bytes/s); 0: none.
  double bandwidth = 0;
  /// The GEMM shape of matrix work, when known: `batch` products of
  /// [m x k] by [k x n] (after padding). Systolic targets time folds of it.
  int64_t batch = 1, m = 0, n = 0, k = 0;
};

/// The units whose compute a kernel placed on `planned` units holds: all of
/// the chip's under chip partition (its units are functional slices, and
/// the kernel streams through them all), else the planned ones. The
/// scheduler times a kernel with it and the roofline draws its roof.
double kernelUnits(const Target &t, int64_t planned);

/// Whether a kernel of this kind (a graph.kernel's `kind`) runs on the
/// matrix units: matmul, conv and attention.
bool isMatrixKind(llvm::StringRef kind);

/// The two bounds of a kernel's time.
struct KernelTime {
  double compute = 0; // on its units: FLOPs over the rate, or systolic folds
  double memory = 0;  // its bytes over the bandwidth it streams from
  double seconds() const { return std::max(compute, memory); }
};

/// The compute and memory times of a kernel. Matrix work with a known
/// GEMM shape on a systolic target (arrays of R x C = `compute.matrix_unit`
/// k x n, `limits.mxu_count` of them per chip) takes ceil(K/R) * ceil(N/C)
/// folds spread over the arrays of the units it uses: as SCALE-Sim's
/// weight-stationary model, 2R + C + M - 2 cycles each
/// (`compute.systolic_model` scalesim-ws), or pipelined with the next
/// fold's weights loading behind this one's rows, max(R, M) each plus one
/// fill and drain of R + C - 2 (pipelined-ws); other work runs at the peak FLOP rate scaled by
/// `compute.matrix_efficiency` (matrix) where the description gives one.
KernelTime kernelTime(const Target &t, const Work &w);
/// The FLOP/s rate of all the target's units for work of `dtype` on the
/// matrix units (`matrix`) or the vector units: the published vector rate
/// for vector work where there is one, else the matrix peak; matrix work
/// scaled by `compute.matrix_efficiency` (the measured ceiling) when the
/// description gives one and `measured` is set.
double peakRate(const Target &t, bool matrix, llvm::StringRef dtype,
                bool measured = true);
/// Seconds a kernel takes: kernelTime(t, w).seconds().
double computeSeconds(const Target &t, const Work &w);
/// Seconds a transfer of `bytes` takes over `bandwidth` (bytes/s) with
/// `latencyNs`, plus the target's DMA setup when a DMA engine moves it
/// (`dmaTransfer`: an endpoint is off-chip memory); on-chip streams (a
/// wafer's fabric, chip-to-chip links between SRAMs) pay no setup.
double transferSeconds(const Target &t, double bytes, double bandwidth,
                       double latencyNs, bool dmaTransfer = true);
/// Whether a copy between levels `a` and `b` (names) is a DMA-engine
/// transfer: one of them is off-chip (dram) memory.
bool isDmaTransfer(const Target &t, llvm::StringRef a, llvm::StringRef b);
/// Cycles of the target's clock, at least 1.
int64_t toCycles(const Target &t, double seconds);

} // namespace dfa::target

#endif // DFA_TARGET_COST_H
