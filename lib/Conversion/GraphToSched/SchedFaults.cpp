//===- SchedFaults.cpp - compiler faults planted in kernels on purpose ------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// `--inject` plants a known bug class where a real compiler would make it:
/// in a kernel body (nan@NODE, swap-strides, ulp1), in its dependencies
/// (drop-dep), or in a copy (dma-hang; tail-drop in plantFaults). Each is
/// ordinary IR afterwards: the simulator runs it like any other, and
/// dfa-bisect has to find it from the evidence alone.
///
//===----------------------------------------------------------------------===//

#include "SchedLowering.h"
#include "dfa/Transforms/TargetModel.h"

#include <cmath>

using namespace mlir;
using namespace dfa;
using namespace dfa::lowering;

namespace {

/// Mantissa bits of the format the target keeps `type`'s elements in.
int storedMantissaBits(const Target &t, FloatType type) {
  std::string name;
  llvm::raw_string_ostream os(name);
  type.print(os);
  if (const target::StorageFormat *f = t.deviceFormat(name))
    return f->mantissaBits;
  return int(type.getFPMantissaWidth()) - 1;
}

/// `v` with element 0 replaced by NaN: v + [NaN, -0, -0, ...] (-0 is the
/// additive identity, signed zeros included).
Value withNaN(OpBuilder &b, Location loc, Value v) {
  auto type = cast<RankedTensorType>(v.getType());
  const llvm::fltSemantics &sem =
      cast<FloatType>(type.getElementType()).getFloatSemantics();
  SmallVector<APFloat> mask(type.getNumElements(),
                            APFloat::getZero(sem, /*Negative=*/true));
  if (!mask.empty())
    mask[0] = APFloat::getNaN(sem);
  Value m = b.create<graph::ConstantOp>(loc, DenseElementsAttr::get(type, mask));
  return b.create<graph::AddOp>(loc, v, m);
}

bool isFloatTensor(Value v) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  return type && isa<FloatType>(type.getElementType());
}

} // namespace

bool Lowering::plantDependencyFault(SmallVectorImpl<Value> &deps) {
  if (fault.name != "drop-dep" || planted || deps.empty())
    return false;
  deps.clear();
  return planted = true;
}

void Lowering::plantBodyFault(Block &body) {
  if (planted)
    return;
  Operation *yield = body.getTerminator();
  if (fault.name == "nan") {
    for (Operation &op : body.without_terminator()) {
      if (op.getNumResults() == 0 || !isFloatTensor(op.getResult(0)) ||
          sourceName(&op) != fault.node)
        continue;
      Value r = op.getResult(0);
      b.setInsertionPointAfter(&op);
      Value bad = withNaN(b, op.getLoc(), r);
      r.replaceAllUsesExcept(bad, bad.getDefiningOp());
      planted = true;
      return;
    }
    return;
  }
  if (fault.name == "ulp1") {
    for (OpOperand &out : yield->getOpOperands()) {
      if (!isFloatTensor(out.get()))
        continue;
      auto type = cast<RankedTensorType>(out.get().getType());
      auto ft = cast<FloatType>(type.getElementType());
      // x + x 2^-(m+1): x plus half an ulp or more (a power-of-two scale is
      // exact), which rounds to the next value up, or stays on a tie.
      APFloat scale(std::ldexp(1.0, -(storedMantissaBits(t, ft) + 1)));
      bool lost;
      scale.convert(ft.getFloatSemantics(), APFloat::rmNearestTiesToEven, &lost);
      b.setInsertionPoint(yield);
      Location loc = yield->getLoc();
      Value f = b.create<graph::ConstantOp>(loc, DenseElementsAttr::get(type, scale));
      Value step = b.create<graph::MulOp>(loc, out.get(), f);
      out.set(b.create<graph::AddOp>(loc, out.get(), step));
      planted = true;
      return;
    }
    return;
  }
  if (fault.name == "swap-strides") {
    // An [.., M, N] operand read with its minor strides swapped: the
    // elements of an [.., N, M] tensor, transposed.
    for (BlockArgument arg : body.getArguments()) {
      auto type = cast<RankedTensorType>(arg.getType());
      int64_t r = type.getRank();
      if (r < 2 || type.getDimSize(r - 1) < 2 || type.getDimSize(r - 2) < 2 ||
          arg.use_empty())
        continue;
      SmallVector<int64_t> swapped(type.getShape());
      std::swap(swapped[r - 1], swapped[r - 2]);
      SmallVector<int64_t> perm;
      for (int64_t i = 0; i < r; ++i)
        perm.push_back(i);
      std::swap(perm[r - 1], perm[r - 2]);
      b.setInsertionPointToStart(&body);
      Location loc = arg.getLoc();
      Value read = b.create<graph::ReshapeOp>(
          loc, RankedTensorType::get(swapped, type.getElementType()), arg);
      Value t = b.create<graph::TransposeOp>(loc, read, b.getDenseI64ArrayAttr(perm));
      arg.replaceAllUsesExcept(t, read.getDefiningOp());
      planted = true;
      return;
    }
  }
}
