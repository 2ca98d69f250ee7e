//===- FXComplex.cpp - complex tensors as (real, imaginary) pairs ------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// torch's complex tensors as the importer carries them: a complex tensor
/// of shape S is its real view, a real tensor of shape S + [2] holding
/// (real, imaginary), exactly as torch.view_as_real lays it out. The graph
/// dialect has no complex type; what a model does with complex numbers --
/// rotary position embeddings written with torch.polar and view_as_complex
/// (Llama 4, DeepSeek-V2, Meta's reference Llama), and the views around
/// them -- lowers to real graph ops on the pairs.
///
/// Only the handlers here take a complex operand (the importer looks a
/// node with one up in complexHandlers()); any other node that meets a
/// complex tensor is refused, naming it, so no real lowering ever computes
/// on a pair by mistake.
///
//===----------------------------------------------------------------------===//

#include "FXImporter.h"

#include <cmath>

using namespace mlir;
using namespace dfa;
using namespace dfa::graph;
using namespace dfa::fximport;

namespace {
using R = PyValue;

/// The complex operand `i` (its real view), or failure with an error.
FailureOr<Value> complexArg(FXNode &n, size_t i, StringRef kw) {
  const R *v = n.arg(i, kw);
  if (!v || v->kind != R::Complex) {
    n.error() << "expected a complex tensor, got " << (v ? v->describe() : "nothing");
    return failure();
  }
  return v->tensor;
}

/// The rank of the complex tensor whose real view is `pairs`.
int64_t rankOf(FXNode &n, Value pairs) { return n.type(pairs).getRank() - 1; }

/// The real and imaginary parts of a real view [..., 2].
std::pair<Value, Value> parts(FXNode &n, Value pairs) {
  auto t = n.type(pairs);
  SmallVector<int64_t> shape(t.getShape().drop_back());
  SmallVector<Type> types(2, RankedTensorType::get(shape, t.getElementType()));
  shape.push_back(1);
  auto half = RankedTensorType::get(shape, t.getElementType());
  auto split = n.b.create<SplitOp>(n.loc, TypeRange{half, half}, pairs,
                                   n.b.getI64IntegerAttr(t.getRank() - 1),
                                   n.b.getDenseI64ArrayAttr({1, 1}));
  return {n.reshape(split.getResult(0), half.getShape().drop_back()),
          n.reshape(split.getResult(1), half.getShape().drop_back())};
}

/// The real view of re + i im (the two broadcast together); fails, with
/// an error, when they do not.
FailureOr<Value> pairOf(FXNode &n, Value re, Value im) {
  Type elt = promotedType(re, im);
  re = n.cast(re, elt);
  im = n.cast(im, elt);
  auto shape = broadcastShapes(n.type(re).getShape(), n.type(im).getShape());
  if (failed(shape)) {
    n.error() << "real and imaginary parts " << re.getType() << " and " << im.getType()
              << " do not broadcast";
    return failure();
  }
  SmallVector<int64_t> s(*shape);
  auto grow = [&](Value v) {
    if (n.type(v).getShape() == ArrayRef<int64_t>(s))
      return v;
    return Value(n.b.create<ExpandOp>(n.loc, RankedTensorType::get(s, elt), v));
  };
  re = grow(re);
  im = grow(im);
  s.push_back(1);
  Value a = n.reshape(re, s), b = n.reshape(im, s);
  s.back() = 2;
  return Value(n.b.create<ConcatOp>(n.loc, RankedTensorType::get(s, elt), ValueRange{a, b},
                                    n.b.getI64IntegerAttr(int64_t(s.size()) - 1)));
}

/// Sets `r` to the complex value re + i im.
LogicalResult setComplex(FXNode &n, R &r, Value re, Value im) {
  FailureOr<Value> z = pairOf(n, re, im);
  if (failed(z))
    return failure();
  r = R::ofComplex(*z);
  return success();
}

/// view_as_complex(x): x's last dim of 2 is (real, imaginary).
LogicalResult viewAsComplex(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  if (failed(x))
    return failure();
  auto t = n.type(*x);
  if (t.getRank() >= 1 && t.getShape().back() == 2 && t.getElementType().isF16()) {
    n.unsupported() << "view_as_complex of float16 (complex32)";
    return failure();
  }
  if (t.getRank() < 1 || t.getShape().back() != 2 ||
      !(t.getElementType().isF32() || t.getElementType().isF64())) {
    n.error() << "view_as_complex of " << x->getType()
              << ": expected float32 or float64 with a last dim of 2";
    return failure();
  }
  r = R::ofComplex(*x);
  return success();
}

/// view_as_real(z): the real view itself.
LogicalResult viewAsReal(FXNode &n, R &r) {
  auto z = complexArg(n, 0, "input");
  if (failed(z))
    return failure();
  r = R::ofTensor(*z);
  return success();
}

/// z.real, z.imag (torch.real, torch.imag).
template <bool Imag> LogicalResult component(FXNode &n, R &r) {
  auto z = complexArg(n, 0, "input");
  if (failed(z))
    return failure();
  auto [re, im] = parts(n, *z);
  r = R::ofTensor(Imag ? im : re);
  return success();
}

/// polar(abs, angle): abs cos(angle) + i abs sin(angle); complex(real,
/// imag): real + i imag.
template <bool Polar> LogicalResult makeComplex(FXNode &n, R &r) {
  auto a = n.tensor(0, Polar ? "abs" : "real"), b = n.tensor(1, Polar ? "angle" : "imag");
  if (failed(a) || failed(b))
    return failure();
  for (Value v : {*a, *b})
    if (!(n.type(v).getElementType().isF32() || n.type(v).getElementType().isF64())) {
      n.error() << (Polar ? "polar" : "complex") << " of " << v.getType()
                << ": torch takes float32 or float64";
      return failure();
    }
  if (!Polar)
    return setComplex(n, r, *a, *b);
  Value re = n.b.create<MulOp>(n.loc, *a, n.b.create<CosOp>(n.loc, *b));
  Value im = n.b.create<MulOp>(n.loc, *a, n.b.create<SinOp>(n.loc, *b));
  return setComplex(n, r, re, im);
}

/// An operand of complex arithmetic: (re, im) with im null for a real
/// tensor or number; `like` gives a number its type.
struct Operand {
  Value re, im;
};
FailureOr<Operand> arithmeticArg(FXNode &n, const R *v, Type elt) {
  if (!v) {
    n.error() << "missing operand";
    return failure();
  }
  if (v->kind == R::Complex) {
    auto [re, im] = parts(n, v->tensor);
    return Operand{n.cast(re, elt), n.cast(im, elt)};
  }
  if (v->kind == R::Tensor)
    return Operand{n.cast(v->tensor, elt), Value()};
  if (v->isNumber())
    return Operand{n.scalar(elt, v->number()), Value()};
  n.error() << "expected a tensor or a number, got " << v->describe();
  return failure();
}

/// The component type of complex arithmetic on `a` and `b` (one complex),
/// as torch's result_type: the dimensioned tensors promote among
/// themselves, the 0-d ones among themselves (numbers never widen); then a
/// complex dimensioned result stands, a float one becomes its complex type,
/// and without either the 0-d complex type is the result (so a 0-d
/// complex128 does not widen a complex64 or float32 tensor, and a 0-d
/// float64 does not widen a complex64 one).
Type componentType(FXNode &n, const R *a, const R *b) {
  struct Kind {
    int cat = 0; // 0 none, 1 bool or integer, 2 float, 3 complex
    Type comp;   // the float (or complex's component) type
  };
  auto join = [](Kind k, int cat, Type e) {
    if (cat >= 2)
      k.comp = k.comp && k.cat >= 2 ? promotedType(k.comp, e) : e;
    k.cat = std::max(k.cat, cat);
    return k;
  };
  Kind dims, zeros;
  for (const R *v : {a, b}) {
    if (!v || (v->kind != R::Complex && v->kind != R::Tensor))
      continue;
    Type e = n.type(v->tensor).getElementType();
    int rank = n.type(v->tensor).getRank() - (v->kind == R::Complex ? 1 : 0);
    int cat = v->kind == R::Complex ? 3 : isa<FloatType>(e) ? 2 : 1;
    Kind &k = rank == 0 ? zeros : dims;
    k = join(k, cat, e);
  }
  if (dims.cat >= 2)
    return dims.comp;
  if (dims.cat == 1 || dims.cat == 0)
    return zeros.cat >= 2 ? zeros.comp : n.b.getF32Type();
  return n.b.getF32Type();
}

/// mul, add and sub with a complex operand; the other may be complex, a
/// real tensor or a number. add/sub take alpha (a real number).
template <char Op> LogicalResult arithmetic(FXNode &n, R &r) {
  const R *x = n.arg(0, "input"), *y = n.arg(1, "other");
  if (!x || !y) {
    n.error() << "needs two operands";
    return failure();
  }
  Type elt = componentType(n, x, y);
  auto a = arithmeticArg(n, x, elt), b = arithmeticArg(n, y, elt);
  if (failed(a) || failed(b))
    return failure();
  if (Op != '*') {
    if (const R *alpha = n.arg(2, "alpha"); alpha && alpha->kind != R::None) {
      if (!alpha->isNumber()) {
        n.unsupported() << "a complex alpha";
        return failure();
      }
      if (alpha->number() != 1) {
        Value s = n.scalar(elt, alpha->number());
        b->re = n.b.create<MulOp>(n.loc, b->re, s);
        if (b->im)
          b->im = n.b.create<MulOp>(n.loc, b->im, s);
      }
    }
  }
  Value re, im;
  if (Op == '*') {
    if (a->im && b->im) { // (a + ib)(c + id) = (ac - bd) + i(ad + bc)
      re = n.b.create<SubOp>(n.loc, n.b.create<MulOp>(n.loc, a->re, b->re),
                             n.b.create<MulOp>(n.loc, a->im, b->im));
      im = n.b.create<AddOp>(n.loc, n.b.create<MulOp>(n.loc, a->re, b->im),
                             n.b.create<MulOp>(n.loc, a->im, b->re));
    } else {
      const Operand &z = a->im ? *a : *b, &s = a->im ? *b : *a;
      re = n.b.create<MulOp>(n.loc, z.re, s.re);
      im = n.b.create<MulOp>(n.loc, z.im, s.re);
    }
  } else {
    auto combine = [&](Value p, Value q) -> Value {
      if (Op == '+')
        return n.b.create<AddOp>(n.loc, p, q);
      return n.b.create<SubOp>(n.loc, p, q);
    };
    re = combine(a->re, b->re);
    Value zero = n.scalar(elt, 0);
    im = combine(a->im ? a->im : zero, b->im ? b->im : zero);
  }
  return setComplex(n, r, re, im);
}

/// The real view's shape for a complex shape.
SmallVector<int64_t> pairShape(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> s(shape);
  s.push_back(2);
  return s;
}

/// unsqueeze(z, dim).
LogicalResult unsqueeze(FXNode &n, R &r) {
  auto z = complexArg(n, 0, "input");
  auto d = n.intArg(1, "dim", 0);
  if (failed(z) || failed(d))
    return failure();
  int64_t rank = rankOf(n, *z);
  auto dim = n.dim(*d, rank + 1);
  if (failed(dim))
    return failure();
  SmallVector<int64_t> shape(n.type(*z).getShape());
  shape.insert(shape.begin() + *dim, 1);
  r = R::ofComplex(n.reshape(*z, shape));
  return success();
}

/// squeeze(z, dim or dims or none).
LogicalResult squeeze(FXNode &n, R &r) {
  auto z = complexArg(n, 0, "input");
  if (failed(z))
    return failure();
  int64_t rank = rankOf(n, *z);
  ArrayRef<int64_t> shape = n.type(*z).getShape().drop_back();
  SmallVector<bool> drop(rank, false);
  const R *dims = n.arg(1, "dim");
  if (!dims || dims->kind == R::None) {
    for (int64_t d = 0; d < rank; ++d)
      drop[d] = shape[d] == 1;
  } else {
    auto list = n.intList(1, "dim", /*varargs=*/false);
    if (failed(list))
      return failure();
    for (int64_t d : *list) {
      auto dd = n.dim(d, rank);
      if (failed(dd))
        return failure();
      drop[*dd] = shape[*dd] == 1;
    }
  }
  SmallVector<int64_t> out;
  for (int64_t d = 0; d < rank; ++d)
    if (!drop[d])
      out.push_back(shape[d]);
  r = R::ofComplex(n.reshape(*z, pairShape(out)));
  return success();
}

/// A view of a complex tensor: the real handler `real` on its [..., 2] view,
/// given `args` (the tensor first) whose dims are already non-negative
/// against the complex rank, so that none counts from the pair dim; the
/// result is complex again.
LogicalResult onPairs(FXNode &n, R &r, StringRef real, std::vector<R> args) {
  FXNode call(n.imp, n.b, n.loc, n.name, n.target, std::move(args), {}, n.module);
  R out;
  if (failed(functionHandlers().lookup(real)(call, out)))
    return failure();
  if (out.kind != R::Tensor) {
    n.error() << real << " of a complex tensor gave " << out.describe();
    return failure();
  }
  r = R::ofComplex(out.tensor);
  return success();
}

/// Ints as a Python list.
R intList(ArrayRef<int64_t> v) {
  std::vector<R> l;
  for (int64_t i : v)
    l.push_back(R::ofInt(i));
  return R::ofList(std::move(l));
}

/// view/reshape(z, shape) and expand(z, sizes): the sizes with the pair's 2
/// after them (-1 then counts complex elements, or keeps a dim).
template <bool Expand> LogicalResult resized(FXNode &n, R &r) {
  auto z = complexArg(n, 0, "input");
  auto sizes = n.intList(1, Expand ? "size" : "shape", /*varargs=*/true);
  if (failed(z) || failed(sizes))
    return failure();
  SmallVector<int64_t> withPair(sizes->begin(), sizes->end());
  withPair.push_back(2);
  return onPairs(n, r, Expand ? "expand" : "reshape", {R::ofTensor(*z), intList(withPair)});
}

/// flatten(z, start_dim=0, end_dim=-1).
LogicalResult flatten(FXNode &n, R &r) {
  auto z = complexArg(n, 0, "input");
  auto a = n.intArg(1, "start_dim", 0), e = n.intArg(2, "end_dim", -1);
  if (failed(z) || failed(a) || failed(e))
    return failure();
  int64_t rank = rankOf(n, *z);
  if (rank == 0) {
    r = R::ofComplex(n.reshape(*z, {1, 2}));
    return success();
  }
  auto s = n.dim(*a, rank), t = n.dim(*e, rank);
  if (failed(s) || failed(t))
    return failure();
  if (*s > *t) {
    n.error() << "flatten from dim " << *s << " to dim " << *t;
    return failure();
  }
  ArrayRef<int64_t> in = n.type(*z).getShape().drop_back();
  SmallVector<int64_t> out(in.begin(), in.begin() + *s);
  int64_t merged = 1;
  for (int64_t d = *s; d <= *t; ++d)
    merged *= in[d];
  if (*t >= *s)
    out.push_back(merged);
  out.append(in.begin() + std::max(*t + 1, *s), in.end());
  r = R::ofComplex(n.reshape(*z, pairShape(out)));
  return success();
}

/// slice(z, dim, start, end, step) and select(z, dim, index).
template <bool Select> LogicalResult slice(FXNode &n, R &r) {
  auto z = complexArg(n, 0, "input");
  auto d = n.intArg(1, "dim", 0);
  if (failed(z) || failed(d))
    return failure();
  auto dim = n.dim(*d, rankOf(n, *z));
  if (failed(dim))
    return failure();
  std::vector<R> args = {R::ofTensor(*z), R::ofInt(*dim)};
  if (Select) {
    const R *index = n.arg(2, "index");
    args.push_back(index ? *index : R::ofInt(0));
  } else {
    for (auto [i, kw] : llvm::enumerate(std::array<StringRef, 3>{"start", "end", "step"})) {
      const R *v = n.arg(2 + i, kw);
      args.push_back(v ? *v : R());
    }
  }
  return onPairs(n, r, Select ? "aten.select.int" : "aten.slice.Tensor", std::move(args));
}

/// transpose(z, d0, d1) and permute(z, dims): the pair dim stays last.
template <bool Permute> LogicalResult transpose(FXNode &n, R &r) {
  auto z = complexArg(n, 0, "input");
  if (failed(z))
    return failure();
  int64_t rank = rankOf(n, *z);
  std::vector<int64_t> dims;
  if (Permute) {
    auto d = n.intList(1, "dims", /*varargs=*/true);
    if (failed(d) || int64_t(d->size()) != rank) {
      n.error() << "permute of a complex tensor of rank " << rank << " needs " << rank
                << " dims";
      return failure();
    }
    dims = *d;
  } else {
    auto a = n.intArg(1, "dim0", 0), b = n.intArg(2, "dim1", 0);
    if (failed(a) || failed(b))
      return failure();
    dims = {*a, *b};
  }
  for (int64_t &d : dims) {
    auto dd = n.dim(d, rank);
    if (failed(dd))
      return failure();
    d = *dd;
  }
  if (Permute) {
    dims.push_back(rank);
    return onPairs(n, r, "permute", {R::ofTensor(*z), intList(dims)});
  }
  return onPairs(n, r, "transpose", {R::ofTensor(*z), R::ofInt(dims[0]), R::ofInt(dims[1])});
}

/// clone, contiguous, alias, and a copy to the same complex dtype; x.to(w)
/// of a real x and a complex w converts x.
LogicalResult identity(FXNode &n, R &r) {
  if (const R *x = n.arg(0, "input"), *w = n.arg(1, "other");
      x && x->kind == R::Tensor && w && w->kind == R::Complex) {
    Value re = n.cast(x->tensor, n.type(w->tensor).getElementType());
    return setComplex(n, r, re, n.scalar(n.type(re).getElementType(), 0));
  }
  auto z = complexArg(n, 0, "input");
  if (failed(z))
    return failure();
  if (const R *other = n.arg(1, "other"); other && other->kind == R::Complex) {
    r = R::ofComplex(n.cast(*z, n.type(other->tensor).getElementType())); // z.to(w)
    return success();
  }
  if (const R *dt = n.arg(1, "dtype"); dt && dt->kind == R::DType) {
    std::optional<StringRef> c = complexComponent(dt->s);
    Type want = c ? fxElementType(*c, n.b.getContext()) : Type();
    if (!want) {
      n.unsupported() << "a complex tensor converted to " << dt->s;
      return failure();
    }
    r = R::ofComplex(n.cast(*z, want));
    return success();
  }
  if (Type t = n.dtypeArg("dtype")) {
    n.unsupported() << "a complex tensor converted to " << t;
    return failure();
  }
  r = R::ofComplex(*z);
  return success();
}

/// cat(list of complex tensors, dim).
LogicalResult cat(FXNode &n, R &r) {
  const R *list = n.arg(0, "tensors");
  auto d = n.intArg(1, "dim", 0);
  if (!list || list->kind != R::List || list->list.empty() || failed(d)) {
    n.error() << "cat takes a non-empty list of tensors";
    return failure();
  }
  std::vector<R> parts;
  for (const R &e : list->list) {
    if (e.kind != R::Complex) {
      n.unsupported() << "cat of complex and real tensors";
      return failure();
    }
    parts.push_back(R::ofTensor(e.tensor));
  }
  auto dim = n.dim(*d, rankOf(n, parts.front().tensor));
  if (failed(dim))
    return failure();
  return onPairs(n, r, "cat", {R::ofList(std::move(parts)), R::ofInt(*dim)});
}

/// The complex shape as the Python list x.shape gives.
R shapeOf(FXNode &n, Value pairs) {
  std::vector<R> dims;
  for (int64_t d : n.type(pairs).getShape().drop_back())
    dims.push_back(R::ofInt(d));
  return R::ofList(std::move(dims));
}

/// z.shape, z.ndim, z.dtype, z.real, z.imag, z.device (getattr).
LogicalResult getattr(FXNode &n, R &r) {
  auto z = complexArg(n, 0, "");
  const R *attr = n.arg(1);
  if (failed(z) || !attr || attr->kind != R::Str) {
    n.error() << "getattr needs a complex tensor and a name";
    return failure();
  }
  if (attr->s == "shape") {
    r = shapeOf(n, *z);
  } else if (attr->s == "ndim") {
    r = R::ofInt(rankOf(n, *z));
  } else if (attr->s == "dtype") {
    r.kind = R::DType;
    r.s = n.type(*z).getElementType().isF64() ? "complex128" : "complex64";
  } else if (attr->s == "device") {
    r.kind = R::Str;
    r.s = "cpu";
  } else if (attr->s == "real" || attr->s == "imag") {
    auto [re, im] = parts(n, *z);
    r = R::ofTensor(attr->s == "real" ? re : im);
  } else {
    n.unsupported() << "complex tensor attribute '" << attr->s << "'";
    return failure();
  }
  return success();
}

/// z.size(dim=None), z.dim(), z.numel().
LogicalResult size(FXNode &n, R &r) {
  auto z = complexArg(n, 0, "input");
  if (failed(z))
    return failure();
  const R *d = n.arg(1, "dim");
  if (!d || d->kind == R::None) {
    r = shapeOf(n, *z);
    return success();
  }
  auto dd = n.dim(d->i, rankOf(n, *z));
  if (failed(dd))
    return failure();
  r = R::ofInt(n.type(*z).getDimSize(*dd));
  return success();
}
LogicalResult dimFn(FXNode &n, R &r) {
  auto z = complexArg(n, 0, "input");
  if (failed(z))
    return failure();
  r = R::ofInt(rankOf(n, *z));
  return success();
}
LogicalResult numel(FXNode &n, R &r) {
  auto z = complexArg(n, 0, "input");
  if (failed(z))
    return failure();
  r = R::ofInt(n.type(*z).getNumElements() / 2);
  return success();
}

/// z[index] (getitem): the index applies to the real view's leading dims
/// as it is (an Ellipsis gets a full slice after it, so that it does not
/// stretch over the pair); an item of a list or tuple holding complex
/// tensors is that item.
LogicalResult getitem(FXNode &n, R &r) {
  const R *obj = n.arg(0), *index = n.arg(1);
  if (!obj || !index) {
    n.error() << "getitem needs an object and an index";
    return failure();
  }
  if (obj->kind == R::List) {
    if (index->kind != R::Int || index->i < -int64_t(obj->list.size()) ||
        index->i >= int64_t(obj->list.size())) {
      n.unsupported() << "getitem of " << obj->describe() << " by " << index->describe();
      return failure();
    }
    r = obj->list[index->i < 0 ? index->i + obj->list.size() : index->i];
    return success();
  }
  if (obj->kind != R::Complex || index->hasComplex()) {
    n.unsupported() << "getitem of " << obj->describe() << " by " << index->describe();
    return failure();
  }
  // The index may not reach the pair dim: at most one entry per complex
  // dim (None and ... take none).
  auto consumes = [](const R &e) { return e.kind != R::None && e.kind != R::Ellipsis; };
  int64_t used = index->kind == R::List ? llvm::count_if(index->list, consumes)
                                        : (consumes(*index) ? 1 : 0);
  if (used > rankOf(n, obj->tensor)) {
    n.error() << "too many indices (" << used << ") for a complex tensor of rank "
              << rankOf(n, obj->tensor);
    return failure();
  }
  R idx = *index;
  auto hasEllipsis = [](const R &i) {
    if (i.kind == R::Ellipsis)
      return true;
    return i.kind == R::List &&
           llvm::any_of(i.list, [](const R &e) { return e.kind == R::Ellipsis; });
  };
  if (hasEllipsis(idx)) {
    if (idx.kind != R::List)
      idx = R::ofList({idx});
    R all;
    all.kind = R::Slice;
    all.list = {R(), R(), R()};
    idx.list.push_back(all);
  }
  std::vector<R> args = {R::ofTensor(obj->tensor), idx};
  FXNode real(n.imp, n.b, n.loc, n.name, n.target, std::move(args), {}, nullptr);
  R out;
  if (failed(functionHandlers().lookup("getitem")(real, out)))
    return failure();
  if (out.kind != R::Tensor) {
    n.error() << "getitem of a complex tensor gave " << out.describe();
    return failure();
  }
  r = R::ofComplex(out.tensor);
  return success();
}

/// The transforms of torch.fft, each over a list of dims, as graph::buildDFT
/// products: an r2c (rfft: onesided over the last dim listed, then full
/// transforms over the others), a c2c (fft/ifft) and a c2r (irfft: full
/// inverse transforms over the other dims, then a onesided inverse of
/// `lastLen` points over the last). `x` is the real view ([..., 1] for a
/// real signal); `lens` the points per dim (0: the dim's size), padding or
/// truncating as torch's n/s do. `norm`: 0 none, 1 by 1/sqrt(n), 2 by 1/n
/// (ATen's fft_norm_mode), n the product of the points.
enum class Fft { R2C, C2C, C2R };
FailureOr<Value> fftOver(FXNode &n, Value x, Fft kind, ArrayRef<int64_t> dims,
                         ArrayRef<int64_t> lens, bool forward, int64_t norm) {
  int64_t rank = n.type(x).getRank() - 1; // the signal's, without the pair dim
  if (dims.empty() || rank < 1) {
    n.error() << "an FFT over no dims, or of a 0-d signal";
    return failure();
  }
  for (auto [i, d] : llvm::enumerate(dims)) {
    if (d < 0 || d >= rank || llvm::is_contained(dims.take_front(i), d)) {
      n.error() << "an FFT over dim " << d << " of a signal of rank " << rank
                << " (each dim once)";
      return failure();
    }
    if (lens[i] < 0) {
      n.error() << "an FFT of " << lens[i] << " points";
      return failure();
    }
  }
  if (norm < 0 || norm > 2) {
    n.error() << "FFT normalization " << norm << " (0 none, 1 by 1/sqrt(n), 2 by 1/n)";
    return failure();
  }
  if (!isa<FloatType>(n.type(x).getElementType())) {
    n.error() << "an FFT of " << x.getType() << ": torch transforms floating-point values";
    return failure();
  }
  double points = 1;
  bool inverse = !forward;
  auto step = [&](Value v, int64_t d, int64_t len, bool onesided) -> FailureOr<Value> {
    BuildError err;
    FailureOr<Value> y = buildDFT(n.b, n.loc, v, d, len, inverse, onesided, err);
    if (failed(y))
      (err.unsupported ? n.unsupported() : n.error()) << err.message;
    points *= double(len);
    return y;
  };
  auto lenOf = [&](size_t i, Value v) {
    return lens[i] > 0 ? lens[i] : n.type(v).getDimSize(dims[i]);
  };
  Value v = x;
  size_t last = dims.size() - 1;
  if (kind == Fft::R2C) {
    auto y = step(v, dims[last], lenOf(last, v), /*onesided=*/true);
    if (failed(y))
      return failure();
    v = *y;
  }
  for (size_t i = 0; i < dims.size(); ++i) {
    if (kind != Fft::C2C && i == last)
      continue;
    auto y = step(v, dims[i], lenOf(i, v), /*onesided=*/false);
    if (failed(y))
      return failure();
    v = *y;
  }
  if (kind == Fft::C2R) {
    int64_t len = lens[last] > 0 ? lens[last] : 2 * (n.type(v).getDimSize(dims[last]) - 1);
    if (len < 1) {
      n.error() << "an inverse real FFT of " << len << " points";
      return failure();
    }
    auto y = step(v, dims[last], len, /*onesided=*/true);
    if (failed(y))
      return failure();
    v = *y;
  }
  // buildDFT scales an inverse by 1/n already; ATen's mode says what to have.
  double have = inverse ? 1 / points : 1;
  double want = norm == 2 ? 1 / points : norm == 1 ? 1 / std::sqrt(points) : 1;
  if (want != have)
    v = n.b.create<MulOp>(n.loc, v, n.scalar(n.type(v).getElementType(), want / have));
  return v;
}

/// The dims argument of an ATen FFT, normalized against `rank`.
FailureOr<SmallVector<int64_t>> fftDims(FXNode &n, size_t i, StringRef kw, int64_t rank) {
  auto dims = n.intList(i, kw, /*varargs=*/false);
  if (failed(dims))
    return failure();
  SmallVector<int64_t> out;
  for (int64_t d : *dims) {
    auto dd = n.dim(d, rank);
    if (failed(dd))
      return failure();
    if (llvm::is_contained(out, *dd)) {
      n.error() << "an FFT over dim " << *dd << " twice";
      return failure();
    }
    out.push_back(*dd);
  }
  return out;
}

/// aten._fft_r2c(self, dim, normalization, onesided): a real signal's
/// spectrum, onesided or whole.
LogicalResult atenFftR2C(FXNode &n, R &r) {
  auto x = n.tensor(0, "self");
  auto norm = n.intArg(2, "normalization", 0), onesided = n.intArg(3, "onesided", 1);
  if (failed(x) || failed(norm) || failed(onesided))
    return failure();
  int64_t rank = n.type(*x).getRank();
  auto dims = fftDims(n, 1, "dim", rank);
  if (failed(dims))
    return failure();
  SmallVector<int64_t> shape(n.type(*x).getShape());
  shape.push_back(1);
  Value v = n.reshape(*x, shape);
  SmallVector<int64_t> lens(dims->size(), 0);
  auto y = fftOver(n, v, *onesided ? Fft::R2C : Fft::C2C, *dims, lens, true, *norm);
  if (failed(y))
    return failure();
  r = R::ofComplex(*y);
  return success();
}

/// aten._fft_c2c(self, dim, normalization, forward).
LogicalResult atenFftC2C(FXNode &n, R &r) {
  auto z = complexArg(n, 0, "self");
  auto norm = n.intArg(2, "normalization", 0), forward = n.intArg(3, "forward", 1);
  if (failed(z) || failed(norm) || failed(forward))
    return failure();
  auto dims = fftDims(n, 1, "dim", rankOf(n, *z));
  if (failed(dims))
    return failure();
  SmallVector<int64_t> lens(dims->size(), 0);
  auto y = fftOver(n, *z, Fft::C2C, *dims, lens, *forward, *norm);
  if (failed(y))
    return failure();
  r = R::ofComplex(*y);
  return success();
}

/// aten._fft_c2r(self, dim, normalization, last_dim_size): the real signal
/// of a onesided spectrum.
LogicalResult atenFftC2R(FXNode &n, R &r) {
  auto z = complexArg(n, 0, "self");
  auto norm = n.intArg(2, "normalization", 0), last = n.intArg(3, "last_dim_size", 0);
  if (failed(z) || failed(norm) || failed(last))
    return failure();
  auto dims = fftDims(n, 1, "dim", rankOf(n, *z));
  if (failed(dims))
    return failure();
  if (*last < 1) {
    n.error() << "an inverse real FFT of " << *last << " points";
    return failure();
  }
  SmallVector<int64_t> lens(dims->size(), 0);
  lens.back() = *last;
  auto y = fftOver(n, *z, Fft::C2R, *dims, lens, false, *norm);
  if (failed(y))
    return failure();
  SmallVector<int64_t> shape(n.type(*y).getShape().drop_back());
  r = R::ofTensor(n.reshape(*y, shape));
  return success();
}

/// torch.fft's functions (symbolic_trace): fft/ifft/rfft/irfft over one dim
/// (n, dim=-1), their 2-d (s, dim=(-2, -1)) and n-d (s, dim=all) forms;
/// norm "backward" (default), "ortho" or "forward".
template <Fft Kind, bool Forward, int Dims> LogicalResult fftFn(FXNode &n, R &r) {
  const R *in = n.arg(0, "input");
  if (!in || (in->kind != R::Tensor && in->kind != R::Complex)) {
    n.error() << "an FFT needs a tensor";
    return failure();
  }
  bool complexIn = in->kind == R::Complex;
  if (Kind == Fft::R2C && complexIn) {
    n.error() << "rfft of a complex tensor: torch takes a real one";
    return failure();
  }
  Value x = in->tensor;
  if (!complexIn) {
    SmallVector<int64_t> shape(n.type(x).getShape());
    shape.push_back(1);
    x = n.reshape(isa<FloatType>(n.type(x).getElementType()) ? x
                                                            : n.cast(x, n.b.getF32Type()),
                  shape);
  }
  int64_t rank = n.type(x).getRank() - 1;
  // n / s and dim.
  const R *size = n.arg(1, Dims == 1 ? "n" : "s");
  const R *dimArg = n.arg(2, "dim");
  SmallVector<int64_t> dims, lens;
  if (dimArg && dimArg->kind != R::None) {
    auto d = n.intList(2, "dim", false); // an int is a list of one
    if (failed(d))
      return failure();
    if (Dims == 1 && dimArg->kind != R::Int) {
      n.error() << "a 1-d FFT takes one dim";
      return failure();
    }
    for (int64_t v : *d) {
      auto dd = n.dim(v, rank);
      if (failed(dd))
        return failure();
      dims.push_back(*dd);
    }
  } else if (Dims == 1) {
    dims = {rank - 1};
  } else if (Dims == 2) {
    if (rank < 2) {
      n.error() << "a 2-d FFT of a tensor of rank " << rank;
      return failure();
    }
    dims = {rank - 2, rank - 1};
  } else {
    int64_t count = size && size->kind == R::List ? int64_t(size->list.size()) : rank;
    for (int64_t d = rank - count; d < rank; ++d)
      dims.push_back(d);
  }
  lens.assign(dims.size(), 0);
  if (size && size->kind != R::None) {
    auto l = n.intList(1, Dims == 1 ? "n" : "s", false);
    if (failed(l) || l->size() != dims.size()) {
      n.error() << "an FFT size per transformed dim";
      return failure();
    }
    for (size_t i = 0; i < l->size(); ++i) {
      if ((*l)[i] < 1 && (*l)[i] != -1) {
        n.error() << "an FFT size of " << (*l)[i];
        return failure();
      }
      lens[i] = (*l)[i] == -1 ? 0 : (*l)[i];
    }
  }
  int64_t norm = 0; // backward: the inverse scaled by 1/n
  const R *normArg = n.arg(3, "norm");
  std::string mode = normArg && normArg->kind == R::Str ? normArg->s : "backward";
  if (mode == "ortho")
    norm = 1;
  else if (mode == "forward")
    norm = Forward ? 2 : 0;
  else if (mode == "backward")
    norm = Forward ? 0 : 2;
  else {
    n.error() << "FFT norm '" << mode << "': torch takes backward, ortho or forward";
    return failure();
  }
  // A c2c of the padded or truncated signal: sizes apply before, as torch.
  auto y = fftOver(n, x, Kind, dims, lens, Forward, norm);
  if (failed(y))
    return failure();
  if (Kind == Fft::C2R) {
    SmallVector<int64_t> shape(n.type(*y).getShape().drop_back());
    r = R::ofTensor(n.reshape(*y, shape));
  } else {
    r = R::ofComplex(*y);
  }
  return success();
}

/// conj(z): (re, -im) (torch's lazy conjugate view has the same value).
LogicalResult conj(FXNode &n, R &r) {
  auto z = complexArg(n, 0, "input");
  if (failed(z))
    return failure();
  auto [re, im] = parts(n, *z);
  return setComplex(n, r, re, n.b.create<NegOp>(n.loc, im));
}

/// abs(z) = hypot(re, im) and angle(z) = atan2(im, re), as torch's complex
/// abs and angle (C's hypot and atan2, through their real handlers).
template <bool Angle> LogicalResult polarPart(FXNode &n, R &r) {
  auto z = complexArg(n, 0, "input");
  if (failed(z))
    return failure();
  auto [re, im] = parts(n, *z);
  std::vector<R> args = Angle ? std::vector<R>{R::ofTensor(im), R::ofTensor(re)}
                              : std::vector<R>{R::ofTensor(re), R::ofTensor(im)};
  FXNode real(n.imp, n.b, n.loc, n.name, n.target, std::move(args), {}, nullptr);
  return functionHandlers().lookup(Angle ? "atan2" : "hypot")(real, r);
}

/// constant_pad_nd(z, pad, value=0): zero-padding (or cropping) of the
/// complex dims, pairs from the last dim as torch lists them.
LogicalResult constantPad(FXNode &n, R &r) {
  auto z = complexArg(n, 0, "input");
  auto pad = n.intList(1, "pad", false);
  auto value = n.floatArg(2, "value", 0);
  if (failed(z) || failed(pad) || failed(value))
    return failure();
  int64_t rank = rankOf(n, *z);
  if (*value != 0 || pad->size() % 2 || int64_t(pad->size()) > 2 * rank) {
    n.unsupported() << "a complex pad other than zeros over at most its " << rank << " dims";
    return failure();
  }
  SmallVector<int64_t> begins(rank + 1, 0), ends(rank + 1, 0);
  SmallVector<int64_t> shape(n.type(*z).getShape());
  for (size_t i = 0; i < pad->size() / 2; ++i) {
    int64_t d = rank - 1 - int64_t(i);
    begins[d] = (*pad)[2 * i];
    ends[d] = (*pad)[2 * i + 1];
    shape[d] += begins[d] + ends[d];
    if (shape[d] < 0) {
      n.error() << "a pad that leaves dim " << d << " with " << shape[d] << " elements";
      return failure();
    }
  }
  SmallVector<int64_t> pads(begins);
  pads.append(ends.begin(), ends.end());
  r = R::ofComplex(n.b.create<PadOp>(n.loc, n.type(*z).clone(shape), *z,
                                     n.b.getDenseI64ArrayAttr(pads),
                                     n.b.getStringAttr("constant"), n.b.getF64FloatAttr(0)));
  return success();
}

/// _neg_view(z) (torch's lazy negation): -z.
LogicalResult negate(FXNode &n, R &r) {
  auto z = complexArg(n, 0, "input");
  if (failed(z))
    return failure();
  r = R::ofComplex(n.b.create<NegOp>(n.loc, *z));
  return success();
}

/// The real handlers of to / _to_copy, which a conversion of a real tensor
/// to a complex dtype does not reach (addComplexHandlers).
Handler realTo = nullptr, realToCopy = nullptr;

/// x.to(complex dtype), aten._to_copy(x, dtype=complex): the real tensor as
/// real parts, zero imaginary parts; any other conversion is the real one.
template <Handler *Real> LogicalResult toComplex(FXNode &n, R &r) {
  const R *dt = n.arg(1, "dtype");
  if (!dt || dt->kind != R::DType)
    dt = nullptr;
  for (const auto &kv : n.kwargs)
    if (kv.first == "dtype" && kv.second.kind == R::DType)
      dt = &kv.second;
  std::optional<StringRef> c = dt ? complexComponent(dt->s) : std::nullopt;
  if (!c)
    return (*Real)(n, r);
  auto x = n.tensor(0, "input");
  if (failed(x))
    return failure();
  Value re = n.cast(*x, fxElementType(*c, n.b.getContext()));
  return setComplex(n, r, re, n.scalar(n.type(re).getElementType(), 0));
}

/// torch.stft(input, n_fft, hop_length=None, win_length=None, window=None,
/// center=True, pad_mode='reflect', normalized=False, onesided=None,
/// return_complex=None) of a real 1-d or 2-d signal, as torch computes it:
/// the signal padded by n_fft / 2 each side when centered, frames of n_fft
/// every hop_length gathered, each times the window (zero-padded to n_fft,
/// centered), a DFT per frame (onesided by default), [..., freq, frames];
/// normalized scales by 1 / sqrt(n_fft). (torch.export decomposes stft into
/// these ops itself.)
LogicalResult stft(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  auto nfft = n.intArg(1, "n_fft", 0);
  if (failed(x) || failed(nfft))
    return failure();
  auto t = n.type(*x);
  if (!isa<FloatType>(t.getElementType()) || t.getRank() < 1 || t.getRank() > 2) {
    n.error() << "stft of " << x->getType() << ": torch takes a real 1-d or 2-d signal";
    return failure();
  }
  const R *hopArg = n.arg(2, "hop_length"), *winArg = n.arg(3, "win_length");
  int64_t hop = hopArg && hopArg->kind == R::Int ? hopArg->i : *nfft / 4;
  int64_t win = winArg && winArg->kind == R::Int ? winArg->i : *nfft;
  Value window = n.optTensor(4, "window");
  auto center = n.intArg(5, "center", 1), normalized = n.intArg(7, "normalized", 0);
  if (failed(center) || failed(normalized))
    return failure();
  std::string padMode = "reflect";
  if (const R *m = n.arg(6, "pad_mode"); m && m->kind == R::Str)
    padMode = m->s;
  const R *oneArg = n.arg(8, "onesided"), *complexArg_ = n.arg(9, "return_complex");
  bool onesided = !oneArg || oneArg->kind == R::None || oneArg->i;
  if (!complexArg_ || complexArg_->kind == R::None) {
    n.error() << "stft without return_complex: torch requires it for a real signal";
    return failure();
  }
  bool returnComplex = complexArg_->i;
  if (*nfft < 1 || hop < 1 || win < 1 || win > *nfft) {
    n.error() << "stft with n_fft " << *nfft << ", hop_length " << hop << ", win_length "
              << win << ": needs 0 < win_length <= n_fft and hop_length > 0";
    return failure();
  }
  if (window && (n.type(window).getRank() != 1 || n.type(window).getDimSize(0) != win)) {
    n.error() << "stft window " << window.getType() << " for win_length " << win;
    return failure();
  }
  Value v = t.getRank() == 1 ? n.reshape(*x, {1, t.getDimSize(0)}) : *x;
  int64_t length = n.type(v).getDimSize(1);
  if (*center) {
    std::string mode = padMode == "reflect" ? "reflect" : padMode == "replicate" ? "edge"
                       : padMode == "circular" ? "wrap" : padMode == "constant" ? "constant" : "";
    int64_t p = *nfft / 2;
    if (mode.empty() || (mode == "reflect" && p >= length)) {
      n.error() << "stft pad_mode '" << padMode << "' for a signal of " << length;
      return failure();
    }
    auto vt = n.type(v);
    v = n.b.create<PadOp>(n.loc, vt.clone({vt.getDimSize(0), length + 2 * p}), v,
                          n.b.getDenseI64ArrayAttr({0, p, 0, p}), n.b.getStringAttr(mode),
                          n.b.getF64FloatAttr(0));
    length += 2 * p;
  }
  if (length < *nfft) {
    n.error() << "stft of " << length << " samples with n_fft " << *nfft;
    return failure();
  }
  int64_t frames = 1 + (length - *nfft) / hop;
  std::vector<int64_t> idx(frames * *nfft);
  for (int64_t f = 0; f < frames; ++f)
    for (int64_t j = 0; j < *nfft; ++j)
      idx[f * *nfft + j] = f * hop + j;
  auto it = RankedTensorType::get({frames, *nfft}, n.b.getI64Type());
  Value ids = n.b.create<ConstantOp>(n.loc, DenseElementsAttr::get(it, ArrayRef<int64_t>(idx)));
  Type elt = n.type(v).getElementType();
  int64_t batch = n.type(v).getDimSize(0);
  v = n.b.create<GatherOp>(n.loc, RankedTensorType::get({batch, frames, *nfft}, elt), v, ids,
                           n.b.getI64IntegerAttr(1));
  if (window) {
    Value w = n.cast(window, elt);
    if (win < *nfft) { // centered in n_fft
      int64_t left = (*nfft - win) / 2;
      w = n.b.create<PadOp>(n.loc, RankedTensorType::get({*nfft}, elt), w,
                            n.b.getDenseI64ArrayAttr({left, *nfft - win - left}),
                            n.b.getStringAttr("constant"), n.b.getF64FloatAttr(0));
    }
    v = n.b.create<MulOp>(n.loc, v, w);
  } else if (win < *nfft) { // a rectangular window of win_length, centered
    int64_t left = (*nfft - win) / 2;
    std::vector<float> ones(*nfft, 0.0f);
    for (int64_t j = left; j < left + win; ++j)
      ones[j] = 1;
    auto wt = RankedTensorType::get({*nfft}, n.b.getF32Type());
    v = n.b.create<MulOp>(n.loc, v,
                          n.cast(n.b.create<ConstantOp>(
                                     n.loc, DenseElementsAttr::get(wt, ArrayRef<float>(ones))),
                                 elt));
  }
  v = n.reshape(v, {batch, frames, *nfft, 1});
  BuildError err;
  FailureOr<Value> y = buildDFT(n.b, n.loc, v, 2, *nfft, false, onesided, err);
  if (failed(y)) {
    (err.unsupported ? n.unsupported() : n.error()) << err.message;
    return failure();
  }
  Value z = n.transpose(*y, {0, 2, 1, 3}); // [batch, freq, frames, 2]
  if (*normalized)
    z = n.b.create<MulOp>(n.loc, z, n.scalar(elt, 1 / std::sqrt(double(*nfft))));
  if (t.getRank() == 1) {
    SmallVector<int64_t> shape(n.type(z).getShape().drop_front());
    z = n.reshape(z, shape);
  }
  r = returnComplex ? R::ofComplex(z) : R::ofTensor(z);
  return success();
}

/// Nodes that only check what torch recorded (the exported program's
/// _assert_tensor_metadata of a complex value): no value.
LogicalResult noValue(FXNode &, R &r) {
  r = R();
  return success();
}
} // namespace

