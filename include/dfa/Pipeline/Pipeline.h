//===- Pipeline.h - the per-target compile pipeline -------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// The one declaration of dfa's compile pipeline: its stages, the passes
/// each runs, and the function that adds them to a pass manager. The tools
/// (dfa-compile, dfa-run, dfa-roofline, dfa-bisect) and dfa-opt's
/// `dfa-pipeline` build the same pipeline through it.
///
//===----------------------------------------------------------------------===//

#ifndef DFA_PIPELINE_PIPELINE_H
#define DFA_PIPELINE_PIPELINE_H

#include "dfa/Pipeline/Stages.h"
#include "dfa/Target/Target.h"
#include "dfa/Transforms/PassTarget.h"

#include "mlir/Pass/PassManager.h"

#include "llvm/ADT/SmallVector.h"

#include <string>
#include <vector>

namespace dfa {

struct PipelineOptions {
  /// Extra directories of target descriptions: recorded in the passes'
  /// options, so that the pipeline prints as text that reruns (crash
  /// reproducers, `dfa-opt`).
  std::vector<std::string> targetDirs;
  /// Every pass reports its decisions as remarks.
  bool remarks = false;
  /// A fault to plant (knownFaults()); each pass plants the ones it owns.
  std::string inject;
  /// How f32 matrix ops compute (graph::Fp32Matmul's names).
  std::string fp32Matmul = "ieee";
  /// Chips of a tensor-parallel group (graph-shard's `tensor-parallel`).
  int64_t tensorParallel = 1;
};

/// The last pass of one stage, as added to a pass manager.
struct StageEnd {
  Stage stage;
  mlir::Pass *pass;
};

/// Adds the passes of the stages after `from` up to `to` for `target.target`
/// (which must be set) to `pm`; with `ends`, records the last pass of each
/// stage added.
void buildPipeline(mlir::OpPassManager &pm, const PassTarget &target,
                   Stage from, Stage to, const PipelineOptions &options,
                   llvm::SmallVectorImpl<StageEnd> *ends = nullptr);
/// The same for a target the caller holds (copied once into the passes).
void buildPipeline(mlir::OpPassManager &pm, const target::Target &target,
                   Stage from, Stage to, const PipelineOptions &options = {});

/// Registers `dfa-pipeline` (options target, target-dir, from, to, remarks,
/// inject), so that `dfa-opt -dfa-pipeline='target=tpu-v4'` and
/// `--pass-pipeline='builtin.module(dfa-pipeline{target=tpu-v4})'` build
/// what `dfa-compile --target tpu-v4` runs.
void registerPipelines();

} // namespace dfa

#endif // DFA_PIPELINE_PIPELINE_H
