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

#include "llvm/ADT/StringSwitch.h"
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
      .Case<RelayoutOp, BitCastOp>(is(OpClass::Pointwise, Numerics::Exact))
      .Case<ExpOp, LogOp, SigmoidOp, TanhOp, ErfOp, GeluOp, SiluOp, MishOp,
            SoftplusOp, SinOp, CosOp, TanOp, AsinOp, AcosOp, AtanOp, SinhOp,
            CoshOp, AsinhOp, AcoshOp, AtanhOp, PowOp, EluOp, SeluOp, CeluOp,
            HardSwishOp, SoftsignOp>(
          is(OpClass::Pointwise, Numerics::Transcendental))
      .Case<WhereOp, PReluOp, AddOp, SubOp, MulOp, DivOp, MaxOp, MinOp, ModOp,
            AndOp, OrOp, XorOp, BitShiftOp, BitwiseOp, EqualOp, LessOp, LessEqualOp,
            GreaterOp, GreaterEqualOp>(is(OpClass::Pointwise, Numerics::Rounded))
      .Case<MatMulOp, GemmOp>(is(OpClass::Matmul, Numerics::Accumulated))
      .Case<ConvOp, ConvTransposeOp>(is(OpClass::Conv, Numerics::Accumulated))
      .Case<AttentionOp>(is(OpClass::Attention, Numerics::Accumulated))
      .Case<MaxPoolOp>(is(OpClass::Window, Numerics::Exact))
      .Case<AllGatherOp>(is(OpClass::Collective, Numerics::Exact))
      .Case<AllReduceOp>(is(OpClass::Collective, Numerics::Accumulated))
      .Case<AvgPoolOp, LpPoolOp, ResizeOp, GridSampleOp>(
          is(OpClass::Window, Numerics::Accumulated))
      .Case<GlobalMaxPoolOp, ReduceMaxOp, ReduceMinOp, HardmaxOp, ArgMaxOp,
            ArgMinOp, TopKOp>(is(OpClass::Reduction, Numerics::Exact))
      .Case<GlobalAvgPoolOp, CumSumOp, CumProdOp, ReduceSumOp, ReduceMeanOp, ReduceProdOp,
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
  case OpClass::Collective: return KernelKind::Collective;
  }
  return KernelKind::Other;
}

bool dfa::graph::isAnchor(OpClass c) {
  return c == OpClass::Matmul || c == OpClass::Conv || c == OpClass::Attention ||
         c == OpClass::Window || c == OpClass::Other ||
         c == OpClass::Collective;
}

std::optional<Fp32Matmul> dfa::graph::fp32MatmulNamed(llvm::StringRef n) {
  return llvm::StringSwitch<std::optional<Fp32Matmul>>(n)
      .Case("ieee", Fp32Matmul::IEEE)
      .Case("tf32", Fp32Matmul::TF32)
      .Case("bf16", Fp32Matmul::BF16)
      .Case("bf16x3", Fp32Matmul::BF16x3)
      .Default(std::nullopt);
}

llvm::StringRef dfa::graph::name(Fp32Matmul mode) {
  switch (mode) {
  case Fp32Matmul::TF32: return "tf32";
  case Fp32Matmul::BF16: return "bf16";
  case Fp32Matmul::BF16x3: return "bf16x3";
  case Fp32Matmul::IEEE: break;
  }
  return "ieee";
}

Fp32Matmul dfa::graph::fp32MatmulOf(Operation *op) {
  auto attr = op->getAttrOfType<StringAttr>(kFp32MatmulAttr);
  if (!attr)
    return Fp32Matmul::IEEE;
  return fp32MatmulNamed(attr.getValue()).value_or(Fp32Matmul::IEEE);
}

int64_t dfa::graph::setFp32Matmul(Operation *root, Fp32Matmul mode) {
  int64_t n = 0;
  root->walk([&](Operation *op) {
    OpClass c = classify(op);
    if (c != OpClass::Matmul && c != OpClass::Conv && c != OpClass::Attention)
      return;
    auto in = dyn_cast<ShapedType>(op->getOperand(0).getType());
    if (!in || !in.getElementType().isF32())
      return;
    if (mode == Fp32Matmul::IEEE) {
      op->removeAttr(kFp32MatmulAttr);
      return;
    }
    op->setAttr(kFp32MatmulAttr, StringAttr::get(op->getContext(), name(mode)));
    ++n;
  });
  return n;
}

Type dfa::graph::arithmeticType(Block &body, Type fallback) {
  // A quantized product (QLinearMatMul: dequantized operands, requantized
  // result) runs at its integer result's type.
  if (isa_and_nonnull<IntegerType>(fallback))
    return fallback;
  for (Operation &op : body) {
    OpClass c = classify(&op);
    if ((c == OpClass::Matmul || c == OpClass::Conv || c == OpClass::Attention) &&
        op.getNumOperands() > 0)
      if (auto t = dyn_cast<ShapedType>(op.getOperand(0).getType()))
        return t.getElementType();
  }
  return fallback;
}

std::optional<CollectiveOf> dfa::graph::collectiveOf(Block &body) {
  for (Operation &op : body) {
    if (auto r = dyn_cast<AllReduceOp>(op))
      return CollectiveOf{false, tensorBytes(r.getType()), int64_t(r.getChips())};
    if (auto g = dyn_cast<AllGatherOp>(op))
      return CollectiveOf{true, tensorBytes(g.getType()), int64_t(g.getChips())};
  }
  return std::nullopt;
}
