//===- ONNXShapeOps.cpp - converters for data movement and shapes -----------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// Reshapes, views, indexing, padding, constants and the shape-computing ops
/// (Shape, Size, ConstantOfShape, Range) that fold to constants at import.
/// Every shape operand must be a compile-time constant: the graph dialect is
/// statically shaped.
///
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "dfa/Reference/DataDependent.h"
#include "dfa/Reference/Evaluator.h"

#include "mlir/IR/Matchers.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace dfa;
using namespace dfa::graph;
using namespace dfa::onnximport;

namespace {
RankedTensorType withShape(RankedTensorType t, ArrayRef<int64_t> shape) {
  return RankedTensorType::get(shape, t.getElementType());
}

LogicalResult convertIdentity(NodeContext &c, Results &r) {
  r.push_back(c.in(0));
  return success();
}

LogicalResult convertDropout(NodeContext &c, Results &r) {
  // Inference: the identity. The seed and the pre-opset-12 ratio and
  // is_test attributes only shape the training-mode drop.
  c.ignoreAttrs({"seed", "ratio", "is_test"});
  if (c.has(2)) {
    auto training = c.constInput(2, "training_mode");
    if (failed(training))
      return failure();
    if (training->getInt(0)) {
      // Training mode drops with probability `ratio` (input 1, default
      // 0.5): a constant 0 drops nothing and scales by 1, the identity in
      // either mode (torch exports such a Dropout, e.g. Swin-T's).
      double ratio = 0.5;
      if (c.has(1)) {
        FailureOr<double> r = c.constScalar(1, "ratio");
        if (failed(r))
          return failure();
        ratio = *r;
      }
      if (ratio != 0) {
        c.unsupported() << "training mode with ratio " << llvm::formatv("{0:g}", ratio).str()
                        << " (dfa compiles inference graphs; a ratio of 0 "
                           "is the identity)";
        return failure();
      }
    }
  }
  r.push_back(c.in(0));
  // In inference the mask keeps everything.
  ref::Tensor mask(ref::DType::Bool, c.type(0).getShape());
  std::fill(mask.bytes(), mask.bytes() + mask.byteSize(), 1);
  r.push_back(c.constant(mask));
  return success();
}

LogicalResult convertReshape(NodeContext &c, Results &r) {
  std::vector<int64_t> target;
  if (c.opset < 5) {
    target = c.intsAttr("shape").value_or(std::vector<int64_t>{});
  } else {
    auto v = c.constInts(1, "shape");
    if (failed(v))
      return failure();
    target = *v;
  }
  auto in = c.type(0);
  bool allowZero = c.intAttr("allowzero", 0);
  SmallVector<int64_t> shape;
  int64_t known = 1, infer = -1;
  for (size_t i = 0; i < target.size(); ++i) {
    int64_t d = target[i];
    if (d == 0 && !allowZero) {
      if ((int64_t)i >= in.getRank()) {
        c.error() << "shape entry " << i << " is 0 but the input has rank "
                  << in.getRank();
        return failure();
      }
      d = in.getDimSize(i);
    }
    if (d == -1) {
      if (infer >= 0) {
        c.error() << "shape has more than one -1";
        return failure();
      }
      infer = i;
    } else if (d < 0) {
      c.error() << "invalid shape entry " << d;
      return failure();
    } else {
      known *= d;
    }
    shape.push_back(d);
  }
  int64_t total = in.getNumElements();
  if (infer >= 0) {
    if (known == 0 || total % known) {
      c.error() << "cannot infer -1: " << total << " elements are not a "
                << "multiple of " << known;
      return failure();
    }
    shape[infer] = total / known;
  } else if (known != total) {
    c.error() << "cannot reshape " << in << " to " << known << " elements";
    return failure();
  }
  r.push_back(c.reshape(c.in(0), shape));
  return success();
}

LogicalResult convertFlatten(NodeContext &c, Results &r) {
  auto t = c.type(0);
  int64_t axis = c.intAttr("axis", 1);
  if (axis < 0)
    axis += t.getRank();
  if (axis < 0 || axis > t.getRank()) {
    c.error() << "axis out of range";
    return failure();
  }
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < t.getRank(); ++d)
    (d < axis ? outer : inner) *= t.getDimSize(d);
  r.push_back(c.reshape(c.in(0), {outer, inner}));
  return success();
}

/// Axes of Squeeze/Unsqueeze: an attribute before opset 13, an input after.
FailureOr<std::optional<std::vector<int64_t>>> axesOperand(NodeContext &c) {
  if (c.opset < 13)
    return c.intsAttr("axes");
  if (!c.has(1))
    return std::optional<std::vector<int64_t>>();
  auto v = c.constInts(1, "axes");
  if (failed(v))
    return failure();
  return std::optional<std::vector<int64_t>>(*v);
}

LogicalResult convertSqueeze(NodeContext &c, Results &r) {
  auto axes = axesOperand(c);
  if (failed(axes))
    return failure();
  auto t = c.type(0);
  SmallVector<bool> drop(t.getRank(), false);
  if (*axes) {
    for (int64_t a : **axes) {
      auto n = c.axis(a, t.getRank());
      if (failed(n))
        return failure();
      if (t.getDimSize(*n) != 1) {
        c.error() << "cannot squeeze dim " << *n << " of size "
                  << t.getDimSize(*n);
        return failure();
      }
      drop[*n] = true;
    }
  } else {
    for (int64_t d = 0; d < t.getRank(); ++d)
      drop[d] = t.getDimSize(d) == 1;
  }
  SmallVector<int64_t> shape;
  for (int64_t d = 0; d < t.getRank(); ++d)
    if (!drop[d])
      shape.push_back(t.getDimSize(d));
  r.push_back(c.reshape(c.in(0), shape));
  return success();
}

LogicalResult convertUnsqueeze(NodeContext &c, Results &r) {
  auto axes = axesOperand(c);
  if (failed(axes))
    return failure();
  if (!*axes) {
    c.error() << "missing axes";
    return failure();
  }
  auto t = c.type(0);
  int64_t rank = t.getRank() + (*axes)->size();
  SmallVector<bool> added(rank, false);
  for (int64_t a : **axes) {
    auto n = c.axis(a, rank);
    if (failed(n))
      return failure();
    if (added[*n]) {
      c.error() << "repeated axis " << *n;
      return failure();
    }
    added[*n] = true;
  }
  SmallVector<int64_t> shape;
  int64_t src = 0;
  for (int64_t d = 0; d < rank; ++d)
    shape.push_back(added[d] ? 1 : t.getDimSize(src++));
  r.push_back(c.reshape(c.in(0), shape));
  return success();
}

