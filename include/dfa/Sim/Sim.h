//===- Sim.h - simulating a schedule: values and time ------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// dfa-run's engine for compiled targets: runs a `sched.program`'s values on
/// byte-array memories (lib/Sim/Machine) and its time as a discrete-event
/// simulation over the token graph with contended units, DMA engines and
/// memory bandwidth (lib/Sim/Timing).
///
//===----------------------------------------------------------------------===//

#ifndef DFA_SIM_SIM_H
#define DFA_SIM_SIM_H

#include "dfa/Reference/Tensor.h"
#include "dfa/Support/Status.h"
#include "dfa/Target/Target.h"

#include "dialects/Sched/SchedOps.h"

#include "llvm/Support/raw_ostream.h"

#include <map>
#include <string>
#include <vector>

namespace dfa::sim {

struct Options {
  /// Run the values (needs the weights' data); else time only.
  bool values = true;
  /// The kernels' arithmetic: the target's (its matrix accumulator), the
  /// CPU reference's (f32 sums), or the oracle's (f64 sums, IEEE
  /// products whatever the fp32-matmul mode). The last two are the
  /// references dfa-run measures a saved schedule's carried rounding
  /// with; the target's storage formats hold in all three.
  enum class Arithmetic { Target, Reference, Oracle };
  Arithmetic arithmetic = Arithmetic::Target;
  /// A DMA or kernel still running this long after its start trips the
  /// watchdog (seconds of simulated time).
  double watchdogSeconds = 10.0;
};

/// What an op waited for last before it started: how the critical path
/// reached it.
enum class Wait : uint8_t {
  None,   // nothing: it started at time 0
  Data,   // a token: the op that made what it reads
  Stream, // the first slice of a producer it streams from (sched `rows`)
  Units,  // its compute units, which another op held
  Engine, // its DMA engine, which another copy held
  Plan,   // its planned cycle, after what it waited for (cycle-exact)
};
/// "start", "data", "stream", "units", "engine", "plan".
llvm::StringRef name(Wait w);

/// One op of the schedule as it ran.
struct OpRecord {
  /// The schedule's op (valid while the program lives).
  mlir::Operation *op = nullptr;
  std::string name;     // kernel name, or "dma"
  std::string kind;     // compute kind ("matmul", ...) or "dma"
  std::string resource; // "SM 0-131", "dma engine 0", "link 0", ...
  int64_t chip = 0;
  double start = 0, end = 0; // seconds
  double plannedStart = -1;  // seconds; -1 when the plan has none
  int64_t bytes = 0;         // DMAs
  std::string kernel;        // DMAs: the kernel whose operand or result it moves
  std::string source;        // source node names (the op's location)
  /// What it waited for last (an index into Result::ops; -1: nothing, or a
  /// barrier's own cause) and how.
  int32_t cause = -1;
  Wait wait = Wait::None;
  /// How much later it could have ended without delaying the makespan, over
  /// the dependences and the resource hand-offs that happened (seconds).
  double slack = 0;
};

/// One step of the critical path, in time order. A step is an op's time on
/// the path (all of it; up to its first slice where the next op streams
/// from it; its last slice where a streamed producer set its end) or, with
/// `op` -1, a gap where nothing on the path ran. The steps tile
/// [0, makespan].
struct PathStep {
  int32_t op = -1; // index into Result::ops
  double start = 0, end = 0;
  Wait via = Wait::None; // how the path reached it from the step before
};

/// Busy time of one resource.
struct Utilization {
  std::string resource;
  double busySeconds = 0;
};

/// Bytes live in one memory level over time.
struct Occupancy {
  std::string level;
  std::vector<std::pair<double, int64_t>> steps; // (time, bytes from then)
  int64_t peakBytes = 0;
};

struct Result {
  std::vector<ref::Tensor> outputs;
  double seconds = 0;        // simulated total
  double plannedSeconds = 0; // the static plan's makespan (0: none)
  uint64_t events = 0;
  double eventLoopSeconds = 0; // wall time of the event loop alone
  std::vector<OpRecord> ops;
  std::vector<Utilization> utilization;
  std::vector<Occupancy> memory;
  /// The chain of ops and waits that sets the makespan: from the op that
  /// ends last, back through what each waited for last.
  std::vector<PathStep> criticalPath;
};

/// Simulates `program` for `t` on `inputs` (one per program argument;
/// ignored without `values`). Errors are emitted at the ops concerned:
/// ScheduleConflict, Deadlock (and the watchdog), RuntimeError for values.
Status simulate(sched::ProgramOp program, const target::Target &t,
                llvm::ArrayRef<ref::Tensor> inputs, const Options &options,
                Result &result);

/// `x` rounded to the format `t` stores its element type in (Spyre keeps
/// f16 as dfp16); `x` itself when the target keeps the type as it is.
ref::Tensor toDeviceFormat(const target::Target &t, const ref::Tensor &x);

/// Chrome trace-event JSON (opens in Perfetto): a process per chip, a track
/// per unit range or engine, source names in each event's args.
void writeTrace(const Result &result, const target::Target &t,
                llvm::raw_ostream &os);

} // namespace dfa::sim

#endif // DFA_SIM_SIM_H
