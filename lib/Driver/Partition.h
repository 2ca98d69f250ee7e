//===- Partition.h - dfa-run in segments (graph breaks) ---------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// Private to lib/Driver. A model whose graph breaks (a node needs a value
/// known only at run time: NonZero's count, an If's condition, a shape
/// computed from data) runs in segments, as TorchDynamo's graph breaks and
/// torch-spyre's CPU fallbacks do: a device segment is every node that
/// compiles with what is known, compiled for the target and simulated;
/// the values the next one needs cross the target's host link; the host
/// reads them (shape operands and conditions specialize the next segment)
/// and computes what depends on data (NonZero, Unique, NonMaxSuppression,
/// a Loop whose condition the device computes) on the CPU reference; then
/// the next segment is compiled for the shapes they gave.
///
//===----------------------------------------------------------------------===//

#ifndef LIB_DRIVER_PARTITION_H
#define LIB_DRIVER_PARTITION_H

#include "dfa/Driver/Driver.h"
#include "dfa/Driver/Tools.h"
#include "dfa/Import/ONNX.h"
#include "dfa/Sim/Sim.h"

#include "llvm/Support/JSON.h"

#include <functional>

namespace dfa::driver {

/// One step of a run in segments, in time order (steps do not overlap: a
/// break is a synchronization).
struct SegmentStep {
  enum Kind { Device, Host, ToHost, ToDevice } kind = Device;
  /// Device: "segment N"; Host: the node(s); transfers: the value.
  std::string name;
  /// Host: the op types it ran; transfers: the node that needed it.
  std::string detail;
  int64_t bytes = 0; // transfers, and what a host step read and wrote
  int64_t ops = 0;   // device: the schedule's ops (0 on the CPU reference)
  int64_t nodes = 0; // device and host: the model's nodes it ran
  double start = 0, seconds = 0;
  /// Device: the bounded values it took (`--max-dim`), padded to their
  /// bounds. `seconds`, `ops` and the timeline are the padded schedule's
  /// (the one a bounded compiler keeps); the values are the exact run's.
  struct Bound {
    std::string node, value;
    int64_t dim = 0, bound = 0, count = 0;
  };
  std::vector<Bound> bounds;
  /// With bounds: the segment's graph work padded and exact (FLOPs, and
  /// bytes each op reads and writes), and the exact schedule's time.
  double flops = 0, exactFlops = 0, bytesMoved = 0, exactBytes = 0;
  double exactSeconds = 0;
};

/// A run in segments: the graph's outputs and the steps.
struct SegmentedRun {
  std::vector<ref::Tensor> outputs;
  std::vector<std::string> outNames;
  std::vector<SegmentStep> steps;
  /// Every break met, in order (the node and why).
  std::vector<GraphBreak> breaks;
  /// The whole run's simulated time and its parts.
  double seconds = 0, deviceSeconds = 0, linkSeconds = 0, hostSeconds = 0;
  int64_t linkBytes = 0;
  /// The device segments' simulations, shifted to the run's clock, with the
  /// host steps and transfers as ops of their own (for --trace).
  sim::Result timeline;
  bool timed = false; // a compiled target (the CPU reference has no clock)

  /// Set before the run (dfa-bisect): keep every device segment's graph
  /// and what it read and wrote, and every value the host knew.
  bool keep = false;
  struct Segment {
    int index = 0;
    /// The segment's graph-level module (before compiling), its arguments
    /// as the device held them when it ran, and its results.
    mlir::OwningOpRef<mlir::ModuleOp> module;
    std::vector<std::string> argNames, resultNames;
    std::vector<ref::Tensor> args, results;
  };
  std::vector<Segment> segments;
  /// Every value by name as the host has it (the device's results as they
  /// came back): what a device segment's arguments should have been.
  std::map<std::string, ref::Tensor> values;
  /// A host-link fault (`--inject host-layout`, `host-stale`): the value it
  /// struck (empty: none planted).
  std::string faulted;
  /// The device segment whose compile or simulation failed (-1: none, or
  /// the run stopped elsewhere: an import, a host step).
  int failedSegment = -1;
};

/// Sees each device segment's schedule and simulation, with its number
/// and its start on the run's clock (dfa-roofline profiles it).
using SegmentObserver = std::function<Status(
    sched::ProgramOp program, const sim::Result &timing, int index, double start)>;

/// Runs the ONNX model `opts.model` in segments on `t` (null: the CPU
/// reference), from the graph inputs' values by name.
Status runInSegments(const RunOptions &opts,
                     const std::map<std::string, ref::Tensor> &inputs,
                     const target::Target *t, mlir::MLIRContext &ctx,
                     DiagnosticPrinter &printer, SegmentedRun &out,
                     const SegmentObserver &observe = nullptr);

/// The summary dfa-run prints on stderr after the outputs.
void printSegments(const SegmentedRun &run, llvm::StringRef target);
/// The "segments" member of dfa.run/1.
void segmentsJson(llvm::json::OStream &j, const SegmentedRun &run);

} // namespace dfa::driver

#endif // LIB_DRIVER_PARTITION_H