LogicalResult convertTranspose(NodeContext &c, Results &r) {
  int64_t rank = c.type(0).getRank();
  SmallVector<int64_t> perm;
  if (auto p = c.intsAttr("perm")) {
    perm.assign(p->begin(), p->end());
  } else {
    for (int64_t d = rank - 1; d >= 0; --d)
      perm.push_back(d);
  }
  SmallVector<bool> seen(rank, false);
  bool ok = (int64_t)perm.size() == rank;
  for (int64_t p : perm) {
    ok &= p >= 0 && p < rank && !seen[p];
    if (ok)
      seen[p] = true;
  }
  if (!ok) {
    c.error() << "perm is not a permutation of " << rank << " dims";
    return failure();
  }
  r.push_back(c.b.create<TransposeOp>(c.loc, c.in(0), c.b.getDenseI64ArrayAttr(perm)));
  return success();
}

LogicalResult convertConcat(NodeContext &c, Results &r) {
  auto axis = c.axis(c.intAttr("axis", 0), c.type(0).getRank());
  if (failed(axis))
    return failure();
  SmallVector<Value> inputs;
  for (Value v : c.inputs)
    if (v)
      inputs.push_back(v);
  auto first = cast<RankedTensorType>(inputs[0].getType());
  for (Value v : inputs) {
    auto t = cast<RankedTensorType>(v.getType());
    bool ok = t.getRank() == first.getRank() &&
              t.getElementType() == first.getElementType();
    for (int64_t d = 0; ok && d < t.getRank(); ++d)
      ok = d == *axis || t.getDimSize(d) == first.getDimSize(d);
    if (!ok) {
      c.error() << "input " << v.getType() << " does not agree with "
                << first << " outside axis " << *axis;
      return failure();
    }
  }
  r.push_back(c.b.create<ConcatOp>(c.loc, inputs, c.b.getI64IntegerAttr(*axis)));
  return success();
}

LogicalResult convertSplit(NodeContext &c, Results &r) {
  auto t = c.type(0);
  auto axis = c.axis(c.intAttr("axis", 0), t.getRank());
  if (failed(axis))
    return failure();
  std::vector<int64_t> sizes;
  if (c.opset >= 13 && c.has(1)) {
    auto v = c.constInts(1, "split");
    if (failed(v))
      return failure();
    sizes = *v;
  } else if (auto s = c.intsAttr("split")) {
    sizes = *s;
  } else if (const onnx::AttributeProto *parts = c.attr("num_outputs")) {
    // Opset 18: num_outputs chunks of ceil(dim / n), the last one smaller.
    int64_t n = parts->i(), dim = t.getDimSize(*axis);
    if (n < 1 || n != c.node.output_size()) {
      c.error() << "num_outputs " << n << " does not match the node's "
                << c.node.output_size() << " outputs";
      return failure();
    }
    int64_t chunk = (dim + n - 1) / n;
    for (int64_t i = 0; i < n; ++i)
      sizes.push_back(std::max<int64_t>(0, std::min(chunk, dim - i * chunk)));
  } else {
    int64_t n = c.node.output_size(), dim = t.getDimSize(*axis);
    if (n == 0 || dim % n) {
      c.error() << "cannot split " << dim << " evenly into " << n << " outputs";
      return failure();
    }
    sizes.assign(n, dim / n);
  }
  int64_t total = 0;
  for (int64_t s : sizes)
    total += s;
  if (total != t.getDimSize(*axis) || (int64_t)sizes.size() != c.node.output_size()) {
    c.error() << "split sizes do not match dim " << *axis << " or the outputs";
    return failure();
  }
  auto op = c.b.create<SplitOp>(c.loc, c.in(0), c.b.getI64IntegerAttr(*axis),
                                c.b.getDenseI64ArrayAttr(sizes));
  r.append(op.getResults().begin(), op.getResults().end());
  return success();
}

LogicalResult convertSlice(NodeContext &c, Results &r) {
  auto t = c.type(0);
  int64_t rank = t.getRank();
  std::vector<int64_t> starts, ends, axes, steps;
  if (c.opset < 10) {
    starts = c.intsAttr("starts").value_or(std::vector<int64_t>{});
    ends = c.intsAttr("ends").value_or(std::vector<int64_t>{});
    axes = c.intsAttr("axes").value_or(std::vector<int64_t>{});
  } else {
    auto s = c.constInts(1, "starts"), e = c.constInts(2, "ends");
    if (failed(s) || failed(e))
      return failure();
    starts = *s;
    ends = *e;
    if (failed(c.optionalConst(3, "axes", axes)) ||
        failed(c.optionalConst(4, "steps", steps)))
      return failure();
  }
  if (axes.empty())
    for (size_t i = 0; i < starts.size(); ++i)
      axes.push_back(i);
  if (steps.empty())
    steps.assign(starts.size(), 1);
  if (ends.size() != starts.size() || axes.size() != starts.size() ||
      steps.size() != starts.size()) {
    c.error() << "starts, ends, axes and steps differ in length";
    return failure();
  }
  SmallVector<int64_t> outStart(rank, 0), outStep(rank, 1), shape(t.getShape());
  for (size_t i = 0; i < starts.size(); ++i) {
    auto a = c.axis(axes[i], rank);
    if (failed(a))
      return failure();
    int64_t dim = t.getDimSize(*a), step = steps[i];
    if (step == 0) {
      c.error() << "step is zero";
      return failure();
    }
    auto clampIdx = [&](int64_t v, int64_t lo, int64_t hi) {
      if (v < 0)
        v = v <= std::numeric_limits<int64_t>::min() + dim ? lo : v + dim;
      return std::clamp(v, lo, hi);
    };
    int64_t start = step > 0 ? clampIdx(starts[i], 0, dim)
                             : clampIdx(starts[i], 0, dim - 1);
    int64_t end = step > 0 ? clampIdx(ends[i], 0, dim)
                           : clampIdx(ends[i], -1, dim - 1);
    if (step < 0 && ends[i] < 0 && ends[i] + dim < 0)
      end = -1;
    // (span - 1) / |step| + 1 cannot overflow, unlike span + step - 1.
    int64_t span = step > 0 ? end - start : start - end;
    int64_t size = span > 0 ? (span - 1) / (step > 0 ? step : -step) + 1 : 0;
    shape[*a] = size;
    outStart[*a] = size ? start : 0;
    outStep[*a] = step;
  }
  r.push_back(c.b.create<SliceOp>(c.loc, withShape(t, shape), c.in(0),
                                  c.b.getDenseI64ArrayAttr(outStart),
                                  c.b.getDenseI64ArrayAttr(outStep)));
  return success();
}

