//===- Decompose.cpp - decompose composite graph ops ------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "TargetModel.h"

#include "dfa/Transforms/Passes.h"

#include "dialects/Graph/GraphOps.h"

#include "dfa/Target/Target.h"

#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/StringSet.h"

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
    llvm::StringSet<> kept;
    for (const std::string &k : keep)
      kept.insert(k);
    std::vector<std::string> fallback;
    std::string tname = targetName;
    if (!tname.empty()) {
      FailureOr<target::Target> t =
          loadPassTarget(getOperation(), tname, targetDirs);
      if (failed(t))
        return signalPassFailure();
      for (const std::string &op : t->nativeOps)
        kept.insert("graph." + op);
      fallback = t->hostFallbackOps;
    }
    std::string suffix = tname.empty() ? "" : " for " + tname;
    IRRewriter rewriter(&getContext());
    // Decompositions create composite ops of their own (attention makes a
    // softmax): repeat until nothing is left to split.
    for (int round = 0; round < 8; ++round) {
      SmallVector<DecomposeOpInterface> worklist;
      getOperation().walk([&](DecomposeOpInterface op) {
        if (!kept.contains(op->getName().getStringRef()))
          worklist.push_back(op);
      });
      bool changed = false;
      for (DecomposeOpInterface op : worklist) {
        rewriter.setInsertionPoint(op);
        std::string name = op->getName().getStringRef().str();
        Location loc = op->getLoc();
        if (failed(op.decompose(rewriter)))
          continue;
        changed = true;
        ++numDecomposed;
        if (remarks)
          emitRemark(loc) << "decomposed '" << name << "'" << suffix;
      }
      if (!changed)
        break;
    }
    if (remarks && !fallback.empty())
      getOperation().walk([&](Operation *op) {
        StringRef name = op->getName().getStringRef();
        if (name.consume_front("graph.") && llvm::is_contained(fallback, name))
          op->emitRemark() << "'" << op->getName() << "' has no " << tname
                           << " kernel: it runs on the host";
      });
  }
};
} // namespace
