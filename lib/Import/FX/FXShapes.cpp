//===- FXShapes.cpp - FX view, indexing and constant-making targets ---------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "FXImporter.h"

#include "dfa/Reference/Evaluator.h"

#include <cmath>

using namespace mlir;
using namespace dfa;
using namespace dfa::graph;
using namespace dfa::fximport;

namespace {
using R = PyValue;

/// Resolves one -1 in a view shape.
FailureOr<SmallVector<int64_t>> viewShape(FXNode &n, Value x,
                                          ArrayRef<int64_t> want) {
  int64_t total = n.type(x).getNumElements(), known = 1, infer = -1;
  SmallVector<int64_t> shape(want);
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == -1 && infer < 0)
      infer = i;
    else if (shape[i] < 0) {
      n.error() << "invalid view size " << shape[i];
      return failure();
    } else
      known *= shape[i];
  }
  if (infer >= 0) {
    if (known == 0 || total % known) {
      n.error() << "cannot view " << x.getType() << " with a -1 over " << known;
      return failure();
    }
    shape[infer] = total / known;
  } else if (known != total) {
    n.error() << "cannot view " << x.getType() << " as " << known << " elements";
    return failure();
  }
  return shape;
}

LogicalResult view(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  auto want = n.intList(1, "shape", /*varargs=*/true);
  if (failed(x) || failed(want))
    return failure();
  auto shape = viewShape(n, *x, *want);
  if (failed(shape))
    return failure();
  r = R::ofTensor(n.reshape(*x, *shape));
  return success();
}

} // namespace

FailureOr<SmallVector<Value>> dfa::fximport::tensorList(FXNode &n, size_t i, StringRef kw,
                                                       bool varargs) {
  const R *l = n.arg(i, kw);
  std::vector<R> items;
  if (l && l->kind == R::List)
    items = l->list;
  else if (varargs && l) // f(a, b, c): the arguments from i on
    items.assign(n.args.begin() + std::min(i, n.args.size()), n.args.end());
  SmallVector<Value> out;
  if (items.empty()) {
    n.error() << "expected a non-empty list of tensors";
    return failure();
  }
  for (const R &e : items) {
    if (e.kind != R::Tensor) {
      n.error() << "expected a list of tensors, found " << e.describe();
      return failure();
    }
    out.push_back(e.tensor);
  }
  return out;
}

FailureOr<Value> dfa::fximport::flattenDims(FXNode &n, Value x, int64_t start,
                                            int64_t end) {
  auto t = n.type(x);
  if (t.getRank() == 0)
    return n.reshape(x, {1});
  auto s = n.dim(start, t.getRank()), e = n.dim(end, t.getRank());
  if (failed(s) || failed(e))
    return failure();
  SmallVector<int64_t> shape;
  int64_t merged = 1;
  for (int64_t d = 0; d < t.getRank(); ++d) {
    if (d < *s || d > *e)
      shape.push_back(t.getDimSize(d));
    else {
      merged *= t.getDimSize(d);
      if (d == *e)
        shape.push_back(merged);
    }
  }
  return n.reshape(x, shape);
}