LogicalResult convertGather(NodeContext &c, Results &r) {
  auto axis = c.axis(c.intAttr("axis", 0), c.type(0).getRank());
  if (failed(axis))
    return failure();
  // A constant scalar index in range (torch's select, x[:, :, k], as the
  // dynamo exporter writes it: Mamba's scan reads its state so, step by
  // step) is a slice and a reshape, as aten.select imports: a view that
  // joins its producer's or its reader's kernel, not a kernel of its own.
  // The whole input when the dim has size 1. An index out of range stays
  // a gather, an error when it runs.
  DenseIntElementsAttr index;
  auto it = dyn_cast<RankedTensorType>(c.in(1).getType());
  RankedTensorType xt = c.type(0);
  int64_t len = xt.getDimSize(*axis);
  if (it && it.getRank() == 0 && !ShapedType::isDynamic(len) &&
      matchPattern(c.in(1), m_Constant(&index))) {
    int64_t k = (*index.getValues<APInt>().begin()).getSExtValue();
    if (k < 0)
      k += len;
    if (k >= 0 && k < len) {
      Value x = c.in(0);
      SmallVector<int64_t> shape(xt.getShape());
      if (len > 1) {
        SmallVector<int64_t> starts(shape.size(), 0), steps(shape.size(), 1);
        starts[*axis] = k;
        shape[*axis] = 1;
        x = c.b.create<SliceOp>(c.loc, withShape(xt, shape), x,
                                c.b.getDenseI64ArrayAttr(starts),
                                c.b.getDenseI64ArrayAttr(steps));
      }
      shape.erase(shape.begin() + *axis);
      r.push_back(c.b.create<ReshapeOp>(c.loc, withShape(xt, shape), x));
      return success();
    }
  }
  r.push_back(c.b.create<GatherOp>(c.loc, c.in(0), c.in(1),
                                   c.b.getI64IntegerAttr(*axis)));
  return success();
}

/// GatherElements/ScatterElements: indices of the data's rank, no larger
/// than the data off the axis.
LogicalResult checkElementIndices(NodeContext &c, int64_t axis) {
  auto d = c.type(0), i = c.type(1);
  bool ok = d.getRank() == i.getRank();
  for (int64_t k = 0; ok && k < d.getRank(); ++k)
    ok = k == axis || i.getDimSize(k) <= d.getDimSize(k);
  if (!ok)
    c.error() << "indices " << c.in(1).getType() << " do not fit data "
              << c.in(0).getType() << " off axis " << axis;
  return success(ok);
}

LogicalResult convertGatherElements(NodeContext &c, Results &r) {
  auto axis = c.axis(c.intAttr("axis", 0), c.type(0).getRank());
  if (failed(axis))
    return failure();
  if (failed(checkElementIndices(c, *axis)))
    return failure();
  r.push_back(c.b.create<GatherElementsOp>(
      c.loc, withShape(c.type(0), c.type(1).getShape()), c.in(0), c.in(1),
      c.b.getI64IntegerAttr(*axis)));
  return success();
}

LogicalResult convertScatterElements(NodeContext &c, Results &r) {
  auto axis = c.axis(c.intAttr("axis", 0), c.type(0).getRank());
  if (failed(axis))
    return failure();
  if (c.type(1).getShape() != c.type(2).getShape()) {
    c.error() << "indices and updates differ in shape";
    return failure();
  }
  if (failed(checkElementIndices(c, *axis)))
    return failure();
  r.push_back(c.b.create<ScatterElementsOp>(
      c.loc, c.in(0), c.in(1), c.in(2), c.b.getI64IntegerAttr(*axis),
      c.b.getStringAttr(c.strAttr("reduction", "none"))));
  return success();
}

LogicalResult convertGatherND(NodeContext &c, Results &r) {
  auto in = c.type(0), idx = c.type(1);
  int64_t b = c.intAttr("batch_dims", 0);
  if (idx.getRank() < 1 || b < 0 || b >= idx.getRank()) {
    c.error() << "batch_dims " << b << " does not fit indices " << c.in(1).getType();
    return failure();
  }
  int64_t k = idx.getShape().back();
  if (k < 1 || b + k > in.getRank()) {
    c.error() << "index tuples of " << k << " entries do not fit " << c.in(0).getType();
    return failure();
  }
  SmallVector<int64_t> shape(in.getShape().take_front(b));
  shape.append(idx.getShape().begin() + b, idx.getShape().end() - 1);
  shape.append(in.getShape().begin() + b + k, in.getShape().end());
  r.push_back(c.b.create<GatherNDOp>(c.loc, withShape(in, shape), c.in(0), c.in(1),
                                     c.b.getI64IntegerAttr(b)));
  return success();
}

LogicalResult convertScatterND(NodeContext &c, Results &r) {
  r.push_back(c.b.create<ScatterNDOp>(c.loc, c.type(0), c.in(0), c.in(1), c.in(2),
                                      c.b.getStringAttr(c.strAttr("reduction", "none"))));
  return success();
}

LogicalResult convertExpand(NodeContext &c, Results &r) {
  auto target = c.constInts(1, "shape");
  if (failed(target))
    return failure();
  auto shape = llvm::any_of(*target, [](int64_t d) { return d < 0; })
                   ? FailureOr<SmallVector<int64_t>>(failure())
                   : broadcastShapes(c.type(0).getShape(), *target);
  if (failed(shape)) {
    c.error() << "cannot expand " << c.in(0).getType() << " to the target shape";
    return failure();
  }
  if (ArrayRef<int64_t>(*shape) == c.type(0).getShape()) {
    r.push_back(c.in(0));
    return success();
  }
  r.push_back(c.b.create<ExpandOp>(c.loc, withShape(c.type(0), *shape), c.in(0)));
  return success();
}