void dfa::fximport::addComplexHandlers(llvm::StringMap<Handler> &t) {
  for (const char *k : {"view_as_complex", "aten.view_as_complex.default"})
    t[k] = viewAsComplex;
  for (const char *k : {"polar", "aten.polar.default"})
    t[k] = makeComplex<true>;
  for (const char *k : {"complex", "aten.complex.default"})
    t[k] = makeComplex<false>;
  // Conversions of a real tensor to a complex dtype.
  realTo = t.lookup("to");
  realToCopy = t.lookup("aten._to_copy.default");
  assert(realTo && realToCopy && "the real conversions are registered first");
  t["to"] = toComplex<&realTo>;
  t["aten._to_copy.default"] = toComplex<&realToCopy>;
  // torch's lazy negation of a real tensor (the imaginary part of a
  // conjugate) is a negation.
  if (Handler neg = t.lookup("aten.neg.default"))
    t["aten._neg_view.default"] = neg;
  // Transforms of a real signal.
  t["functional.stft"] = stft;
  t["stft"] = stft;
  t["aten._fft_r2c.default"] = atenFftR2C;
  t["_C._fft.fft_rfft"] = fftFn<Fft::R2C, true, 1>;
  t["_C._fft.fft_rfft2"] = fftFn<Fft::R2C, true, 2>;
  t["_C._fft.fft_rfftn"] = fftFn<Fft::R2C, true, 3>;
  t["_C._fft.fft_fft"] = fftFn<Fft::C2C, true, 1>;
  t["_C._fft.fft_fft2"] = fftFn<Fft::C2C, true, 2>;
  t["_C._fft.fft_fftn"] = fftFn<Fft::C2C, true, 3>;
  t["_C._fft.fft_ifft"] = fftFn<Fft::C2C, false, 1>;
  t["_C._fft.fft_ifft2"] = fftFn<Fft::C2C, false, 2>;
  t["_C._fft.fft_ifftn"] = fftFn<Fft::C2C, false, 3>;
  t["_C._fft.fft_irfft"] = fftFn<Fft::C2R, false, 1>;
  t["_C._fft.fft_irfft2"] = fftFn<Fft::C2R, false, 2>;
  t["_C._fft.fft_irfftn"] = fftFn<Fft::C2R, false, 3>;
}

