//===- SplitDims.cpp - how a split of an op's result splits its operands -===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "dfa/Transforms/SplitDims.h"
#include "dfa/Transforms/TargetModel.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace dfa;
using namespace dfa::graph;

namespace {

constexpr int64_t kWhole = kWholeOperand;
using Dims = SmallVector<int64_t, 4>;

int64_t rankOf(Value v) {
  return cast<RankedTensorType>(v.getType()).getRank();
}
int64_t sizeOf(Value v, int64_t d) {
  return cast<RankedTensorType>(v.getType()).getDimSize(d);
}

/// The dim of a broadcasting operand that follows dim `d` of a result of
/// `resultRank` dims with `resultSize` elements there; whole when the
/// operand is broadcast along it.
int64_t broadcastDim(Value operand, int64_t d, int64_t resultRank,
                     int64_t resultSize) {
  int64_t od = d - (resultRank - rankOf(operand));
  if (od < 0 || sizeOf(operand, od) != resultSize)
    return kWhole;
  return od;
}

} // namespace

std::optional<Dims> dfa::splitOperandDims(Operation *op, int64_t d) {
  Value result = op->getResult(0);
  int64_t R = rankOf(result), size = sizeOf(result, d);
  Dims dims;
  if (classify(op) == OpClass::Pointwise) {
    for (Value in : op->getOperands())
      dims.push_back(broadcastDim(in, d, R, size));
    return dims;
  }
  return llvm::TypeSwitch<Operation *, std::optional<Dims>>(op)
      .Case([&](MatMulOp mm) -> std::optional<Dims> {
        int64_t rl = rankOf(mm.getLhs()), rr = rankOf(mm.getRhs());
        if (rl < 2 || rr < 2)
          return std::nullopt;
        if (d == R - 1)
          return Dims{kWhole, rr - 1};
        if (d == R - 2)
          return Dims{rl - 2, kWhole};
        return Dims{broadcastDim(mm.getLhs(), d, R, size),
                    broadcastDim(mm.getRhs(), d, R, size)};
      })
      .Case([&](GroupedMatMulOp g) -> std::optional<Dims> {
        // Columns only: the offsets number rows of the whole.
        if (d != 1)
          return std::nullopt;
        return Dims{kWhole, 2, kWhole};
      })
      .Case([&](GemmOp g) -> std::optional<Dims> {
        Dims out = d == 0 ? Dims{g.getTransA() ? 1 : 0, kWhole}
                          : Dims{kWhole, g.getTransB() ? 0 : 1};
        if (Value c = g.getC())
          out.push_back(broadcastDim(c, d, R, size));
        return out;
      })
      .Case<SoftmaxOp, LogSoftmaxOp, HardmaxOp>(
          [&](auto s) -> std::optional<Dims> {
            if (s.getAxis() == d)
              return std::nullopt;
            return Dims{d};
          })
      .Case([&](LayerNormOp ln) -> std::optional<Dims> {
        if (d >= ln.getAxis())
          return std::nullopt;
        Dims out{d, kWhole};
        if (ln.getBias())
          out.push_back(kWhole);
        return out;
      })
      .Case([&](TransposeOp tr) -> std::optional<Dims> {
        return Dims{tr.getPerm()[d]};
      })
      .Case([&](SplitOp s) -> std::optional<Dims> {
        // Every result keeps each dim but the split's: along another, each
        // piece splits its chunk of the input the same way.
        if (int64_t(s.getAxis()) == d)
          return std::nullopt;
        return Dims{d};
      })
      .Case([&](ExpandOp e) -> std::optional<Dims> {
        // A broadcast dim stays whole in the input and grows to the chunk.
        return Dims{broadcastDim(e.getInput(), d, R, size)};
      })
      .Case([&](ReshapeOp rs) -> std::optional<Dims> {
        // Dim d survives as a block: the same elements before it, the same
        // extent, in the input.
        ArrayRef<int64_t> in =
            cast<RankedTensorType>(rs.getInput().getType()).getShape();
        ArrayRef<int64_t> out = cast<RankedTensorType>(rs.getType()).getShape();
        int64_t before = 1;
        for (int64_t i = 0; i < d; ++i)
          before *= out[i];
        int64_t acc = 1;
        for (int64_t k = 0; k < int64_t(in.size()); ++k) {
          if (acc == before && in[k] == out[d])
            return Dims{k};
          acc *= in[k];
          if (acc > before)
            break;
        }
        return std::nullopt;
      })
      .Case([&](ConvOp c) -> std::optional<Dims> {
        if (d == 0)
          return Dims{0, kWhole, kWhole};
        if (d == 1 && c.getGroup() == 1)
          return Dims{kWhole, 0, 0};
        return std::nullopt;
      })
      .Case([&](AttentionOp a) -> std::optional<Dims> {
        if (d >= R - 1 || (d == R - 2 && a.getCausal()))
          return std::nullopt;
        Dims out;
        if (d == R - 2) // query rows: every chunk sees all keys and values
          out = {d, kWhole, kWhole};
        else
          out = {d, d, d};
        if (Value m = a.getMask())
          out.push_back(broadcastDim(m, d, R, size));
        return out;
      })
      .Default([&](Operation *o) -> std::optional<Dims> {
        StringRef name = o->getName().getStringRef();
        if (!name.starts_with("graph.reduce_"))
          return std::nullopt;
        auto axes = o->getAttrOfType<DenseI64ArrayAttr>("axes");
        auto keep = o->getAttrOfType<BoolAttr>("keepdims");
        if (!axes)
          return std::nullopt;
        ArrayRef<int64_t> ax = axes.asArrayRef();
        if (ax.empty() || !keep || keep.getValue()) {
          if (llvm::is_contained(ax, d))
            return std::nullopt;
          return Dims{d};
        }
        // keepdims = false: the d-th dim that is not reduced.
        int64_t seen = 0;
        for (int64_t k = 0; k < rankOf(o->getOperand(0)); ++k)
          if (!llvm::is_contained(ax, k) && seen++ == d)
            return Dims{k};
        return std::nullopt;
      });
}