namespace {
LogicalResult flatten(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  auto s = n.intArg(1, "start_dim", 0), e = n.intArg(2, "end_dim", -1);
  if (failed(x) || failed(s) || failed(e))
    return failure();
  return setTensor(r, flattenDims(n, *x, *s, *e));
}

LogicalResult permute(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  auto dims = n.intList(1, "dims", /*varargs=*/true);
  if (failed(x) || failed(dims))
    return failure();
  int64_t rank = n.type(*x).getRank();
  SmallVector<int64_t> perm;
  SmallVector<bool> seen(rank, false);
  for (int64_t d : *dims) {
    auto dd = n.dim(d, rank);
    if (failed(dd) || seen[*dd]) {
      n.error() << "dims are not a permutation";
      return failure();
    }
    seen[*dd] = true;
    perm.push_back(*dd);
  }
  if ((int64_t)perm.size() != rank) {
    n.error() << "permutation of " << perm.size() << " dims for rank " << rank;
    return failure();
  }
  r = R::ofTensor(n.transpose(*x, perm));
  return success();
}

LogicalResult transposeFn(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  auto a = n.intArg(1, "dim0", 0), b = n.intArg(2, "dim1", 1);
  if (failed(x) || failed(a) || failed(b))
    return failure();
  int64_t rank = n.type(*x).getRank();
  auto da = n.dim(*a, rank), db = n.dim(*b, rank);
  if (failed(da) || failed(db))
    return failure();
  if (rank == 0) { // torch takes dims 0 and -1 of a scalar: itself
    r = R::ofTensor(*x);
    return success();
  }
  SmallVector<int64_t> perm;
  for (int64_t i = 0; i < rank; ++i)
    perm.push_back(i);
  std::swap(perm[*da], perm[*db]);
  r = R::ofTensor(n.transpose(*x, perm));
  return success();
}

/// movedim/moveaxis(x, source, destination): ints or lists of them.
LogicalResult movedim(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  auto src = n.intList(1, "source", false), dst = n.intList(2, "destination", false);
  if (failed(x) || failed(src) || failed(dst))
    return failure();
  int64_t rank = n.type(*x).getRank();
  if (src->size() != dst->size()) {
    n.error() << "source and destination differ in length";
    return failure();
  }
  SmallVector<int64_t> perm(rank, -1);
  SmallVector<bool> used(rank, false);
  for (size_t i = 0; i < src->size(); ++i) {
    auto s = n.dim((*src)[i], rank), d = n.dim((*dst)[i], rank);
    if (failed(s) || failed(d))
      return failure();
    if (perm[*d] >= 0 || used[*s]) {
      n.error() << "repeated dim in movedim";
      return failure();
    }
    perm[*d] = *s;
    used[*s] = true;
  }
  int64_t next = 0;
  for (int64_t &p : perm) {
    if (p >= 0)
      continue;
    while (used[next])
      ++next;
    p = next;
    used[next] = true;
  }
  r = R::ofTensor(n.transpose(*x, perm));
  return success();
}

/// unbind(x, dim): one tensor per index, the dim dropped.
LogicalResult unbind(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  auto d = n.intArg(1, "dim", 0);
  if (failed(x) || failed(d))
    return failure();
  auto t = n.type(*x);
  auto dd = n.dim(*d, t.getRank());
  if (failed(dd))
    return failure();
  SmallVector<int64_t> ones(t.getDimSize(*dd), 1), shape(t.getShape());
  shape.erase(shape.begin() + *dd);
  auto op = n.b.create<SplitOp>(n.loc, *x, n.b.getI64IntegerAttr(*dd),
                                n.b.getDenseI64ArrayAttr(ones));
  std::vector<R> parts;
  for (Value v : op.getResults())
    parts.push_back(R::ofTensor(n.reshape(v, shape)));
  r = R::ofList(parts);
  return success();
}

LogicalResult tFn(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  if (failed(x))
    return failure();
  r = R::ofTensor(n.type(*x).getRank() == 2 ? n.transpose(*x, {1, 0}) : *x);
  return success();
}

LogicalResult identity(FXNode &n, R &r) {
  const R *x = n.arg(0, "input");
  if (!x) {
    n.error() << "no input";
    return failure();
  }
  r = *x;
  return success();
}

LogicalResult unsqueeze(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  auto d = n.intArg(1, "dim", 0);
  if (failed(x) || failed(d))
    return failure();
  auto t = n.type(*x);
  auto dd = n.dim(*d, t.getRank() + 1);
  if (failed(dd))
    return failure();
  SmallVector<int64_t> shape(t.getShape());
  shape.insert(shape.begin() + *dd, 1);
  r = R::ofTensor(n.reshape(*x, shape));
  return success();
}

LogicalResult squeeze(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  if (failed(x))
    return failure();
  auto t = n.type(*x);
  const R *d = n.arg(1, "dim");
  SmallVector<int64_t> shape;
  std::optional<int64_t> only;
  if (d && d->kind == R::Int) {
    auto dd = n.dim(d->i, t.getRank());
    if (failed(dd))
      return failure();
    only = *dd;
  }
  for (int64_t i = 0; i < t.getRank(); ++i)
    if (t.getDimSize(i) != 1 || (only && *only != i))
      shape.push_back(t.getDimSize(i));
  r = R::ofTensor(n.reshape(*x, shape));
  return success();
}

LogicalResult expand(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  auto sizes = n.intList(1, "size", /*varargs=*/true);
  if (failed(x) || failed(sizes))
    return failure();
  auto t = n.type(*x);
  int64_t lead = (int64_t)sizes->size() - t.getRank();
  if (lead < 0) {
    n.error() << "expand to fewer dims than the input has";
    return failure();
  }
  SmallVector<int64_t> shape;
  for (size_t i = 0; i < sizes->size(); ++i) {
    int64_t s = (*sizes)[i];
    int64_t in = (int64_t)i >= lead ? t.getDimSize(i - lead) : 1;
    if (s == -1)
      s = in;
    if (in != 1 && in != s) {
      n.error() << "cannot expand dim " << i << " of size " << in << " to " << s;
      return failure();
    }
    shape.push_back(s);
  }
  if (ArrayRef<int64_t>(shape) == t.getShape()) {
    r = R::ofTensor(*x);
    return success();
  }
  r = R::ofTensor(n.b.create<ExpandOp>(n.loc, RankedTensorType::get(shape, t.getElementType()), *x));
  return success();
}

/// x.expand_as(other): x expanded to other's shape.
LogicalResult expandAs(FXNode &n, R &r) {
  auto x = n.tensor(0, "input"), other = n.tensor(1, "other");
  if (failed(x) || failed(other))
    return failure();
  std::vector<R> sizes;
  for (int64_t s : n.type(*other).getShape())
    sizes.push_back(R::ofInt(s));
  n.args = {R::ofTensor(*x), R::ofList(sizes)};
  n.kwargs.clear();
  return expand(n, r);
}

/// torch.cat(tensors, dim). As in torch, a 1-d tensor of size 0 is left
/// out whatever the others' rank (Hugging Face's KV caches start as
/// torch.tensor([]) and are concatenated along dim -2), though it still takes
/// part in the type promotion.
LogicalResult cat(FXNode &n, R &r) {
  auto xs = tensorList(n, 0, "tensors");
  auto d = n.intArg(1, "dim", 0);
  if (failed(xs) || failed(d))
    return failure();
  // torch.cat promotes its operands to one type.
  Type elt = n.type((*xs)[0]).getElementType();
  for (Value v : *xs)
    elt = promotedType(elt, n.type(v).getElementType());
  auto legacyEmpty = [&](Value v) {
    auto t = n.type(v);
    return t.getRank() == 1 && t.getDimSize(0) == 0;
  };
  if (llvm::all_of(*xs, legacyEmpty)) { // torch gives [0] whatever the dim
    r = R::ofTensor(n.cast((*xs)[0], elt));
    return success();
  }
  llvm::erase_if(*xs, legacyEmpty);
  auto first = n.type((*xs)[0]);
  auto dd = n.dim(*d, first.getRank());
  if (failed(dd))
    return failure();
  for (Value &v : *xs)
    v = n.cast(v, elt);
  for (Value v : *xs) {
    auto t = n.type(v);
    bool ok = t.getRank() == first.getRank();
    for (int64_t i = 0; ok && i < t.getRank(); ++i)
      ok = i == *dd || t.getDimSize(i) == first.getDimSize(i);
    if (!ok) {
      n.error() << "cannot concatenate " << v.getType() << " with " << first;
      return failure();
    }
  }
  r = R::ofTensor(xs->size() == 1 ? (*xs)[0]
                                  : n.b.create<ConcatOp>(n.loc, *xs, n.b.getI64IntegerAttr(*dd)));
  return success();
}

LogicalResult stack(FXNode &n, R &r) {
  auto xs = tensorList(n, 0, "tensors");
  auto d = n.intArg(1, "dim", 0);
  if (failed(xs) || failed(d))
    return failure();
  auto first = n.type((*xs)[0]);
  auto dd = n.dim(*d, first.getRank() + 1);
  if (failed(dd))
    return failure();
  SmallVector<Value> parts;
  for (Value v : *xs) {
    if (n.type(v) != first) {
      n.error() << "stacked tensors differ: " << v.getType() << " and " << first;
      return failure();
    }
    SmallVector<int64_t> shape(first.getShape());
    shape.insert(shape.begin() + *dd, 1);
    parts.push_back(n.reshape(v, shape));
  }
  r = R::ofTensor(n.b.create<ConcatOp>(n.loc, parts, n.b.getI64IntegerAttr(*dd)));
  return success();
}

LogicalResult splitInto(FXNode &n, R &r, Value x, int64_t dim,
                        ArrayRef<int64_t> sizes) {
  auto op = n.b.create<SplitOp>(n.loc, x, n.b.getI64IntegerAttr(dim),
                                n.b.getDenseI64ArrayAttr(sizes));
  std::vector<R> parts;
  for (Value v : op.getResults())
    parts.push_back(R::ofTensor(v));
  r = R::ofList(parts);
  return success();
}

LogicalResult split(FXNode &n, R &r) {
  auto x = n.tensor(0, "tensor");
  if (failed(x))
    x = n.tensor(0, "input");
  const R *s = n.arg(1, "split_size_or_sections");
  if (!s)
    s = n.arg(1, "split_size");
  auto d = n.intArg(2, "dim", 0);
  if (failed(x) || failed(d) || !s)
    return failure();
  auto t = n.type(*x);
  auto dd = n.dim(*d, t.getRank());
  if (failed(dd))
    return failure();
  int64_t len = t.getDimSize(*dd);
  SmallVector<int64_t> sizes;
  if (s->kind == R::Int) {
    if (s->i < 1) {
      n.error() << "split size must be positive";
      return failure();
    }
    for (int64_t at = 0; at < len; at += s->i)
      sizes.push_back(std::min(s->i, len - at));
  } else if (s->kind == R::List) {
    for (const R &e : s->list)
      sizes.push_back(e.i);
  }
  int64_t total = 0;
  for (int64_t v : sizes)
    total += v;
  if (total != len) {
    n.error() << "split sizes do not add up to " << len;
    return failure();
  }
  return splitInto(n, r, *x, *dd, sizes);
}

LogicalResult chunk(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  auto c = n.intArg(1, "chunks", 1), d = n.intArg(2, "dim", 0);
  if (failed(x) || failed(c) || failed(d) || *c < 1)
    return failure();
  auto t = n.type(*x);
  auto dd = n.dim(*d, t.getRank());
  if (failed(dd))
    return failure();
  int64_t len = t.getDimSize(*dd), each = (len + *c - 1) / *c;
  SmallVector<int64_t> sizes;
  for (int64_t at = 0; at < len; at += each)
    sizes.push_back(std::min(each, len - at));
  return splitInto(n, r, *x, *dd, sizes);
}

/// tensor_split(x, indices_or_sections, dim=0): n sections (the first len
/// % n one longer) or the parts between indices (clamped to the dim).
LogicalResult tensorSplit(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  const R *s = n.arg(1, "indices_or_sections");
  if (!s)
    s = n.arg(1, "sections");
  if (!s)
    s = n.arg(1, "indices");
  auto d = n.intArg(2, "dim", 0);
  if (failed(x) || failed(d) || !s)
    return failure();
  auto t = n.type(*x);
  auto dd = n.dim(*d, t.getRank());
  if (failed(dd))
    return failure();
  int64_t len = t.getDimSize(*dd);
  SmallVector<int64_t> sizes;
  if (s->kind == R::Int) {
    if (s->i < 1) {
      n.error() << "tensor_split needs a positive number of sections";
      return failure();
    }
    for (int64_t i = 0; i < s->i; ++i)
      sizes.push_back(len / s->i + (i < len % s->i));
  } else if (s->kind == R::List) {
    int64_t at = 0;
    for (const R &e : s->list) {
      if (e.kind != R::Int) {
        n.error() << "tensor_split indices must be ints, got " << e.describe();
        return failure();
      }
      int64_t i = std::clamp<int64_t>(e.i < 0 ? e.i + len : e.i, 0, len);
      sizes.push_back(std::max<int64_t>(i - at, 0));
      at = std::max(at, i);
    }
    sizes.push_back(len - at);
  } else {
    n.unsupported() << "tensor_split by " << s->describe()
                    << " (the split points must be known at compile time)";
    return failure();
  }
  if (llvm::is_contained(sizes, 0)) {
    n.unsupported() << "tensor_split into an empty part (dfa's tensors are not empty)";
    return failure();
  }
  return splitInto(n, r, *x, *dd, sizes);
}

/// Python slice bounds over a dim of `len` with step > 0.
std::pair<int64_t, int64_t> sliceBounds(const R &s, int64_t len) {
  auto get = [&](const R &v, int64_t dflt) {
    if (v.kind != R::Int)
      return dflt;
    int64_t i = v.i < 0 ? v.i + len : v.i;
    return std::clamp<int64_t>(i, 0, len);
  };
  int64_t start = get(s.list[0], 0), stop = get(s.list[1], len);
  return {start, std::max(start, stop)};
}

FailureOr<Value> basicIndex(FXNode &n, Value x, const std::vector<R> &items);
FailureOr<Value> tensorIndex(FXNode &n, Value x, const std::vector<R> &items);

LogicalResult getitem(FXNode &n, R &r) {
  const R *obj = n.arg(0), *idx = n.arg(1);
  if (!obj || !idx)
    return failure();
  if (obj->kind == R::List) {
    int64_t size = obj->list.size();
    if (idx->kind == R::Int) {
      int64_t i = idx->i < 0 ? idx->i + size : idx->i;
      if (i < 0 || i >= size) {
        n.error() << "index " << idx->i << " out of range for " << size << " items";
        return failure();
      }
      r = obj->list[i];
      return success();
    }
    if (idx->kind == R::Slice) {
      int64_t step = idx->list[2].kind == R::Int ? idx->list[2].i : 1;
      if (step == 0) {
        n.error() << "slice step cannot be zero";
        return failure();
      }
      std::vector<R> items;
      if (step > 0) {
        auto [start, stop] = sliceBounds(*idx, size);
        for (int64_t i = start; i < stop; i += step)
          items.push_back(obj->list[i]);
      } else { // Python's bounds for a negative step: from the end down
        auto get = [&](const R &v, int64_t dflt) {
          if (v.kind != R::Int)
            return dflt;
          return std::clamp<int64_t>(v.i < 0 ? v.i + size : v.i, -1, size - 1);
        };
        int64_t start = get(idx->list[0], size - 1), stop = get(idx->list[1], -1);
        for (int64_t i = start; i > stop; i += step)
          items.push_back(obj->list[i]);
      }
      r = R::ofList(items);
      return success();
    }
  }
  if (obj->kind != R::Tensor) {
    n.unsupported() << "indexing " << obj->describe();
    return failure();
  }
  std::vector<R> items = idx->kind == R::List ? idx->list : std::vector<R>{*idx};
  // A list of ints in an index is an index tensor, as torch reads
  // x[:, [2, 0, 1]] (dfa-export-fx writes x[[0, 2]] as x[([0, 2],)], which
  // torch reads the same).
  for (R &i : items) {
    if (i.kind != R::List)
      continue;
    if (!i.list.empty() && llvm::all_of(i.list, [](const R &e) { return e.kind == R::Bool; })) {
      n.unsupported() << "a list of bools (a mask) as an index: its count of true values "
                         "is the result's size";
      return failure();
    }
    if (!llvm::all_of(i.list, [](const R &e) { return e.kind == R::Int; })) {
      n.unsupported() << "index " << i.describe();
      return failure();
    }
    ref::Tensor pos(ref::DType::I64, {int64_t(i.list.size())});
    for (auto [k, e] : llvm::enumerate(i.list))
      pos.setDouble(int64_t(k), double(e.i));
    i = R::ofTensor(n.b.create<ConstantOp>(n.loc, ref::tensorToAttr(pos, n.b.getContext())));
  }
  if (llvm::any_of(items, [](const R &i) { return i.kind == R::Tensor; }))
    return setTensor(r, tensorIndex(n, obj->tensor, items));
  return setTensor(r, basicIndex(n, obj->tensor, items));
}

/// x[items] with ints, slices, None and one ellipsis.
FailureOr<Value> basicIndex(FXNode &n, Value x, const std::vector<R> &items) {
  auto t = n.type(x);
  int64_t consumed = 0, ellipses = 0;
  for (const R &i : items) {
    ellipses += i.kind == R::Ellipsis;
    consumed += i.kind == R::Int || i.kind == R::Slice || i.kind == R::Tensor;
  }
  if (consumed > t.getRank()) {
    n.error() << "too many indices for " << x.getType();
    return failure();
  }
  if (ellipses > 1) {
    n.error() << "an index can only have a single ellipsis";
    return failure();
  }
  SmallVector<int64_t> starts(t.getRank(), 0), steps(t.getRank(), 1),
      sizes(t.getShape()), outShape;
  int64_t d = 0;
  for (const R &i : items) {
    if (i.kind == R::Ellipsis) {
      for (int64_t e = 0; e < t.getRank() - consumed; ++e, ++d)
        outShape.push_back(t.getDimSize(d));
      continue;
    }
    if (i.kind == R::None) {
      outShape.push_back(1);
      continue;
    }
    int64_t len = t.getDimSize(d);
    if (i.kind == R::Int) {
      int64_t k = i.i < 0 ? i.i + len : i.i;
      if (k < 0 || k >= len) {
        n.error() << "index " << i.i << " out of range for dim " << d;
        return failure();
      }
      starts[d] = k;
      sizes[d] = 1;
    } else if (i.kind == R::Slice) {
      int64_t step = i.list[2].kind == R::Int ? i.list[2].i : 1;
      if (step < 1) {
        n.unsupported() << "slice step " << step;
        return failure();
      }
      auto [start, stop] = sliceBounds(i, len);
      starts[d] = start < len ? start : 0;
      steps[d] = step;
      sizes[d] = stop > start ? (stop - start - 1) / step + 1 : 0;
      outShape.push_back(sizes[d]);
    } else {
      n.unsupported() << "index " << i.describe();
      return failure();
    }
    ++d;
  }
  for (; d < t.getRank(); ++d)
    outShape.push_back(t.getDimSize(d));
  Value v = x;
  if (ArrayRef<int64_t>(sizes) != t.getShape())
    v = n.b.create<SliceOp>(n.loc, RankedTensorType::get(sizes, t.getElementType()), x,
                            n.b.getDenseI64ArrayAttr(starts), n.b.getDenseI64ArrayAttr(steps));
  return n.reshape(v, outShape);
}

/// x[items] with index tensors among them (advanced indexing): the ints
/// and slices apply first (torch selects an int's dim away, where numpy
/// would broadcast it with the tensors), then the tensors index the dims
/// left together.
FailureOr<Value> tensorIndex(FXNode &n, Value x, const std::vector<R> &items) {
  int64_t rank = n.type(x).getRank(), consumed = 0;
  for (const R &i : items) {
    if (i.kind == R::None) {
      n.unsupported() << "None (a new axis) beside index tensors";
      return failure();
    }
    consumed += i.kind != R::Ellipsis;
  }
  R all;
  all.kind = R::Slice;
  all.list.resize(3);
  std::vector<R> basic;
  SmallVector<Value> perDim;
  for (const R &i : items) {
    if (i.kind == R::Ellipsis) {
      for (int64_t e = 0; e < rank - consumed; ++e) {
        basic.push_back(all);
        perDim.push_back(Value());
      }
    } else if (i.kind == R::Slice) {
      basic.push_back(i);
      perDim.push_back(Value());
    } else if (i.kind == R::Tensor) {
      basic.push_back(all);
      perDim.push_back(i.tensor);
    } else if (i.kind == R::Int) {
      basic.push_back(i); // torch selects first: the dim goes, no index
    } else {
      n.unsupported() << "index " << i.describe();
      return failure();
    }
  }
  auto sliced = basicIndex(n, x, basic);
  if (failed(sliced))
    return failure();
  return advancedIndex(n, *sliced, perDim);
}

template <bool Upper> LogicalResult trilu(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  auto k = n.intArg(1, "diagonal", 0);
  if (failed(x) || failed(k))
    return failure();
  if (n.type(*x).getRank() < 2) {
    n.error() << "needs a matrix";
    return failure();
  }
  r = R::ofTensor(n.b.create<TriluOp>(n.loc, *x, n.b.getBoolAttr(Upper),
                                      n.b.getI64IntegerAttr(*k)));
  return success();
}

//===----------------------------------------------------------------------===//
// Casts and constants
//===----------------------------------------------------------------------===//

LogicalResult castTo(FXNode &n, R &r, Type elt) {
  auto x = n.tensor(0, "input");
  if (failed(x))
    return failure();
  r = R::ofTensor(n.cast(*x, elt));
  return success();
}

LogicalResult to(FXNode &n, R &r) {
  Type elt;
  for (size_t i = 1; i < n.args.size() && !elt; ++i)
    elt = n.dtypeOf(&n.args[i]);
  if (!elt)
    elt = n.dtypeArg();
  if (!elt)
    return identity(n, r); // a device or memory-format move
  return castTo(n, r, elt);
}

LogicalResult typeAs(FXNode &n, R &r) {
  auto other = n.tensor(1, "other");
  return failed(other) ? failure() : castTo(n, r, n.type(*other).getElementType());
}

template <int Kind> LogicalResult castNamed(FXNode &n, R &r) {
  Builder b(n.b.getContext());
  Type elt = Kind == 0   ? Type(b.getF32Type())
             : Kind == 1 ? Type(b.getF16Type())
             : Kind == 2 ? Type(b.getI64Type())
             : Kind == 3 ? Type(b.getI1Type())
             : Kind == 4 ? Type(b.getBF16Type())
             : Kind == 5 ? Type(b.getI32Type())
             : Kind == 6 ? Type(b.getF64Type())
             : Kind == 7 ? Type(b.getI16Type())
                         : Type(b.getI8Type());
  return castTo(n, r, elt);
}

LogicalResult filled(FXNode &n, R &r, ArrayRef<int64_t> shape, Type elt, double v) {
  r = R::ofTensor(n.filled(shape, elt, v));
  return success();
}

template <int Value> LogicalResult onesZeros(FXNode &n, R &r) {
  auto shape = n.intList(0, "size", /*varargs=*/true);
  if (failed(shape))
    return failure();
  Type elt = n.dtypeArg();
  return filled(n, r, *shape, elt ? elt : n.b.getF32Type(), Value);
}

LogicalResult full(FXNode &n, R &r) {
  auto shape = n.intList(0, "size", false);
  auto v = n.floatArg(1, "fill_value", 0);
  const R *fv = n.arg(1, "fill_value");
  if (failed(shape) || failed(v) || !fv) {
    n.error() << "full needs a size and a fill value";
    return failure();
  }
  Type elt = n.dtypeArg();
  if (!elt)
    elt = fv->kind == R::Float ? Type(n.b.getF32Type())
        : fv->kind == R::Bool  ? Type(n.b.getI1Type()) : Type(n.b.getI64Type());
  return filled(n, r, *shape, elt, *v);
}

template <int Value> LogicalResult likeFill(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  if (failed(x))
    return failure();
  Type elt = n.dtypeArg();
  return filled(n, r, n.type(*x).getShape(), elt ? elt : n.type(*x).getElementType(), Value);
}

LogicalResult arange(FXNode &n, R &r) {
  std::vector<double> a;
  bool isFloat = false;
  for (size_t i = 0; i < n.args.size() && i < 3; ++i) {
    if (!n.args[i].isNumber()) {
      n.unsupported() << "arange with " << n.args[i].describe();
      return failure();
    }
    isFloat |= n.args[i].kind == R::Float;
    a.push_back(n.args[i].number());
  }
  if (const R *e = n.arg(99, "end"); e && e->isNumber())
    a.push_back(e->number());
  double start = a.size() > 1 ? a[0] : 0, end = a.size() > 1 ? a[1] : a.empty() ? 0 : a[0];
  double step = a.size() > 2 ? a[2] : 1;
  if (step == 0) {
    n.error() << "step is zero";
    return failure();
  }
  double span = std::ceil((end - start) / step);
  if (!std::isfinite(span) || span > double(1 << 28)) {
    n.unsupported() << "an arange of " << span << " elements";
    return failure();
  }
  int64_t count = std::max<int64_t>(0, (int64_t)span);
  Type elt = n.dtypeArg();
  if (!elt)
    elt = isFloat ? Type(n.b.getF32Type()) : Type(n.b.getI64Type());
  ref::Tensor t(*ref::dtypeOf(elt), {count});
  for (int64_t i = 0; i < count; ++i)
    t.setDouble(i, start + i * step);
  r = R::ofTensor(n.b.create<ConstantOp>(n.loc, ref::tensorToAttr(t, n.b.getContext())));
  return success();
}
} // namespace

