//===- InitAllPasses.h - register every dfa pass ----------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef DFA_INITALLPASSES_H
#define DFA_INITALLPASSES_H

#include "dfa/Conversion/Passes.h"
#include "dfa/Pipeline/Pipeline.h"
#include "dfa/Transforms/Passes.h"

namespace dfa {

/// Registers every dfa pass, and the whole pipeline as `dfa-pipeline`, so
/// that textual pipelines can name them.
inline void registerAllPasses() {
  registerPasses();
  registerConversionPasses();
  registerPipelines();
}

} // namespace dfa

#endif // DFA_INITALLPASSES_H