const llvm::StringMap<Handler> &dfa::fximport::complexHandlers() {
  static const llvm::StringMap<Handler> table = [] {
    llvm::StringMap<Handler> t;
    for (const char *k : {"view_as_real", "aten.view_as_real.default"})
      t[k] = viewAsReal;
    for (const char *k : {"real", "aten.real.default"})
      t[k] = component<false>;
    for (const char *k : {"imag", "aten.imag.default"})
      t[k] = component<true>;
    for (const char *k : {"mul", "imul", "__mul__", "__rmul__", "aten.mul.Tensor",
                          "aten.mul.Scalar"})
      t[k] = arithmetic<'*'>;
    for (const char *k : {"add", "iadd", "__add__", "__radd__", "aten.add.Tensor",
                          "aten.add.Scalar"})
      t[k] = arithmetic<'+'>;
    for (const char *k : {"sub", "isub", "__sub__", "aten.sub.Tensor", "aten.sub.Scalar"})
      t[k] = arithmetic<'-'>;
    for (const char *k : {"unsqueeze", "aten.unsqueeze.default"})
      t[k] = unsqueeze;
    for (const char *k : {"squeeze", "aten.squeeze.dim", "aten.squeeze.dims",
                          "aten.squeeze.default"})
      t[k] = squeeze;
    for (const char *k : {"view", "reshape", "aten.view.default", "aten.reshape.default",
                          "aten._unsafe_view.default"})
      t[k] = resized<false>;
    for (const char *k : {"expand", "aten.expand.default"})
      t[k] = resized<true>;
    for (const char *k : {"aten.slice.Tensor"})
      t[k] = slice<false>;
    for (const char *k : {"select", "aten.select.int"})
      t[k] = slice<true>;
    for (const char *k : {"transpose", "aten.transpose.int"})
      t[k] = transpose<false>;
    for (const char *k : {"permute", "aten.permute.default"})
      t[k] = transpose<true>;
    for (const char *k : {"abs", "aten.abs.default"})
      t[k] = polarPart<false>;
    for (const char *k : {"angle", "aten.angle.default"})
      t[k] = polarPart<true>;
    t["aten.constant_pad_nd.default"] = constantPad;
    for (const char *k : {"neg", "aten.neg.default", "aten._neg_view.default", "__neg__"})
      t[k] = negate;
    for (const char *k : {"conj", "_conj", "conj_physical", "aten.conj.default",
                          "aten._conj.default", "aten.conj_physical.default",
                          "aten._conj_physical.default"})
      t[k] = conj;
    for (const char *k : {"clone", "contiguous", "aten.clone.default", "aten.alias.default",
                          "aten._to_copy.default", "to", "resolve_conj", "resolve_neg",
                          "aten.resolve_conj.default", "aten.resolve_neg.default"})
      t[k] = identity;
    for (const char *k : {"cat", "aten.cat.default"})
      t[k] = cat;
    t["aten._assert_tensor_metadata.default"] = noValue;
    t["aten._fft_c2c.default"] = atenFftC2C;
    t["aten._fft_c2r.default"] = atenFftC2R;
    for (const char *k : {"_C._fft.fft_fft", "_C._fft.fft_fft2", "_C._fft.fft_fftn",
                          "_C._fft.fft_ifft", "_C._fft.fft_ifft2", "_C._fft.fft_ifftn",
                          "_C._fft.fft_irfft", "_C._fft.fft_irfft2", "_C._fft.fft_irfftn"})
      t[k] = functionHandlers().lookup(k);
    t["getattr"] = getattr;
    t["getitem"] = getitem;
    t["size"] = size;
    t["dim"] = dimFn;
    t["numel"] = numel;
    t["flatten"] = flatten;
    return t;
  }();
  return table;
}