void dfa::fximport::addShapeHandlers(llvm::StringMap<Handler> &t) {
  t["view"] = view;
  t["reshape"] = view;
  t["flatten"] = flatten;
  t["permute"] = permute;
  t["transpose"] = transposeFn;
  t["swapaxes"] = transposeFn;
  t["swapdims"] = transposeFn;
  t["movedim"] = movedim;
  t["moveaxis"] = movedim;
  t["unbind"] = unbind;
  t["t"] = tFn;
  t["contiguous"] = identity;
  t["clone"] = identity;
  t["detach"] = identity;
  t["dropout"] = identity;
  t["unsqueeze"] = unsqueeze;
  t["squeeze"] = squeeze;
  t["expand"] = expand;
  t["expand_as"] = expandAs;
  t["cat"] = cat;
  t["concat"] = cat;
  t["stack"] = stack;
  t["split"] = split;
  t["chunk"] = chunk;
  t["tensor_split"] = tensorSplit;
  t["getitem"] = getitem;
  t["tril"] = trilu<false>;
  t["triu"] = trilu<true>;
  t["to"] = to;
  t["type_as"] = typeAs;
  t["float"] = castNamed<0>;
  t["half"] = castNamed<1>;
  t["long"] = castNamed<2>;
  t["bool"] = castNamed<3>;
  t["bfloat16"] = castNamed<4>;
  t["int"] = castNamed<5>;
  t["double"] = castNamed<6>;
  t["short"] = castNamed<7>;
  t["char"] = castNamed<8>;
  t["ones"] = onesZeros<1>;
  t["zeros"] = onesZeros<0>;
  t["full"] = full;
  t["ones_like"] = likeFill<1>;
  t["zeros_like"] = likeFill<0>;
  t["arange"] = arange;
}
