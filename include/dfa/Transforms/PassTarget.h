//===- PassTarget.h - the target a compile hands its passes -----*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef DFA_TRANSFORMS_PASSTARGET_H
#define DFA_TRANSFORMS_PASSTARGET_H

#include "dfa/Support/Status.h"
#include "dfa/Target/Target.h"

#include <memory>

namespace dfa {

/// What a compile hands every pass it builds (buildPipeline): the target,
/// parsed once by the caller, and where a failing pass records what kind
/// of failure it is (a model that does not fit is exit 9, not an internal
/// error). A pass run on its own (dfa-opt, a textual pipeline) has neither:
/// it parses the description its `target` option names, or the module's
/// `graph.target` (graph-decompose only the option: without one it
/// decomposes every composite).
struct PassTarget {
  std::shared_ptr<const target::Target> target;
  std::shared_ptr<Status> failure;
  /// Records why the pass failed; the first reason recorded stays.
  void fail(Status s) const {
    if (failure && *failure == Status::Ok)
      *failure = s;
  }
};

} // namespace dfa

#endif // DFA_TRANSFORMS_PASSTARGET_H