RankedTensorType dfa::chunkType(RankedTensorType type, int64_t d,
                                int64_t extent) {
  if (d < 0)
    return type;
  SmallVector<int64_t> shape(type.getShape());
  shape[d] = extent;
  return RankedTensorType::get(shape, type.getElementType(),
                               type.getEncoding());
}

RankedTensorType dfa::windowType(RankedTensorType type, const Window &w) {
  return RankedTensorType::get(w.size, type.getElementType(), type.getEncoding());
}

std::optional<Window> dfa::reshapeWindow(ArrayRef<int64_t> in, ArrayRef<int64_t> out,
                                         const Window &w) {
  Window iw;
  size_t i = 0, j = 0;
  while (i < in.size() || j < out.size()) {
    size_t i0 = i, j0 = j;
    int64_t pi = i < in.size() ? in[i++] : 1, pj = j < out.size() ? out[j++] : 1;
    while (pi != pj) {
      if (pi < pj && i < in.size())
        pi *= in[i++];
      else if (pj < pi && j < out.size())
        pj *= out[j++];
      else
        return std::nullopt;
    }
    // The output window's interval of the group (row-major), if it is
    // one: whole below one dim, a range of it, one index above.
    int64_t first = 0, count = 1, stride = 1;
    bool whole = true;
    for (size_t k = j; k-- > j0;) {
      first += w.start[k] * stride;
      stride *= out[k];
      if (!whole) {
        if (w.size[k] != 1)
          return std::nullopt;
        continue;
      }
      count *= w.size[k];
      whole = w.size[k] == out[k];
    }
    // The same interval of the input dims, if it is one window of them.
    if (i == i0) { // size-1 dims the input does not have
      if (count != 1)
        return std::nullopt;
      continue;
    }
    SmallVector<int64_t> start(i - i0), size(i - i0);
    int64_t inner = 1;
    size_t m = i;
    while (m-- > i0) {
      if (first % inner == 0 && count % inner == 0 &&
          (first / inner) % in[m] + count / inner <= in[m])
        break;
      inner *= in[m];
    }
    if (m < i0 || m >= i)
      return std::nullopt;
    int64_t below = 1;
    for (size_t n = i; n-- > i0;) {
      start[n - i0] = (first / below) % in[n];
      size[n - i0] = n > m ? in[n] : n == m ? count / below : 1;
      below *= in[n];
    }
    llvm::append_range(iw.start, start);
    llvm::append_range(iw.size, size);
  }
  return iw;
}
