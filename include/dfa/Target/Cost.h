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
};

/// Seconds a kernel takes.
double computeSeconds(const Target &t, const Work &w);
/// Seconds a transfer of `bytes` takes over `bandwidth` (bytes/s) with
/// `latencyNs`, plus the target's DMA setup.
double transferSeconds(const Target &t, double bytes, double bandwidth,
                       double latencyNs);
/// Cycles of the target's clock, at least 1.
int64_t toCycles(const Target &t, double seconds);

} // namespace dfa::target

#endif // DFA_TARGET_COST_H
