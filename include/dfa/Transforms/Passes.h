//===- Passes.h - dfa transformation passes ---------------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef DFA_TRANSFORMS_PASSES_H
#define DFA_TRANSFORMS_PASSES_H

#include "dfa/Transforms/TargetModel.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace dfa {

#define GEN_PASS_DECL
#define GEN_PASS_REGISTRATION
#include "dfa/Transforms/Passes.h.inc"

/// The passes for the target a compile hands over (buildPipeline).
std::unique_ptr<mlir::Pass>
createGraphRaisePass(PassTarget target, const GraphRaisePassOptions &options);
std::unique_ptr<mlir::Pass>
createGraphDecomposePass(PassTarget target,
                         const GraphDecomposePassOptions &options);
std::unique_ptr<mlir::Pass>
createGraphShardPass(PassTarget target, const GraphShardPassOptions &options);
std::unique_ptr<mlir::Pass>
createGraphFusePass(PassTarget target, const GraphFusePassOptions &options);
std::unique_ptr<mlir::Pass>
createGraphTilePass(PassTarget target, const GraphTilePassOptions &options);
std::unique_ptr<mlir::Pass>
createGraphLayoutPass(PassTarget target, const GraphLayoutPassOptions &options);

} // namespace dfa

#endif // DFA_TRANSFORMS_PASSES_H