LogicalResult convertPad(NodeContext &c, Results &r) {
  std::vector<int64_t> pads;
  double value = 0;
  if (c.opset < 11) {
    pads = c.intsAttr("pads").value_or(c.intsAttr("paddings").value_or(
        std::vector<int64_t>{}));
    value = c.floatAttr("value", 0);
  } else {
    auto p = c.constInts(1, "pads");
    if (failed(p))
      return failure();
    pads = *p;
    if (c.has(2)) {
      auto v = c.constInput(2, "constant_value");
      if (failed(v))
        return failure();
      value = v->numElements() ? v->getDouble(0) : 0;
    }
    if (c.has(3)) {
      // Opset 18: the pads name only these axes; the others get none.
      auto axes = c.constInts(3, "axes");
      if (failed(axes))
        return failure();
      int64_t rank = c.type(0).getRank(), n = int64_t(axes->size());
      if ((int64_t)pads.size() != 2 * n) {
        c.error() << "expected " << 2 * n << " pads for " << n << " axes, got "
                  << pads.size();
        return failure();
      }
      FailureOr<std::vector<int64_t>> named = c.axes(*axes, rank);
      if (failed(named))
        return failure();
      std::vector<int64_t> full(2 * rank, 0);
      for (int64_t i = 0; i < n; ++i) {
        full[(*named)[i]] = pads[i];
        full[(*named)[i] + rank] = pads[i + n];
      }
      pads = std::move(full);
    }
  }
  if ((int64_t)pads.size() != 2 * c.type(0).getRank()) {
    c.error() << "expected " << 2 * c.type(0).getRank() << " pads, got "
              << pads.size();
    return failure();
  }
  int64_t rank = c.type(0).getRank();
  for (int64_t d = 0; d < rank; ++d)
    if (c.type(0).getDimSize(d) + pads[d] + pads[d + rank] < 0) {
      c.error() << "pads crop dim " << d << " below zero";
      return failure();
    }
  std::string mode = c.strAttr("mode", "constant");
  if (mode != "constant" && mode != "reflect" && mode != "edge" &&
      !(mode == "wrap" && c.opset >= 19)) {
    c.unsupported() << "pad mode '" << mode << "'";
    return failure();
  }
  r.push_back(c.b.create<PadOp>(c.loc, c.in(0), c.b.getDenseI64ArrayAttr(pads),
                                c.b.getStringAttr(mode), c.b.getF64FloatAttr(value)));
  return success();
}

LogicalResult convertTile(NodeContext &c, Results &r) {
  auto reps = c.constInts(1, "repeats");
  if (failed(reps))
    return failure();
  if ((int64_t)reps->size() != c.type(0).getRank()) {
    c.error() << "expected " << c.type(0).getRank() << " repeats";
    return failure();
  }
  if (llvm::any_of(*reps, [](int64_t v) { return v < 0; })) {
    c.error() << "repeats must be non-negative";
    return failure();
  }
  r.push_back(c.b.create<TileOp>(c.loc, c.in(0), c.b.getDenseI64ArrayAttr(*reps)));
  return success();
}

LogicalResult convertTrilu(NodeContext &c, Results &r) {
  int64_t k = 0;
  if (c.has(1)) {
    auto v = c.constInts(1, "k");
    if (failed(v))
      return failure();
    k = v->empty() ? 0 : (*v)[0];
  }
  if (c.type(0).getRank() < 2) {
    c.error() << "input must have rank >= 2";
    return failure();
  }
  r.push_back(c.b.create<TriluOp>(c.loc, c.in(0),
                                  c.b.getBoolAttr(c.intAttr("upper", 1)),
                                  c.b.getI64IntegerAttr(k)));
  return success();
}

LogicalResult convertTopK(NodeContext &c, Results &r) {
  int64_t k;
  if (c.opset < 10) {
    k = c.intAttr("k", 0);
  } else {
    auto v = c.constInts(1, "k");
    if (failed(v))
      return failure();
    k = v->empty() ? 0 : (*v)[0];
  }
  auto axis = c.axis(c.intAttr("axis", -1), c.type(0).getRank());
  if (failed(axis))
    return failure();
  if (k < 0 || k > c.type(0).getDimSize(*axis)) {
    c.error() << "k = " << k << " out of range";
    return failure();
  }
  auto op = c.b.create<TopKOp>(c.loc, c.in(0), c.b.getI64IntegerAttr(k),
                               c.b.getI64IntegerAttr(*axis),
                               c.b.getBoolAttr(c.intAttr("largest", 1)),
                               c.b.getBoolAttr(c.intAttr("sorted", 1)));
  r.push_back(op.getValues());
  r.push_back(op.getIndices());
  return success();
}

/// HannWindow, HammingWindow, BlackmanWindow (opset 17): a constant of the
/// given length, a0 - a1 cos(2 pi n / N) + a2 cos(4 pi n / N) with N the
/// length (periodic, the default) or one less (symmetric).
LogicalResult convertWindow(NodeContext &c, Results &r) {
  auto size = c.constInts(0, "size");
  if (failed(size))
    return failure();
  if (size->size() != 1 || (*size)[0] < 0 || (*size)[0] > (int64_t(1) << 24)) {
    c.error() << "size must be one length in [0, 2^24]";
    return failure();
  }
  int64_t n = (*size)[0];
  Type elt = elementType(int(c.intAttr("output_datatype", 1)), c.ctx());
  std::optional<ref::DType> dt = elt ? ref::dtypeOf(elt) : std::nullopt;
  if (!dt) {
    c.error() << "output_datatype must name a type dfa has";
    return failure();
  }
  double N = c.intAttr("periodic", 1) ? double(n) : double(n - 1);
  StringRef op = c.node.op_type();
  double a0 = op == "HannWindow" ? 0.5 : op == "HammingWindow" ? 25.0 / 46.0 : 0.42;
  double a1 = op == "BlackmanWindow" ? 0.5 : 1 - a0;
  double a2 = op == "BlackmanWindow" ? 0.08 : 0;
  std::vector<double> w(n);
  for (int64_t i = 0; i < n; ++i)
    w[i] = a0 - a1 * std::cos(2 * M_PI * double(i) / N) +
           a2 * std::cos(4 * M_PI * double(i) / N);
  r.push_back(c.constant(ref::Tensor::fromDoubles(*dt, {n}, w)));
  return success();
}

/// The slices along `axis` (all elements, flattened, without one) where
/// the condition holds. The condition fixes the result's shape, so it must
/// be known at compile time (--specialize for a graph input).
LogicalResult convertCompress(NodeContext &c, Results &r) {
  auto cond = c.constInts(1, "condition");
  if (failed(cond))
    return failure();
  Value x = c.in(0);
  int64_t axis = 0;
  if (c.attr("axis")) {
    FailureOr<int64_t> a = c.axis(c.intAttr("axis", 0), c.type(0).getRank());
    if (failed(a))
      return failure();
    axis = *a;
  } else {
    x = c.reshape(x, {c.type(0).getNumElements()});
  }
  int64_t dim = typeOf(x).getDimSize(axis);
  if (int64_t(cond->size()) > dim) {
    c.error() << "condition has " << cond->size() << " values for " << dim << " slices";
    return failure();
  }
  std::vector<int64_t> keep;
  for (size_t i = 0; i < cond->size(); ++i)
    if ((*cond)[i])
      keep.push_back(int64_t(i));
  Value idx = c.constant(ref::Tensor::fromInts(ref::DType::I64, {int64_t(keep.size())}, keep));
  r.push_back(c.b.create<GatherOp>(c.loc, x, idx, c.b.getI64IntegerAttr(axis)));
  return success();
}

