//===- InitAllPasses.h - register every dfa pass ----------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef DFA_INITALLPASSES_H
#define DFA_INITALLPASSES_H

#include "dfa/Transforms/Passes.h"

namespace dfa {

/// Registers every dfa pass so that textual pipelines can name them.
inline void registerAllPasses() { registerPasses(); }

} // namespace dfa

#endif // DFA_INITALLPASSES_H
