//===- Decompose.cpp - decompose composite graph ops ------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "dfa/Transforms/TargetModel.h"

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

/// The var-unbiased fault: in a layer norm's decomposition (the ops between
/// `before` and `after`), the variance mean(c * c) scaled by N / (N - 1).
bool plantUnbiasedVariance(IRRewriter &rw, Operation *before, Operation *after) {
  Block *block = after ? after->getBlock() : before->getBlock();
  Operation *op = before ? before->getNextNode() : &block->front();
  for (; op && op != after; op = op->getNextNode()) {
    auto var = dyn_cast<ReduceMeanOp>(op);
    auto sq = var ? var.getInput().getDefiningOp<MulOp>() : MulOp();
    if (!sq || sq.getLhs() != sq.getRhs())
      continue;
    auto in = cast<RankedTensorType>(sq.getType());
    auto out = cast<RankedTensorType>(var.getType());
    double n = double(in.getNumElements()) / double(out.getNumElements());
    if (n < 2)
      return false;
    rw.setInsertionPointAfter(var);
    Value scale = rw.create<ConstantOp>(
        var.getLoc(), DenseElementsAttr::get(
                          out, rw.getFloatAttr(out.getElementType(), n / (n - 1))
                                   .getValue()));
    Value biased = rw.create<MulOp>(var.getLoc(), var, scale);
    var.getResult().replaceAllUsesExcept(biased, biased.getDefiningOp());
    return true;
  }
  return false;
}

struct GraphDecomposePass
    : dfa::impl::GraphDecomposePassBase<GraphDecomposePass>, TargetedPass {
  using GraphDecomposePassBase::GraphDecomposePassBase;

  void runOnOperation() override {
    std::optional<Fp32Matmul> precision = fp32MatmulNamed(fp32Matmul);
    if (!precision) {
      emitError(getOperation().getLoc())
          << "fp32-matmul '" << fp32Matmul
          << "' is not one of ieee, tf32, bf16, bf16x3";
      return signalPassFailure();
    }
    llvm::StringSet<> kept;
    for (const std::string &k : keep)
      kept.insert(k);
    std::vector<std::string> fallback;
    std::string tname = given.target ? given.target->name : targetName;
    if (!tname.empty()) {
      const target::Target *t = passTarget(getOperation(), tname, targetDirs);
      if (!t)
        return signalPassFailure();
      for (const std::string &op : t->nativeOps)
        kept.insert("graph." + op);
      fallback = t->hostFallbackOps;
    }
    std::string suffix = tname.empty() ? "" : " for " + tname;
    IRRewriter rewriter(&getContext());
    bool planted = false;
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
        Operation *before = op->getPrevNode(), *after = op->getNextNode();
        bool layerNorm = isa<LayerNormOp>(op);
        if (failed(op.decompose(rewriter)))
          continue;
        if (layerNorm && inject == "var-unbiased")
          planted |= plantUnbiasedVariance(rewriter, before, after);
        changed = true;
        ++numDecomposed;
        if (remarks)
          emitRemark(loc) << "decomposed '" << name << "'" << suffix;
      }
      if (!changed)
        break;
    }
    // After the decompositions, which create matmuls of their own.
    if (*precision != Fp32Matmul::IEEE)
      setFp32Matmul(getOperation(), *precision);
    if (inject == "var-unbiased" && !planted)
      emitWarning(getOperation().getLoc())
          << "--inject var-unbiased: nothing to plant it in" << suffix
          << " (no layer norm is decomposed)";
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

std::unique_ptr<Pass> dfa::createGraphDecomposePass(PassTarget target,
                                    const GraphDecomposePassOptions &options) {
  return makeTargetedPass<GraphDecomposePass>(std::move(target), options);
}
