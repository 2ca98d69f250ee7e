//===- Passes.h - dfa transformation passes ---------------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef DFA_TRANSFORMS_PASSES_H
#define DFA_TRANSFORMS_PASSES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace dfa {

#define GEN_PASS_DECL
#define GEN_PASS_REGISTRATION
#include "dfa/Transforms/Passes.h.inc"

} // namespace dfa

#endif // DFA_TRANSFORMS_PASSES_H