/// Reverses the first sequence_lens[b] steps of each batch entry along the
/// time axis; sequence_lens must be known at compile time.
LogicalResult convertReverseSequence(NodeContext &c, Results &r) {
  auto t = c.type(0);
  auto lens = c.constInts(1, "sequence_lens");
  if (failed(lens))
    return failure();
  int64_t batchAxis = c.intAttr("batch_axis", 1), timeAxis = c.intAttr("time_axis", 0);
  if (t.getRank() < 2 || (batchAxis != 0 && batchAxis != 1) ||
      (timeAxis != 0 && timeAxis != 1) || batchAxis == timeAxis) {
    c.error() << "batch_axis and time_axis must be 0 and 1 of a rank >= 2 input";
    return failure();
  }
  int64_t batch = t.getDimSize(batchAxis), steps = t.getDimSize(timeAxis);
  if (int64_t(lens->size()) != batch ||
      llvm::any_of(*lens, [&](int64_t l) { return l < 0 || l > steps; })) {
    c.error() << "sequence_lens must hold " << batch << " lengths in [0, " << steps << "]";
    return failure();
  }
  if (t.getNumElements() == 0) {
    r.push_back(c.in(0));
    return success();
  }
  // The source step of every element, for a gather along the time axis.
  std::vector<int64_t> idx(t.getNumElements());
  int64_t inner = t.getNumElements() / (batch * steps);
  for (int64_t i = 0; i < t.getNumElements(); ++i) {
    int64_t outer = i / inner;
    int64_t d0 = outer / t.getDimSize(1), d1 = outer % t.getDimSize(1);
    int64_t b = batchAxis == 0 ? d0 : d1, s = timeAxis == 0 ? d0 : d1;
    idx[i] = s < (*lens)[b] ? (*lens)[b] - 1 - s : s;
  }
  Value indices = c.constant(ref::Tensor::fromInts(ref::DType::I64, t.getShape(), idx));
  r.push_back(c.b.create<GatherElementsOp>(c.loc, t, c.in(0), indices,
                                           c.b.getI64IntegerAttr(timeAxis)));
  return success();
}

/// CumSum, and CumProd (opset 26).
LogicalResult convertCumulative(NodeContext &c, Results &r) {
  auto a = c.constInts(1, "axis");
  if (failed(a))
    return failure();
  auto axis = c.axis(a->empty() ? 0 : (*a)[0], c.type(0).getRank());
  if (failed(axis))
    return failure();
  auto ax = c.b.getI64IntegerAttr(*axis);
  auto excl = c.b.getBoolAttr(c.intAttr("exclusive", 0));
  auto rev = c.b.getBoolAttr(c.intAttr("reverse", 0));
  if (c.node.op_type() == "CumProd")
    r.push_back(c.b.create<CumProdOp>(c.loc, c.in(0), ax, excl, rev));
  else
    r.push_back(c.b.create<CumSumOp>(c.loc, c.in(0), ax, excl, rev));
  return success();
}

/// Crops or pads each named axis to `shape`, centred (opset 18): the odd
/// element goes to the end.
LogicalResult convertCenterCropPad(NodeContext &c, Results &r) {
  auto shape = c.constInts(1, "shape");
  if (failed(shape))
    return failure();
  int64_t rank = c.type(0).getRank();
  std::vector<int64_t> axes;
  if (auto a = c.intsAttr("axes")) {
    for (int64_t x : *a) {
      FailureOr<int64_t> n = c.axis(x, rank);
      if (failed(n))
        return failure();
      axes.push_back(*n);
    }
  } else {
    for (int64_t d = 0; d < rank; ++d)
      axes.push_back(d);
  }
  if (shape->size() != axes.size()) {
    c.error() << "shape has " << shape->size() << " sizes for " << axes.size()
              << " axes";
    return failure();
  }
  SmallVector<int64_t> pads(2 * rank, 0);
  for (size_t i = 0; i < axes.size(); ++i) {
    int64_t dim = c.type(0).getDimSize(axes[i]), want = (*shape)[i];
    if (want < 0) {
      c.error() << "negative size " << want;
      return failure();
    }
    // Negative pads crop.
    int64_t diff = want - dim, before = diff >= 0 ? diff / 2 : -((-diff) / 2);
    pads[axes[i]] = before;
    pads[axes[i] + rank] = diff - before;
  }
  r.push_back(c.b.create<PadOp>(c.loc, c.in(0), c.b.getDenseI64ArrayAttr(pads),
                                c.b.getStringAttr("constant"), c.b.getF64FloatAttr(0)));
  return success();
}

LogicalResult convertDepthToSpace(NodeContext &c, Results &r) {
  auto t = c.type(0);
  int64_t bs = c.intAttr("blocksize", 0);
  if (t.getRank() != 4 || bs < 1 || bs > t.getDimSize(1) ||
      t.getDimSize(1) % (bs * bs)) {
    c.error() << "needs a 4-d input whose channels divide by blocksize^2";
    return failure();
  }
  int64_t N = t.getDimSize(0), C = t.getDimSize(1), H = t.getDimSize(2),
          W = t.getDimSize(3), Cb = C / (bs * bs);
  bool crd = c.strAttr("mode", "DCR") == "CRD";
  Value v = crd ? c.reshape(c.in(0), {N, Cb, bs, bs, H, W})
                : c.reshape(c.in(0), {N, bs, bs, Cb, H, W});
  SmallVector<int64_t> perm = crd ? SmallVector<int64_t>{0, 1, 4, 2, 5, 3}
                                  : SmallVector<int64_t>{0, 3, 4, 1, 5, 2};
  v = c.b.create<TransposeOp>(c.loc, v, c.b.getDenseI64ArrayAttr(perm));
  r.push_back(c.reshape(v, {N, Cb, H * bs, W * bs}));
  return success();
}

LogicalResult convertSpaceToDepth(NodeContext &c, Results &r) {
  auto t = c.type(0);
  int64_t bs = c.intAttr("blocksize", 0);
  if (t.getRank() != 4 || bs < 1 || bs > t.getDimSize(2) || bs > t.getDimSize(3) ||
      t.getDimSize(2) % bs || t.getDimSize(3) % bs) {
    c.error() << "needs a 4-d input whose spatial dims divide by blocksize";
    return failure();
  }
  int64_t N = t.getDimSize(0), C = t.getDimSize(1), H = t.getDimSize(2) / bs,
          W = t.getDimSize(3) / bs;
  // DCR (the default) puts the block offset before the channel, CRD
  // (opset 25's mode) after it, as DepthToSpace reads them.
  std::string mode = c.strAttr("mode", "DCR");
  if (mode != "DCR" && mode != "CRD") {
    c.error() << "unknown mode '" << mode << "'";
    return failure();
  }
  Value v = c.reshape(c.in(0), {N, C, H, bs, W, bs});
  v = c.b.create<TransposeOp>(
      c.loc, v,
      c.b.getDenseI64ArrayAttr(mode == "CRD" ? ArrayRef<int64_t>{0, 1, 3, 5, 2, 4}
                                             : ArrayRef<int64_t>{0, 3, 5, 1, 2, 4}));
  r.push_back(c.reshape(v, {N, C * bs * bs, H, W}));
  return success();
}

