//===- Decompose.cpp - decompose composite graph ops ------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "dfa/Transforms/Passes.h"

#include "dialects/Graph/GraphOps.h"

#include "mlir/IR/PatternMatch.h"

namespace dfa {
#define GEN_PASS_DEF_GRAPHDECOMPOSEPASS
#include "dfa/Transforms/Passes.h.inc"
} // namespace dfa

using namespace mlir;
using namespace dfa;
using namespace dfa::graph;

namespace {
struct GraphDecomposePass
    : dfa::impl::GraphDecomposePassBase<GraphDecomposePass> {
  using GraphDecomposePassBase::GraphDecomposePassBase;

  void runOnOperation() override {
    SmallVector<DecomposeOpInterface> worklist;
    getOperation().walk([&](DecomposeOpInterface op) {
      if (!llvm::is_contained(keep, op->getName().getStringRef().str()))
        worklist.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (DecomposeOpInterface op : worklist) {
      rewriter.setInsertionPoint(op);
      std::string name = op->getName().getStringRef().str();
      Location loc = op->getLoc();
      if (failed(op.decompose(rewriter)))
        continue;
      ++numDecomposed;
      if (remarks)
        emitRemark(loc) << "decomposed '" << name << "'";
    }
  }
};
} // namespace
