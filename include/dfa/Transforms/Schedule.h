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

#include "llvm/ADT/ArrayRef.h"

#include <string>
#include <vector>

namespace dfa {

struct ScheduleOptions {
  /// Emit a remark for each placement decision.
  bool remarks = false;
  /// A fault to plant, one of knownFaults() (parseFault's syntax).
  std::string inject;
};

/// A compiler fault `--inject` can plant, for tests and teaching (and for
/// dfa-bisect's own tests: each is a known bug class to localize).
struct Fault {
  const char *name;
  const char *effect;
  /// Takes a source node: `NAME@NODE`.
  bool takesNode = false;
  /// The pass that plants it: "graph-decompose" or (default) the lowering.
  const char *pass = "convert-graph-to-sched";
};
/// Every fault, in the order the help lists them.
llvm::ArrayRef<Fault> knownFaults();
/// "tail-drop (...); nan@NODE (...)": the faults for a help text.
std::string faultHelp();
/// The fault names, as written on the command line ("nan@NODE").
std::vector<std::string> faultNames();

/// An --inject value, parsed.
struct FaultSpec {
  std::string name; // "" for none
  std::string node; // nan@NODE's node
};
/// Parses `spec` into `out`; returns why it is not a fault ("" if it is).
std::string parseFault(llvm::StringRef spec, FaultSpec &out);

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
