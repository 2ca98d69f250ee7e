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

/// Every stage name, in order: the names `--emit`, `--compile-from`,
/// `--stop-after`, the dump files and dfa-bisect's reports use. (Header-only,
/// like the enum, so that libraries below lib/Pipeline name stages too.)
inline llvm::ArrayRef<llvm::StringRef> stageNames() {
  static const llvm::StringRef names[kNumStages] = {
      "graph", "decomposed", "fused", "tiled", "laid-out", "sched"};
  return names;
}
inline llvm::StringRef stageName(Stage s) { return stageNames()[int(s)]; }
/// The stage called `name`, if there is one.
inline std::optional<Stage> stageNamed(llvm::StringRef name) {
  for (int i = 0; i < kNumStages; ++i)
    if (stageNames()[i] == name)
      return Stage(i);
  return std::nullopt;
}
/// "graph, decomposed, fused, tiled, laid-out, sched", for messages.
inline std::string stageList() {
  std::string s;
  for (llvm::StringRef n : stageNames())
    s += (s.empty() ? "" : ", ") + n.str();
  return s;
}
/// The passes a stage runs, in order (their command-line names).
llvm::ArrayRef<llvm::StringRef> stagePasses(Stage s);

} // namespace dfa

#endif // DFA_PIPELINE_STAGES_H
