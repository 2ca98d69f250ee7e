//===- Stages.h - the stages of the compile pipeline ------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// The stages of dfa's compile pipeline and the passes each runs, declared
/// once (lib/Pipeline); dfa/Pipeline/Pipeline.h builds them.
///
//===----------------------------------------------------------------------===//

#ifndef DFA_PIPELINE_STAGES_H
#define DFA_PIPELINE_STAGES_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace dfa {

/// The stages of the pipeline, in order. Each ends in IR that can be
/// printed, dumped (`--dump-dir`), resumed (`--compile-from`) and run on
/// the CPU reference (the graph stages) or the simulator (sched).
enum class Stage { Graph, Decomposed, Fused, Tiled, LaidOut, Sched };
inline constexpr int kNumStages = 6;

/// The name `--emit`, `--compile-from`, `--stop-after` and the dump files
/// use: graph, decomposed, fused, tiled, laid-out, sched.
llvm::StringRef stageName(Stage s);
/// The stage called `name`, if there is one.
std::optional<Stage> stageNamed(llvm::StringRef name);
/// Every stage name, in order.
llvm::ArrayRef<llvm::StringRef> stageNames();
/// "graph, decomposed, fused, tiled, laid-out, sched", for messages.
std::string stageList();
/// The passes a stage runs, in order (their command-line names).
llvm::ArrayRef<llvm::StringRef> stagePasses(Stage s);

} // namespace dfa

#endif // DFA_PIPELINE_STAGES_H
