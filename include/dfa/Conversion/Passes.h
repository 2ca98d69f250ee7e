//===- Passes.h - dfa conversion passes -------------------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef DFA_CONVERSION_PASSES_H
#define DFA_CONVERSION_PASSES_H

#include "dfa/Transforms/TargetModel.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace dfa {

#define GEN_PASS_DECL
#define GEN_PASS_REGISTRATION
#include "dfa/Conversion/Passes.h.inc"

/// convert-graph-to-sched for the target a compile hands over.
std::unique_ptr<mlir::Pass>
createConvertGraphToSchedPass(PassTarget target,
                              const ConvertGraphToSchedPassOptions &options);

} // namespace dfa

#endif // DFA_CONVERSION_PASSES_H
