//===- GraphCost.cpp - FLOP counts of graph ops -----------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// One multiply-add counts as two operations. Elementwise ops count one
/// operation per result element whatever the function (a transcendental is
/// one operation here; targets that expand it say so in their own cost).
/// Data movement counts zero.
///
//===----------------------------------------------------------------------===//

#include "dialects/Graph/GraphOps.h"

#include "llvm/ADT/TypeSwitch.h"

#include <cmath>

using namespace mlir;
using namespace dfa::graph;

static int64_t product(ArrayRef<int64_t> dims) {
  int64_t p = 1;
  for (int64_t d : dims)
    p *= d;
  return p;
}

static int64_t elems(Value v) { return tensorElements(v.getType()); }

int64_t dfa::graph::defaultFlops(Operation *op) {
  return llvm::TypeSwitch<Operation *, int64_t>(op)
      .Case<ConstantOp, WeightOp, ReshapeOp, ExpandOp, TransposeOp, ConcatOp,
            SplitOp, SliceOp, GatherOp, GatherElementsOp, GatherNDOp, PadOp, TileOp,
            CastOp, BitCastOp, YieldOp, RelayoutOp, AllReduceOp, AllGatherOp>(
          [](Operation *) { return 0; })
      .Case([](KernelOp k) {
        int64_t sum = 0;
        for (Operation &op : k.getBlock())
          if (auto cost = dyn_cast<CostOpInterface>(op))
            sum += cost.getFlops();
        return sum;
      })
      .Case([](MatMulOp m) {
        int64_t k = cast<RankedTensorType>(m.getLhs().getType()).getShape().back();
        return 2 * elems(m.getOutput()) * k;
      })
      .Case([](GroupedMatMulOp m) {
        // Each of its rows is multiplied once, by its group's matrix.
        auto out = cast<RankedTensorType>(m.getOutput().getType());
        int64_t k = cast<RankedTensorType>(m.getLhs().getType()).getShape().back();
        return 2 * groupedRows(m) * out.getDimSize(1) * k;
      })
      .Case([](GemmOp g) {
        auto a = cast<RankedTensorType>(g.getA().getType());
        int64_t k = a.getDimSize(g.getTransA() ? 0 : 1);
        int64_t out = elems(g.getOutput());
        return 2 * out * k + (g.getC() ? out : 0);
      })
      .Case([](AttentionOp a) {
        auto q = cast<RankedTensorType>(a.getQuery().getType());
        auto v = cast<RankedTensorType>(a.getValue().getType());
        int64_t scores = elems(a.getQuery()) / q.getShape().back() *
                         cast<RankedTensorType>(a.getKey().getType()).getDimSize(q.getRank() - 2);
        return 2 * scores * q.getShape().back() + 2 * scores * v.getShape().back() +
               5 * scores;
      })
      .Case([](ConvOp c) {
        auto w = cast<RankedTensorType>(c.getFilter().getType());
        int64_t perOut = product(w.getShape().drop_front(1));
        int64_t out = elems(c.getOutput());
        return 2 * out * perOut + (c.getBias() ? out : 0);
      })
      .Case([](ConvTransposeOp c) {
        auto w = cast<RankedTensorType>(c.getFilter().getType());
        return 2 * elems(c.getInput()) * product(w.getShape().drop_front(1));
      })
      .Case([](GridSampleOp g) {
        // Each output point weighs taps^r input values (a multiply-add each).
        int64_t r = cast<RankedTensorType>(g.getGrid().getType()).getShape().back();
        int64_t taps = g.getMode() == "nearest" ? 0 : g.getMode() == "linear" ? 2 : 4;
        int64_t perOut = 1;
        for (int64_t i = 0; i < r; ++i)
          perOut *= taps;
        return taps ? 2 * elems(g.getOutput()) * perOut : 0;
      })
      .Case([](ResizeOp r) {
        int64_t taps = r.getMode() == "nearest" ? 0 : r.getMode() == "linear" ? 2 : 4;
        int64_t perOut = 1;
        for (auto [i, o] : llvm::zip(
                 cast<RankedTensorType>(r.getInput().getType()).getShape(),
                 cast<RankedTensorType>(r.getOutput().getType()).getShape()))
          perOut *= (i != o && taps) ? taps : 1;
        return taps ? 2 * elems(r.getOutput()) * perOut : 0;
      })
      .Case([](MaxPoolOp p) { return elems(p.getOutput()) * product(p.getKernel()); })
      .Case([](AvgPoolOp p) { return elems(p.getOutput()) * product(p.getKernel()); })
      .Case([](LpPoolOp p) { return 2 * elems(p.getOutput()) * product(p.getKernel()); })
      .Case<GlobalAvgPoolOp, GlobalMaxPoolOp, ReduceSumOp, ReduceMeanOp,
            ReduceMaxOp, ReduceMinOp, ReduceProdOp, ReduceL1Op, ArgMaxOp,
            ArgMinOp, CumSumOp, CumProdOp, TopKOp, HardmaxOp>(
          [](Operation *o) { return elems(o->getOperand(0)); })
      .Case<ReduceL2Op, ReduceSumSquareOp, ReduceLogSumOp, ReduceLogSumExpOp,
            LpNormOp>([](Operation *o) { return 2 * elems(o->getOperand(0)); })
      .Case<BatchNormOp>([](Operation *o) { return 2 * elems(o->getResult(0)); })
      .Case<SoftmaxOp, LogSoftmaxOp>(
          [](Operation *o) { return 5 * elems(o->getResult(0)); })
      .Case<LayerNormOp, InstanceNormOp>(
          [](Operation *o) { return 8 * elems(o->getResult(0)); })
      .Default([](Operation *o) {
        int64_t total = 0;
        for (Type t : o->getResultTypes())
          total += tensorElements(t);
        // A dequantization of experts' weights that only a grouped product
        // reads is done for the experts its rows reach (readFraction).
        if (isa<SubOp, MulOp, AddOp>(o))
          if (double part = readFraction(o->getResult(0)); part < 1)
            total = int64_t(std::ceil(double(total) * part));
        return total;
      });
}