//===----------------------------------------------------------------------===//
// Constants and shape computations
//===----------------------------------------------------------------------===//

LogicalResult convertConstant(NodeContext &c, Results &r) {
  ref::Tensor t;
  if (const auto *a = c.attr("value")) {
    std::string err;
    Status s = tensorFromProto(a->t(), ".", t, err);
    if (s != Status::Ok) {
      (s == Status::Unsupported ? c.unsupported() : c.error()) << err;
      return failure();
    }
  } else if (const auto *a = c.attr("value_float")) {
    t = ref::Tensor::fromDoubles(ref::DType::F32, {}, {a->f()});
  } else if (const auto *a = c.attr("value_floats")) {
    std::vector<double> v(a->floats().begin(), a->floats().end());
    t = ref::Tensor::fromDoubles(ref::DType::F32, {(int64_t)v.size()}, v);
  } else if (const auto *a = c.attr("value_int")) {
    t = ref::Tensor::fromInts(ref::DType::I64, {}, {a->i()});
  } else if (const auto *a = c.attr("value_ints")) {
    std::vector<int64_t> v(a->ints().begin(), a->ints().end());
    t = ref::Tensor::fromInts(ref::DType::I64, {(int64_t)v.size()}, v);
  } else {
    c.unsupported() << "only tensor, float and int values are supported";
    return failure();
  }
  r.push_back(c.constant(t));
  return success();
}

LogicalResult convertConstantOfShape(NodeContext &c, Results &r) {
  auto shape = c.constInts(0, "shape");
  if (failed(shape))
    return failure();
  ref::Tensor fill = ref::Tensor::fromDoubles(ref::DType::F32, {}, {0.0});
  if (const auto *a = c.attr("value")) {
    std::string err;
    if (tensorFromProto(a->t(), ".", fill, err) != Status::Ok ||
        fill.numElements() != 1) {
      c.error() << "value must be a one-element tensor";
      return failure();
    }
  }
  for (int64_t d : *shape)
    if (d < 0) {
      c.error() << "negative dimension " << d;
      return failure();
    }
  auto type = RankedTensorType::get(*shape, ref::mlirTypeOf(fill.dtype(), c.ctx()));
  auto splat = dyn_cast<DenseElementsAttr>(ref::tensorToAttr(fill, c.ctx()));
  if (!splat) { // a minifloat: the one value, expanded
    Value one = c.constant(fill.reshaped({}));
    r.push_back(c.b.create<ExpandOp>(c.loc, type, one));
    return success();
  }
  r.push_back(c.b.create<ConstantOp>(
      c.loc, DenseElementsAttr::get(type, splat.getSplatValue<Attribute>())));
  return success();
}

LogicalResult convertShape(NodeContext &c, Results &r) {
  ArrayRef<int64_t> shape = c.type(0).getShape();
  int64_t rank = shape.size();
  int64_t start = c.intAttr("start", 0), end = c.intAttr("end", rank);
  if (start < 0)
    start += rank;
  if (end < 0)
    end += rank;
  start = std::clamp<int64_t>(start, 0, rank);
  end = std::clamp<int64_t>(end, start, rank);
  std::vector<int64_t> v(shape.begin() + start, shape.begin() + end);
  r.push_back(c.constant(ref::Tensor::fromInts(ref::DType::I64, {(int64_t)v.size()}, v)));
  return success();
}

LogicalResult convertSize(NodeContext &c, Results &r) {
  r.push_back(c.constant(
      ref::Tensor::fromInts(ref::DType::I64, {}, {c.type(0).getNumElements()})));
  return success();
}

LogicalResult convertRange(NodeContext &c, Results &r) {
  // Range-27's stash_type: dfa computes every element in double and rounds
  // once, which is the float (1) stash or better.
  if (int64_t stash = c.intAttr("stash_type", 1); stash != 1) {
    c.unsupported() << "stash_type " << stash << " (only 1, float)";
    return failure();
  }
  auto start = c.constInput(0, "start");
  auto sv = c.constScalar(0, "start"), lv = c.constScalar(1, "limit"),
       dv = c.constScalar(2, "delta");
  if (failed(start) || failed(sv) || failed(lv) || failed(dv))
    return failure();
  double s = *sv, l = *lv, d = *dv;
  auto delta = c.constInput(2, "delta");
  double count = std::ceil((l - s) / d);
  if (d == 0 || !std::isfinite(count)) {
    c.error() << "delta is zero or the range is not finite";
    return failure();
  }
  if (count > double(1 << 28)) {
    c.unsupported() << "a range of " << count << " elements";
    return failure();
  }
  int64_t n = std::max<int64_t>(0, (int64_t)count);
  ref::Tensor t(start->dtype(), {n});
  for (int64_t i = 0; i < n; ++i) {
    if (ref::isFloat(t.dtype()))
      t.setDouble(i, s + i * d);
    else
      t.setInt(i, start->getInt(0) + i * delta->getInt(0));
  }
  r.push_back(c.constant(t));
  return success();
}
} // namespace

/// NonZero: the indices of x's non-zero elements (ref::nonZero). Its size
/// is its count: a graph break (host work, then a shape known only at run
/// time) unless x is known at compile time, when it is a constant.
LogicalResult convertNonZero(NodeContext &c, Results &r) {
  auto x = c.constInput(0, "the tensor NonZero reads: its output's size is "
                           "its count of non-zeros, a graph break otherwise");
  if (failed(x))
    return failure();
  r.push_back(c.constant(ref::nonZero(*x)));
  return success();
}

