//===- GraphOpClass.cpp - what every graph op is -----------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The one table of op classes. Each op appears once, with its structure
// (OpClass: what graph-fuse anchors a kernel on, what graph-tile tiles and
// what the lowering splits) and its numerics (Numerics: the error budget
// dfa-bisect's tolerance model gives its results). A new op is classified
// here and nowhere else.
//
//===----------------------------------------------------------------------===//

#include "dialects/Graph/GraphOps.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace dfa::graph;

namespace {
struct OpKind {
  OpClass cls;
  Numerics numerics;
};

OpKind kindOf(Operation *op) {
  auto is = [](OpClass c, Numerics n) {
    return [=](Operation *) { return OpKind{c, n}; };
  };
  return llvm::TypeSwitch<Operation *, OpKind>(op)
      .Case<ConstantOp, WeightOp>(is(OpClass::Source, Numerics::Exact))
      // A relayout moves bytes inside a kernel, element by element.
      .Case<RelayoutOp>(is(OpClass::Pointwise, Numerics::Exact))
      .Case<ExpOp, LogOp, SigmoidOp, TanhOp, ErfOp, GeluOp, SiluOp, MishOp,
            SoftplusOp, SinOp, CosOp, TanOp, AsinOp, AcosOp, AtanOp, SinhOp,
            CoshOp, AsinhOp, AcoshOp, AtanhOp, PowOp, EluOp, SeluOp, CeluOp,
            HardSwishOp, SoftsignOp>(
          is(OpClass::Pointwise, Numerics::Transcendental))
      .Case<WhereOp, PReluOp, AddOp, SubOp, MulOp, DivOp, MaxOp, MinOp, ModOp,
            AndOp, OrOp, XorOp, BitShiftOp, EqualOp, LessOp, LessEqualOp,
            GreaterOp, GreaterEqualOp>(is(OpClass::Pointwise, Numerics::Rounded))
      .Case<MatMulOp, GemmOp>(is(OpClass::Matmul, Numerics::Accumulated))
      .Case<ConvOp, ConvTransposeOp>(is(OpClass::Conv, Numerics::Accumulated))
      .Case<AttentionOp>(is(OpClass::Attention, Numerics::Accumulated))
      .Case<MaxPoolOp>(is(OpClass::Window, Numerics::Exact))
      .Case<AvgPoolOp, LpPoolOp, ResizeOp>(
          is(OpClass::Window, Numerics::Accumulated))
      .Case<GlobalMaxPoolOp, ReduceMaxOp, ReduceMinOp, HardmaxOp, ArgMaxOp,
            ArgMinOp, TopKOp>(is(OpClass::Reduction, Numerics::Exact))
      .Case<GlobalAvgPoolOp, CumSumOp, ReduceSumOp, ReduceMeanOp, ReduceProdOp,
            ReduceL1Op, ReduceL2Op, ReduceSumSquareOp, ReduceLogSumOp,
            ReduceLogSumExpOp>(is(OpClass::Reduction, Numerics::Accumulated))
      .Case<BatchNormOp, InstanceNormOp, LayerNormOp, LpNormOp, SoftmaxOp,
            LogSoftmaxOp>(is(OpClass::Reduction, Numerics::Composite))
      .Case<ReshapeOp, ExpandOp, TransposeOp, ConcatOp, SplitOp, SliceOp,
            GatherOp, GatherElementsOp, GatherNDOp, ScatterNDOp,
            ScatterElementsOp, PadOp, TileOp, TriluOp>(
          is(OpClass::Data, Numerics::Exact))
      .Default([](Operation *o) {
        // The other elementwise ops (abs, relu, sqrt, cast, ...) round once.
        return OpKind{o->hasTrait<OpTrait::Elementwise>() ? OpClass::Pointwise
                                                          : OpClass::Other,
                      Numerics::Rounded};
      });
}
} // namespace

OpClass dfa::graph::classify(Operation *op) { return kindOf(op).cls; }

Numerics dfa::graph::numericsOf(Operation *op) { return kindOf(op).numerics; }

KernelKind dfa::graph::kernelKindOf(OpClass c) {
  switch (c) {
  case OpClass::Source: return KernelKind::Source;
  case OpClass::Pointwise: return KernelKind::Pointwise;
  case OpClass::Data: return KernelKind::Data;
  case OpClass::Reduction: return KernelKind::Reduction;
  case OpClass::Window: return KernelKind::Window;
  case OpClass::Matmul: return KernelKind::Matmul;
  case OpClass::Conv: return KernelKind::Conv;
  case OpClass::Attention: return KernelKind::Attention;
  case OpClass::Other: return KernelKind::Other;
  }
  return KernelKind::Other;
}

bool dfa::graph::isAnchor(OpClass c) {
  return c == OpClass::Matmul || c == OpClass::Conv || c == OpClass::Attention ||
         c == OpClass::Window || c == OpClass::Other;
}
