//===- Schedule.h - lower kernels to a per-target schedule ------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef DFA_TRANSFORMS_SCHEDULE_H
#define DFA_TRANSFORMS_SCHEDULE_H

#include "dfa/Support/Status.h"
#include "dfa/Target/Target.h"

#include "mlir/IR/BuiltinOps.h"

#include <string>

namespace dfa {

struct ScheduleOptions {
  /// Emit a remark for each placement decision.
  bool remarks = false;
  /// A fault to plant: "tail-drop" makes every copy whose minor extent ends
  /// in a partial stick, tile or vector cover only the whole ones.
  std::string inject;
};

/// Replaces the function `main` of `module` (its ops grouped into
/// graph.kernel ops, tiled and laid out) by a `sched.program` for `t`:
/// placement, memory planning with live ranges, DMA insertion with double
/// buffering, issue order and, for static targets, start cycles. Errors are
/// emitted as diagnostics; the status says which kind (DoesNotFit when the
/// model fits no memory of the target).
Status convertToSched(mlir::ModuleOp module, const target::Target &t,
                      const ScheduleOptions &options = {});

} // namespace dfa

#endif // DFA_TRANSFORMS_SCHEDULE_H