/// NonMaxSuppression (ref::nonMaxSuppression): its output's size is the
/// number of boxes it keeps, so like NonZero it is a constant when boxes,
/// scores and thresholds are known at compile time, else a graph break.
LogicalResult convertNonMaxSuppression(NodeContext &c, Results &r) {
  const char *why = "its output's size is its count of kept boxes, a graph "
                    "break otherwise";
  auto boxes = c.constInput(0, (std::string("the boxes: ") + why).c_str());
  if (failed(boxes))
    return failure();
  auto scores = c.constInput(1, (std::string("the scores: ") + why).c_str());
  if (failed(scores))
    return failure();
  ref::NmsOptions o;
  o.centerPointBox = c.intAttr("center_point_box", 0) != 0;
  for (size_t i = 2; i <= 4; ++i) {
    if (!c.has(i))
      continue;
    auto v = c.constInput(i, i == 2 ? "max_output_boxes_per_class"
                             : i == 3 ? "iou_threshold"
                                      : "score_threshold");
    if (failed(v))
      return failure();
    if (v->numElements() == 0)
      continue;
    if (i == 2)
      o.maxPerClass = std::max<int64_t>(0, v->getInt(0));
    else if (i == 3)
      o.iouThreshold = v->getDouble(0);
    else
      o.scoreThreshold = v->getDouble(0);
  }
  std::string err;
  ref::Tensor out = ref::nonMaxSuppression(*boxes, *scores, o, err);
  if (!err.empty()) {
    c.error() << err;
    return failure();
  }
  r.push_back(c.constant(out));
  return success();
}

/// Unique (ref::unique): its outputs' size is its count of distinct
/// values, so like NonZero it is a constant when the input is known at
/// compile time, else a graph break.
LogicalResult convertUnique(NodeContext &c, Results &r) {
  auto x = c.constInput(0, "the tensor Unique reads: its outputs' size is "
                           "its count of distinct values, a graph break otherwise");
  if (failed(x))
    return failure();
  std::optional<int64_t> axis;
  if (c.attr("axis")) {
    FailureOr<int64_t> a = c.axis(c.intAttr("axis", 0), x->rank());
    if (failed(a))
      return failure();
    axis = *a;
  }
  ref::UniqueResult u = ref::unique(*x, axis, c.intAttr("sorted", 1) != 0);
  for (const ref::Tensor *t : {&u.y, &u.indices, &u.inverse, &u.counts})
    r.push_back(c.constant(*t));
  return success();
}

/// If: the branch its condition takes, imported in place. A condition known
/// only at run time would run the If on the host (a graph break); one
/// computed from graph inputs is known once they are specialized.
LogicalResult convertIf(NodeContext &c, Results &r) {
  const onnx::AttributeProto *then = c.attr("then_branch");
  const onnx::AttributeProto *otherwise = c.attr("else_branch");
  auto cond = c.constInput(0, "the condition of If: known only at run time, "
                              "the If would run on the host (a graph break)");
  if (failed(cond))
    return failure();
  if (cond->numElements() != 1) {
    c.error() << "the condition holds " << cond->numElements()
              << " values, not one";
    return failure();
  }
  const onnx::AttributeProto *branch = cond->getDouble(0) != 0 ? then : otherwise;
  if (!branch || !branch->has_g()) {
    c.error() << "the taken branch is not a graph";
    return failure();
  }
  SmallVector<Value> outs;
  if (!c.importSubgraph || failed(c.importSubgraph(branch->g(), {}, outs)))
    return failure();
  if ((int)outs.size() != c.node.output_size()) {
    c.error() << "the taken branch has " << outs.size() << " outputs, the If "
              << c.node.output_size();
    return failure();
  }
  r.append(outs.begin(), outs.end());
  return success();
}

/// Steps a Scan or Loop is unrolled into at most: a longer one is refused
/// (its body would be imported that many times).
constexpr int64_t kMaxUnrolledSteps = 1024;

/// `x` with dim `axis` at `index` taken and the dim dropped.
static Value sliceAt(NodeContext &c, Value x, int64_t axis, int64_t index) {
  auto t = cast<RankedTensorType>(x.getType());
  SmallVector<int64_t> shape(t.getShape()), starts(t.getRank(), 0), steps(t.getRank(), 1);
  shape[axis] = 1;
  starts[axis] = index;
  Value s = c.b.create<SliceOp>(c.loc, withShape(t, shape), x,
                                c.b.getDenseI64ArrayAttr(starts),
                                c.b.getDenseI64ArrayAttr(steps));
  shape.erase(shape.begin() + axis);
  return c.reshape(s, shape);
}

/// `parts` stacked along a new dim `axis` (in reverse with `reverse`).
static Value stack(NodeContext &c, ArrayRef<Value> parts, int64_t axis, bool reverse) {
  SmallVector<Value> ordered;
  for (Value p : parts) {
    auto t = cast<RankedTensorType>(p.getType());
    SmallVector<int64_t> shape(t.getShape());
    shape.insert(shape.begin() + axis, 1);
    ordered.push_back(c.reshape(p, shape));
  }
  if (reverse)
    std::reverse(ordered.begin(), ordered.end());
  if (ordered.size() == 1)
    return ordered.front();
  return c.b.create<ConcatOp>(c.loc, ordered, c.b.getI64IntegerAttr(axis));
}

/// An attribute's ints, or `n` copies of 0 when it is absent.
static std::vector<int64_t> intsOr0(NodeContext &c, StringRef name, size_t n) {
  std::optional<std::vector<int64_t>> v = c.intsAttr(name);
  return v ? *v : std::vector<int64_t>(n, 0);
}

