//===- Measured.h - a PyTorch Profiler trace against a report ---*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// `dfa-roofline MODEL --measured TRACE.json`: a Chrome trace that
/// torch.profiler wrote for the same model (`export_chrome_trace`), with or
/// without CUDA kernels, is read into the ops that did work, in order:
/// each top-level operator (`cpu_op` events not inside another on their
/// thread; views, which launch nothing, left out), timed by the kernels it
/// launched (`kernel` events linked by their `External id`) or, in a CPU
/// trace, by its own duration; a trace of kernels alone makes each kernel
/// an op. The ops are then aligned with the report's source nodes in graph
/// order by what they compute (dynamic programming over the two sequences:
/// an op takes a run of nodes it can be, at least one of them its own
/// kind), and each row gets dfa's prediction, its gap and a likely cause.
///
//===----------------------------------------------------------------------===//

#ifndef DFA_ROOFLINE_MEASURED_H
#define DFA_ROOFLINE_MEASURED_H

#include "dfa/Roofline/Graph.h"
#include "dfa/Roofline/Roofline.h"
#include "dfa/Support/Status.h"

namespace dfa::roofline {

/// One op of a trace, in the order it ran.
struct TraceOp {
  std::string name, module;
  /// The torch.profiler.record_function labels around it (they may name
  /// the model's module groups or nodes: "attn.qkv", "/attn/qkv").
  std::vector<std::string> labels;
  double seconds = 0; // its kernels' time, or its own (CPU)
  int64_t kernels = 0;
};

struct Trace {
  std::vector<TraceOp> ops;
  bool device = false; // kernel events timed the ops
  int64_t viewsLeftOut = 0;
};

/// Reads a Chrome trace (an object with `traceEvents`, or a bare array).
/// Not JSON, no events, or no op that did work: InvalidModel with `error`
/// saying which; a file past --max-memory: LimitExceeded.
Status readTrace(llvm::StringRef path, llvm::StringRef text, Trace &out,
                 std::string &error);

/// Sets `r.measured`: the trace's ops aligned with `graph`'s nodes (graph
/// order) and compared with `r`'s prediction for them.
void compareMeasured(Report &r, const SourceGraph &graph, const Trace &trace,
                     llvm::StringRef file);

/// The comparison as a table (at most `top` rows; 0: all).
void printMeasured(const Report &r, llvm::raw_ostream &os, size_t top);

} // namespace dfa::roofline

#endif // DFA_ROOFLINE_MEASURED_H
