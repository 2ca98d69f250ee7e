//===- Layout.cpp - lay out kernel tensors, pad, relayout --------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Gives every kernel output the target's storage layout (row-major, TPU
// (8,128) tiles, Spyre 128-byte sticks, LPU 320-element vectors, WSE PE
// slices), counts the bytes that padding wastes, and the FLOPs a matmul
// wastes on padding to the matrix unit (GPU MMA shapes, the TPU MXU, LPU
// MXM planes, Spyre's zero-padded K sticks). Where a transpose moves the
// minor dim on a target whose layout is tied to that dim (Spyre sticks, TPU
// tiles), the producer's layout is not the one the consumer needs: the
// kernel gets a `graph.relayout` (a Spyre restickify).
//
//===----------------------------------------------------------------------===//

#include "dfa/Transforms/TargetModel.h"

#include "dfa/Transforms/Passes.h"

#include "dialects/Graph/GraphOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"

namespace dfa {
#define GEN_PASS_DEF_GRAPHLAYOUTPASS
#include "dfa/Transforms/Passes.h.inc"
} // namespace dfa

using namespace mlir;
using namespace dfa;
using namespace dfa::graph;

namespace {

/// The padding granules (m, n, k) of the target's matrix unit.
std::array<int64_t, 3> matmulGranules(const target::Target &t, int64_t eb) {
  auto num = [](const llvm::json::Value &v, int64_t d) {
    return int64_t(v.getAsNumber().value_or(double(d)));
  };
  if (const llvm::json::Array *a = t.layout.getArray("mma_tile"))
    if (a->size() == 3)
      return {num((*a)[0], 1), num((*a)[1], 1), num((*a)[2], 1)};
  if (auto pad = t.layoutValue("matmul_pad")) {
    // Rows in the rows of a vector register of the element type.
    return {t.registerRows(eb), int64_t(*pad), int64_t(*pad)};
  }
  if (const llvm::json::Array *a = t.layout.getArray("mxm_plane"))
    if (a->size() == 2)
      return {1, num((*a)[1], 1), num((*a)[0], 1)};
  if (auto stick = t.layoutValue("stick_bytes")) {
    int64_t s = std::max<int64_t>(1, int64_t(*stick) / eb);
    return {1, s, s};
  }
  return {1, 1, 1};
}

struct GraphLayoutPass : dfa::impl::GraphLayoutPassBase<GraphLayoutPass>, TargetedPass {
  using GraphLayoutPassBase::GraphLayoutPassBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    const target::Target *t = passTarget(module, targetName, targetDirs);
    if (!t)
      return signalPassFailure();
    Builder b(&getContext());
    // Targets whose compilers restickify / relayout on a minor-dim change.
    bool relayoutTargets = t->caps.relayoutMinorDim;
    MLIRContext *ctx = &getContext();
    // Every value a kernel reads or writes gets its layout here, once: the
    // lowering and everything after it read these attributes.
    module.walk([&](func::FuncOp fn) {
      if (fn.isExternal())
        return;
      for (BlockArgument arg : fn.getArguments())
        if (isa<RankedTensorType>(arg.getType()))
          fn.setArgAttr(arg.getArgNumber(), kLayoutAttr,
                        LayoutAttr::get(ctx, layoutOf(*t, arg).encoding()));
      for (Operation &op : fn.getBody().front())
        if (!isa<KernelOp>(op) && op.getNumResults() == 1 &&
            isa<RankedTensorType>(op.getResult(0).getType()))
          op.setAttr(kLayoutAttr,
                     LayoutAttr::get(ctx, layoutOf(*t, op.getResult(0)).encoding()));
    });
    module.walk([&](KernelOp k) {
      SmallVector<Attribute> layouts;
      std::string firstName;
      int64_t padBytes = 0;
      for (Value v : k.getOutputs()) {
        TensorLayout l = layoutOf(*t, v);
        layouts.push_back(LayoutAttr::get(ctx, l.encoding()));
        if (firstName.empty())
          firstName = l.name();
        padBytes += l.bytes - l.logicalBytes();
      }
      int64_t padFlops = 0;
      for (Operation &op : k.getBlock()) {
        std::optional<MatmulShape> mm = matmulShape(&op);
        if (!mm)
          continue;
        auto g = matmulGranules(
            *t, elementBytes(cast<RankedTensorType>(op.getResult(0).getType())
                                 .getElementType()));
        int64_t padded = roundUp(mm->m, g[0]) * roundUp(mm->n, g[1]) *
                         roundUp(mm->k, g[2]);
        padFlops += 2 * mm->batch * (padded - mm->m * mm->n * mm->k);
      }
      int64_t relayouts = 0;
      if (relayoutTargets)
        k.getBlock().walk([&](TransposeOp tr) {
          if (!isRelayout(*t, tr))
            return;
          ArrayRef<int64_t> perm = tr.getPerm();
          OpBuilder ob(tr);
          std::string from = layoutFor(*t, cast<RankedTensorType>(tr.getInput().getType())).name() +
                             " on dim " + std::to_string(perm.size() - 1);
          std::string to = layoutFor(*t, cast<RankedTensorType>(tr.getType())).name() +
                           " on dim " + std::to_string(perm.back());
          auto r = ob.create<RelayoutOp>(tr.getLoc(), tr.getInput(), from, to);
          tr.getInputMutable().assign(r);
          ++relayouts;
          if (remarks)
            tr->emitRemark() << "relayout inserted in kernel '" << k.getSymName()
                             << "': the transpose moves the minor dim ("
                             << from << " -> " << to << ")";
        });
      if (relayouts)
        k.setKindEnum(KernelKind::Relayout);
      k.setLayoutsAttr(b.getArrayAttr(layouts));
      k->setAttr("pad_bytes", b.getI64IntegerAttr(padBytes));
      k->setAttr("pad_flops", b.getI64IntegerAttr(padFlops));
      numRelayouts += relayouts;
      if (remarks && (padBytes || padFlops))
        k->emitRemark() << "kernel '" << k.getSymName() << "' laid out as "
                        << firstName << ": "
                        << padBytes << " B and " << padFlops
                        << " FLOPs of padding";
    });
  }
};
} // namespace

std::unique_ptr<Pass> dfa::createGraphLayoutPass(PassTarget target,
                                    const GraphLayoutPassOptions &options) {
  return makeTargetedPass<GraphLayoutPass>(std::move(target), options);
}
