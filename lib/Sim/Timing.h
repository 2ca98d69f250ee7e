//===- Timing.h - discrete-event simulation of a schedule -------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// Private to lib/Sim. The schedule's ops become tasks joined by their
/// tokens. A compute task holds its units for the cycles the plan gives
/// it; a DMA task holds its engine, waits its setup and latency, then
/// moves its bytes over its path (an off-chip memory level, the on-chip
/// fabric or a chip-to-chip link), whose bandwidth the DMAs on it share
/// equally (a fluid model). Dynamic and static-order targets start a task
/// once its tokens are done and its resources free, in plan order;
/// cycle-exact targets (the LPU) start every task at its planned cycle,
/// and a task whose tokens are not done or whose units are busy then is a
/// scheduling conflict.
///
//===----------------------------------------------------------------------===//

#ifndef LIB_SIM_TIMING_H
#define LIB_SIM_TIMING_H

#include "dfa/Sim/Sim.h"

namespace dfa::sim {

/// Times `program`; fills the time, ops, utilization and memory of `r`.
Status timeProgram(sched::ProgramOp program, const target::Target &t,
                   const Options &options, Result &r);

} // namespace dfa::sim

#endif // LIB_SIM_TIMING_H