/// Scan (opset 9+): the body unrolled over the scan inputs' steps, states
/// carried from one step to the next, scan outputs stacked.
LogicalResult convertScan(NodeContext &c, Results &r) {
  if (c.opset < 9) {
    c.unsupported() << "Scan before opset 9 (its batch dim and sequence_lens)";
    return failure();
  }
  const onnx::AttributeProto *body = c.attr("body");
  int64_t m = c.intAttr("num_scan_inputs", 0);
  int64_t n = int64_t(c.inputs.size()) - m;
  if (!body || !body->has_g() || m < 1 || n < 0) {
    c.error() << "needs a body graph and num_scan_inputs between 1 and the inputs";
    return failure();
  }
  int64_t k = body->g().output_size() - n;
  std::vector<int64_t> inAxes = intsOr0(c, "scan_input_axes", m),
                       inDirs = intsOr0(c, "scan_input_directions", m),
                       outAxes = intsOr0(c, "scan_output_axes", k),
                       outDirs = intsOr0(c, "scan_output_directions", k);
  if (k < 0 || int64_t(inAxes.size()) != m || int64_t(inDirs.size()) != m ||
      int64_t(outAxes.size()) != k || int64_t(outDirs.size()) != k) {
    c.error() << "scan axes and directions must have one entry per scan input and output";
    return failure();
  }
  int64_t steps = -1;
  for (int64_t j = 0; j < m; ++j) {
    FailureOr<int64_t> a = c.axis(inAxes[j], c.type(n + j).getRank());
    if (failed(a))
      return failure();
    inAxes[j] = *a;
    int64_t len = c.type(n + j).getDimSize(*a);
    if (steps >= 0 && len != steps) {
      c.error() << "scan inputs of " << steps << " and " << len << " steps";
      return failure();
    }
    steps = len;
  }
  if (steps > kMaxUnrolledSteps) {
    c.unsupported() << "a Scan of " << steps << " steps (dfa unrolls at most "
                    << kMaxUnrolledSteps << ")";
    return failure();
  }
  SmallVector<Value> state(c.inputs.begin(), c.inputs.begin() + n);
  std::vector<SmallVector<Value>> scanned(k);
  for (int64_t t = 0; t < steps; ++t) {
    SmallVector<Value> in(state);
    for (int64_t j = 0; j < m; ++j)
      in.push_back(sliceAt(c, c.in(n + j), inAxes[j], inDirs[j] ? steps - 1 - t : t));
    SmallVector<Value> out;
    if (!c.importSubgraph || failed(c.importSubgraph(body->g(), in, out)))
      return failure();
    state.assign(out.begin(), out.begin() + n);
    for (int64_t j = 0; j < k; ++j)
      scanned[j].push_back(out[n + j]);
  }
  r.append(state.begin(), state.end());
  for (int64_t j = 0; j < k; ++j) {
    if (scanned[j].empty()) {
      c.unsupported() << "a Scan of zero steps";
      return failure();
    }
    int64_t rank = cast<RankedTensorType>(scanned[j].front().getType()).getRank() + 1;
    FailureOr<int64_t> a = c.axis(outAxes[j], rank);
    if (failed(a))
      return failure();
    r.push_back(stack(c, scanned[j], *a, outDirs[j] != 0));
  }
  return success();
}

/// Loop with a trip count known at compile time and a condition that stays
/// known (a constant after each step): unrolled. Otherwise how many steps it
/// takes is data, a graph break.
LogicalResult convertLoop(NodeContext &c, Results &r) {
  const onnx::AttributeProto *body = c.attr("body");
  if (!body || !body->has_g()) {
    c.error() << "needs a body graph";
    return failure();
  }
  int64_t trips = kMaxUnrolledSteps + 1;
  if (c.has(0)) {
    auto mt = c.constInput(0, "the trip count: how many steps the Loop takes, "
                              "a graph break when known only at run time");
    if (failed(mt))
      return failure();
    trips = mt->getInt(0);
  }
  bool cond = true;
  if (c.has(1)) {
    auto ct = c.constInput(1, "the loop condition: known only at run time, "
                              "the Loop would run on the host (a graph break)");
    if (failed(ct))
      return failure();
    cond = ct->getDouble(0) != 0;
  }
  int64_t n = int64_t(c.inputs.size()) - 2;
  int64_t k = body->g().output_size() - 1 - n;
  if (n < 0 || k < 0) {
    c.error() << "the body's outputs do not match the carried values";
    return failure();
  }
  SmallVector<Value> state(c.inputs.begin() + 2, c.inputs.end());
  std::vector<SmallVector<Value>> scanned(k);
  Type i64 = c.b.getI64Type(), i1 = c.b.getI1Type();
  int64_t t = 0;
  for (; t < trips && cond; ++t) {
    if (t >= kMaxUnrolledSteps) {
      c.unsupported() << "a Loop of more than " << kMaxUnrolledSteps
                      << " steps (dfa unrolls at most that many)";
      return failure();
    }
    SmallVector<Value> in{c.scalar(i64, double(t)), c.scalar(i1, cond ? 1 : 0)};
    in.append(state.begin(), state.end());
    SmallVector<Value> out;
    if (!c.importSubgraph || failed(c.importSubgraph(body->g(), in, out)))
      return failure();
    auto next = out[0].getDefiningOp<ConstantOp>();
    if (!next) {
      auto diag = c.unsupported() << "its condition is computed at run time: how "
                                     "many steps it takes is data (a graph break)";
      c.suggestSpecialize(out[0], diag);
      c.needsRuntimeValue = true;
      return failure();
    }
    cond = ref::tensorFromAttr(next.getValue()).getDouble(0) != 0;
    state.assign(out.begin() + 1, out.begin() + 1 + n);
    for (int64_t j = 0; j < k; ++j)
      scanned[j].push_back(out[1 + n + j]);
  }
  r.append(state.begin(), state.end());
  for (int64_t j = 0; j < k; ++j) {
    if (scanned[j].empty()) {
      c.unsupported() << "a Loop of zero steps with scan outputs";
      return failure();
    }
    r.push_back(stack(c, scanned[j], 0, false));
  }
  return success();
}

void dfa::onnximport::addShapeConverters(llvm::StringMap<Converter> &t) {
  t["Scan"] = convertScan;
  t["Loop"] = convertLoop;
  t["NonZero"] = convertNonZero;
  t["NonMaxSuppression"] = convertNonMaxSuppression;
  t["Unique"] = convertUnique;
  t["If"] = convertIf;
  t["Identity"] = convertIdentity;
  t["Dropout"] = convertDropout;
  t["Reshape"] = convertReshape;
  t["Flatten"] = convertFlatten;
  t["Squeeze"] = convertSqueeze;
  t["Unsqueeze"] = convertUnsqueeze;
  t["Transpose"] = convertTranspose;
  t["Concat"] = convertConcat;
  t["Split"] = convertSplit;
  t["Slice"] = convertSlice;
  t["Gather"] = convertGather;
  t["GatherElements"] = convertGatherElements;
  t["ScatterElements"] = convertScatterElements;
  t["Scatter"] = convertScatterElements;
  t["GatherND"] = convertGatherND;
  t["ScatterND"] = convertScatterND;
  t["Expand"] = convertExpand;
  t["Pad"] = convertPad;
  t["Tile"] = convertTile;
  t["Trilu"] = convertTrilu;
  t["TopK"] = convertTopK;
  t["CumSum"] = convertCumulative;
  t["CumProd"] = convertCumulative;
  t["CenterCropPad"] = convertCenterCropPad;
  t["Compress"] = convertCompress;
  t["ReverseSequence"] = convertReverseSequence;
  t["HannWindow"] = convertWindow;
  t["HammingWindow"] = convertWindow;
  t["BlackmanWindow"] = convertWindow;
  t["DepthToSpace"] = convertDepthToSpace;
  t["SpaceToDepth"] = convertSpaceToDepth;
  t["Constant"] = convertConstant;
  t["ConstantOfShape"] = convertConstantOfShape;
  t["Shape"] = convertShape;
  t["Size"] = convertSize;
  t["Range"] = convertRange;
}
