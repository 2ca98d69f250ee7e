//===- TensorParallel.cpp - one chip's program of a tensor-parallel group -===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// graph-shard's `tensor-parallel` N: the module becomes the program each of
// N chips runs (SPMD, as GSPMD and Megatron-LM partition a model). Every
// value is replicated, split along one dim into N equal parts (each chip
// holds one), or partial (each chip holds a summand). A forward walk gives
// each op the state its rule allows, converting operands where the rule
// needs another (graph.all_gather, graph.all_reduce, a local slice):
//  - a matmul with a [K, N] weight and a replicated input splits the
//    weight's columns (column-parallel: the result is split along N); with
//    an input split along K it splits the weight's rows (row-parallel: the
//    result is partial), so two products in a row need one all-reduce;
//  - pointwise ops, views, reductions over other dims, softmax, attention
//    and concatenations keep a split (the heads of a transformer's
//    attention, the columns of its MLP);
//  - anything else, and anything a split does not divide, gets replicated
//    operands.
// Types become the chip's local shapes; a graph input that every reader
// slices becomes that slice (each chip holds its part of a KV cache), and
// a split result is returned as the chip's part.
//
//===----------------------------------------------------------------------===//

#include "Sharding.h"

#include "dfa/Transforms/TargetModel.h"

#include "dialects/Graph/GraphOps.h"

#include "dfa/Target/Target.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/TypeSwitch.h"

#include <map>

using namespace mlir;
using namespace dfa;
using namespace dfa::graph;

std::optional<int64_t> dfa::shard::reshapeSplitDim(ArrayRef<int64_t> in,
                                                   ArrayRef<int64_t> out,
                                                   int64_t d, int64_t n) {
  if (n < 2 || d < 0 || d >= int64_t(in.size()) || in[d] % n != 0)
    return std::nullopt;
  int64_t before = 1;
  for (int64_t i = 0; i < d; ++i)
    before *= in[i];
  int64_t prefix = 1;
  for (int64_t e = 0; e < int64_t(out.size()); ++e) {
    if (prefix == before && out[e] % n == 0)
      return e;
    prefix *= out[e];
    if (prefix > before && before != 0)
      break;
  }
  return std::nullopt;
}

namespace {

/// How one chip holds a value.
struct State {
  enum Kind { Replicated, Split, Partial } kind = Replicated;
  int64_t dim = -1; // Split: the dim divided among the chips
  static State rep() { return {}; }
  static State split(int64_t d) { return {Split, d}; }
  static State partial() { return {Partial, -1}; }
};

RankedTensorType tensorType(Value v) {
  return cast<RankedTensorType>(v.getType());
}

RankedTensorType localType(RankedTensorType t, int64_t dim, int64_t n) {
  SmallVector<int64_t> shape(t.getShape());
  shape[dim] /= n;
  return RankedTensorType::get(shape, t.getElementType());
}

RankedTensorType globalType(RankedTensorType t, int64_t dim, int64_t n) {
  SmallVector<int64_t> shape(t.getShape());
  shape[dim] *= n;
  return RankedTensorType::get(shape, t.getElementType());
}

/// The dim of `u`'s results that a split of its first operand along `d`
/// lands on, for the ops that keep such a split as it is: views (reshape,
/// transpose, an expand that does not grow the dim), softmax and
/// reductions over other dims, and splits and slices that keep the dim
/// whole (or, for a split along it, cut every piece into `n` parts).
/// `shape` is the operand's whole (global) shape; nullopt where `u` needs
/// the operand whole or keeps no split of it.
std::optional<int64_t> keptSplit(Operation *u, ArrayRef<int64_t> shape,
                                 int64_t d, int64_t n) {
  auto resultType = [&]() { return tensorType(u->getResult(0)); };
  using R = std::optional<int64_t>;
  return llvm::TypeSwitch<Operation *, R>(u)
      .Case([&](ReshapeOp rs) {
        return shard::reshapeSplitDim(shape, resultType().getShape(), d, n);
      })
      .Case([&](TransposeOp tr) -> R {
        return llvm::find(tr.getPerm(), d) - tr.getPerm().begin();
      })
      .Case([&](ExpandOp ex) -> R {
        int64_t e = d + resultType().getRank() - int64_t(shape.size());
        if (resultType().getDimSize(e) != shape[d])
          return std::nullopt;
        return e;
      })
      .Case<SoftmaxOp, LogSoftmaxOp>([&](Operation *o) -> R {
        if (cast<IntegerAttr>(o->getAttr("axis")).getInt() == d)
          return std::nullopt;
        return d;
      })
      .Case<ReduceSumOp, ReduceMeanOp, ReduceMaxOp, ReduceMinOp, ReduceProdOp,
            ReduceL1Op, ReduceL2Op, ReduceSumSquareOp, ReduceLogSumOp,
            ReduceLogSumExpOp>([&](Operation *o) -> R {
        auto axes = cast<DenseI64ArrayAttr>(o->getAttr("axes")).asArrayRef();
        if (axes.empty() || llvm::is_contained(axes, d))
          return std::nullopt;
        if (cast<BoolAttr>(o->getAttr("keepdims")).getValue())
          return d;
        return d - llvm::count_if(axes, [&](int64_t a) { return a < d; });
      })
      .Case([&](SplitOp sp) -> R {
        if (d == int64_t(sp.getAxis()) &&
            llvm::any_of(sp.getSizes(), [&](int64_t z) { return z % n != 0; }))
          return std::nullopt;
        return d;
      })
      .Case([&](SliceOp sl) -> R {
        if (sl.getStarts()[d] != 0 || sl.getSteps()[d] != 1 ||
            resultType().getDimSize(d) != shape[d])
          return std::nullopt;
        return d;
      })
      .Default([](Operation *) -> R { return std::nullopt; });
}

struct Partitioner {
  Partitioner(const target::Target &t, int64_t n, bool remarks)
      : t(t), n(n), remarks(remarks) {}
  const target::Target &t;
  int64_t n;
  bool remarks;
  DenseMap<Value, State> states;
  /// Conversions made so far, shared by every later reader.
  DenseMap<Value, Value> replicated;
  std::map<std::pair<void *, int64_t>, Value> sliced;
  /// Local slices of graph inputs (block arguments), to fold into the
  /// argument when every reader takes the same one.
  SmallVector<SliceOp> argSlices;
  /// Weight slices made so far: (weight, dim) -> the slice.
  std::map<std::pair<Operation *, int64_t>, Value> weightSlices;
  /// Ops whose reader now takes a part instead (a whole weight, its
  /// transpose): erased at the end when nothing else reads them.
  SmallVector<Operation *> maybeDead;
  int64_t collectives = 0, partitioned = 0;

  State stateOf(Value v) {
    auto it = states.find(v);
    return it == states.end() ? State::rep() : it->second;
  }

  /// The whole tensor's type: a split value's type is its chip's part.
  RankedTensorType wholeType(Value v) {
    State s = stateOf(v);
    return s.kind == State::Split ? globalType(tensorType(v), s.dim, n)
                                  : tensorType(v);
  }

  /// Whether `v` is split along `dim` or its whole size there divides into
  /// the chips' parts.
  bool divides(Value v, int64_t dim) {
    State s = stateOf(v);
    if (s.kind == State::Split && s.dim == dim)
      return true;
    auto type = wholeType(v);
    return dim >= 0 && dim < type.getRank() && type.getDimSize(dim) % n == 0 &&
           type.getDimSize(dim) >= n;
  }

  /// `v` whole on every chip, converted before `user`.
  Value toReplicated(Value v, Operation *user) {
    State s = stateOf(v);
    if (s.kind == State::Replicated)
      return v;
    if (Value done = replicated.lookup(v))
      return done;
    OpBuilder b(user);
    Value r;
    if (s.kind == State::Partial) {
      r = b.create<AllReduceOp>(user->getLoc(), v.getType(), v,
                                b.getI64IntegerAttr(n));
    } else {
      r = b.create<AllGatherOp>(user->getLoc(),
                                globalType(tensorType(v), s.dim, n), v,
                                b.getI64IntegerAttr(s.dim),
                                b.getI64IntegerAttr(n));
    }
    ++collectives;
    replicated[v] = r;
    return r;
  }

  /// `v` split along `dim` (the local part of a replicated value is a
  /// slice each chip takes of its own copy: no transfer).
  Value toSplit(Value v, int64_t dim, Operation *user) {
    State s = stateOf(v);
    if (s.kind == State::Split && s.dim == dim)
      return v;
    Value whole = toReplicated(v, user);
    auto key = std::make_pair(whole.getAsOpaquePointer(), dim);
    if (Value done = sliced[key])
      return done;
    auto type = tensorType(whole);
    OpBuilder b(user);
    if (auto arg = dyn_cast<BlockArgument>(whole))
      b.setInsertionPointToStart(arg.getOwner());
    else
      b.setInsertionPointAfterValue(whole);
    SmallVector<int64_t> zeros(type.getRank(), 0), ones(type.getRank(), 1);
    auto slice = b.create<SliceOp>(user->getLoc(), localType(type, dim, n),
                                   whole, b.getDenseI64ArrayAttr(zeros),
                                   b.getDenseI64ArrayAttr(ones));
    if (isa<BlockArgument>(whole))
      argSlices.push_back(slice);
    states[slice] = State::split(dim);
    sliced[key] = slice;
    return slice;
  }

  /// Weight `w` (a 2-D weight) with `dim` cut to one chip's part: the
  /// chip's program holds only its part (no data: the program's values
  /// are not simulated).
  Value weightPart(WeightOp w, int64_t dim) {
    Value &part = weightSlices[{w.getOperation(), dim}];
    if (part)
      return part;
    OpBuilder b(w);
    b.setInsertionPointAfter(w);
    std::string name = (w.getSymName() + (dim == 0 ? ".tp-rows" : ".tp-cols")).str();
    part = b.create<WeightOp>(w.getLoc(), localType(w.getType(), dim, n), name,
                              "", 0);
    return part;
  }

  /// The 2-D weight an operand reads, looking through a transpose of its
  /// two dims; `dim` is mapped to the weight's.
  WeightOp weightOf(Value v, int64_t &dim) {
    if (auto tr = v.getDefiningOp<TransposeOp>()) {
      if (tr.getPerm().size() != 2 || tr.getPerm()[0] != 1)
        return nullptr;
      dim = 1 - dim;
      v = tr.getInput();
    }
    auto w = v.getDefiningOp<WeightOp>();
    if (!w || tensorType(w).getRank() != 2 || !tensorType(w).hasStaticShape())
      return nullptr;
    return w;
  }

  /// The operand `v` (a weight, maybe transposed) with its `dim` cut.
  Value weightOperand(Value v, int64_t dim) {
    maybeDead.push_back(v.getDefiningOp());
    int64_t wdim = dim;
    WeightOp w = weightOf(v, wdim);
    Value part = weightPart(w, wdim);
    if (auto tr = v.getDefiningOp<TransposeOp>()) {
      OpBuilder b(tr);
      b.setInsertionPointAfterValue(part);
      auto type = tensorType(part);
      return b.create<TransposeOp>(
          tr.getLoc(),
          RankedTensorType::get({type.getDimSize(1), type.getDimSize(0)},
                                type.getElementType()),
          part, tr.getPermAttr());
    }
    return part;
  }

  void setOperands(Operation *op, ArrayRef<Value> values) {
    for (auto [i, v] : llvm::enumerate(values))
      op->setOperand(unsigned(i), v);
  }

  /// Every operand replicated, the results too.
  void replicate(Operation *op) {
    SmallVector<Value> ops;
    for (Value v : op->getOperands())
      ops.push_back(toReplicated(v, op));
    setOperands(op, ops);
  }

  /// Results split along `dim` (each result's local type).
  void splitResults(Operation *op, int64_t dim) {
    for (Value r : op->getResults()) {
      r.setType(localType(tensorType(r), dim, n));
      states[r] = State::split(dim);
    }
    ++partitioned;
  }

  bool keepsSplit(Value v, int64_t dim);
  void visit(Operation *op);
  bool visitMatmul(MatMulOp m);
  bool visitGemm(GemmOp g);
  bool visitPointwise(Operation *op);
  void visitReturn(func::ReturnOp ret);
  void foldArgSlices(func::FuncOp func);
};

/// Whether `v`, split along `dim`, keeps a split along every path of its
/// readers up to a row-parallel product (its K split) or a graph result:
/// splitting the product that makes it then costs no gather (a transformer's
/// Q, K, V and MLP up products, read by the attention and its output
/// product and by the MLP's down product).
bool Partitioner::keepsSplit(Value v, int64_t dim) {
  SmallVector<std::pair<Value, int64_t>> work{{v, dim}};
  DenseSet<Operation *> seen;
  while (!work.empty()) {
    auto [x, d] = work.pop_back_val();
    auto xt = tensorType(x);
    for (OpOperand &use : x.getUses()) {
      Operation *u = use.getOwner();
      if (isa<func::ReturnOp>(u))
        continue;
      if (!seen.insert(u).second)
        continue;
      auto push = [&](Value r, int64_t e) {
        work.push_back({r, e});
        return true;
      };
      auto rankOf = [](Value r) { return tensorType(r).getRank(); };
      bool ok = llvm::TypeSwitch<Operation *, bool>(u)
          .Case([&](MatMulOp m) {
            int64_t r = rankOf(m.getResult()), xr = xt.getRank();
            int64_t wdim = 0;
            bool lhs = use.getOperandNumber() == 0;
            if (lhs && d == xr - 1)
              return weightOf(m.getRhs(), wdim) != nullptr &&
                     rankOf(m.getRhs()) == 2; // row-parallel: the end
            if (d < xr - 2)
              return push(m.getResult(), d + r - xr);
            if (lhs && d == xr - 2)
              return push(m.getResult(), r - 2);
            if (!lhs && d == xr - 1)
              return push(m.getResult(), r - 1);
            return false;
          })
          .Case([&](GemmOp g) {
            int64_t wdim = 0;
            return use.getOperandNumber() == 0 && d == 1 && !g.getTransA() &&
                   !g.getC() && weightOf(g.getB(), wdim) != nullptr;
          })
          .Case<ReshapeOp, TransposeOp, ExpandOp, SoftmaxOp, LogSoftmaxOp,
                ReduceSumOp, ReduceMeanOp, ReduceMaxOp, ReduceMinOp,
                ReduceProdOp, ReduceL1Op, ReduceL2Op, ReduceSumSquareOp,
                ReduceLogSumOp, ReduceLogSumExpOp, SplitOp, SliceOp>(
              [&](Operation *o) {
                std::optional<int64_t> e = keptSplit(o, xt.getShape(), d, n);
                if (!e)
                  return false;
                for (Value r : o->getResults())
                  push(r, *e);
                return true;
              })
          // Along the split dim a concatenation keeps the split only when
          // every input is split (visit's rule): not known ahead.
          .Case([&](ConcatOp c) {
            return d != int64_t(c.getAxis()) && push(c.getResult(), d);
          })
          .Case([&](AttentionOp a) {
            return use.getOperandNumber() < 3 && d < xt.getRank() - 2 &&
                   push(a.getResult(), d);
          })
          .Default([&](Operation *o) {
            if (classify(o) != OpClass::Pointwise || o->getNumResults() != 1)
              return false;
            return push(o->getResult(0), d + rankOf(o->getResult(0)) - xt.getRank());
          });
      if (!ok)
        return false;
    }
  }
  return true;
}

bool Partitioner::visitMatmul(MatMulOp m) {
  auto lt = tensorType(m.getLhs()), rt = tensorType(m.getRhs());
  auto out = tensorType(m.getResult());
  int64_t r = out.getRank();
  if (lt.getRank() < 2 || rt.getRank() < 2)
    return false;
  int64_t wdim = 0;
  State ls = stateOf(m.getLhs()), rs = stateOf(m.getRhs());
  if (ls.kind != State::Partial && rs.kind == State::Replicated &&
      weightOf(m.getRhs(), wdim) && rt.getRank() == 2) {
    if (ls.kind == State::Split && ls.dim == lt.getRank() - 1) {
      // Row-parallel: this chip's rows of the weight, a partial result.
      if (rt.getDimSize(0) % n != 0)
        return false;
      m->setOperand(1, weightOperand(m.getRhs(), 0));
      states[m.getResult()] = State::partial();
      ++partitioned;
      return true;
    }
    if (ls.kind == State::Split) {
      // Rows of the input apart: each chip multiplies its rows.
      splitResults(m, ls.dim + (r - lt.getRank()));
      return true;
    }
    // Column-parallel: this chip's columns of the weight, when the split
    // reaches a row-parallel product (or a result) without a gather.
    if (!divides(m.getResult(), r - 1) || !keepsSplit(m.getResult(), r - 1))
      return false;
    m->setOperand(1, weightOperand(m.getRhs(), 1));
    splitResults(m, r - 1);
    return true;
  }
  // Two activations: a batch dim (the attention's heads) split on either
  // side, the other side split alike or broadcast along it; or the rows of
  // the left or the columns of the right.
  for (unsigned side : {0u, 1u}) {
    Value split = m->getOperand(side), other = m->getOperand(1 - side);
    State ss = stateOf(split);
    auto st = tensorType(split), ot = wholeType(other);
    if (ss.kind != State::Split || ss.dim >= st.getRank() - 2)
      continue;
    int64_t od = ss.dim + (r - st.getRank());
    int64_t d = od - (r - ot.getRank());
    if (d >= 0 && ot.getDimSize(d) != 1) {
      if (!divides(other, d))
        return false;
      m->setOperand(1 - side, toSplit(other, d, m));
    } else {
      m->setOperand(1 - side, toReplicated(other, m));
    }
    splitResults(m, od);
    return true;
  }
  if (ls.kind == State::Split && ls.dim == lt.getRank() - 2 &&
      rs.kind != State::Split) {
    m->setOperand(1, toReplicated(m.getRhs(), m));
    splitResults(m, r - 2);
    return true;
  }
  if (rs.kind == State::Split && rs.dim == rt.getRank() - 1 &&
      ls.kind != State::Split) {
    m->setOperand(0, toReplicated(m.getLhs(), m));
    splitResults(m, r - 1);
    return true;
  }
  return false;
}

bool Partitioner::visitGemm(GemmOp g) {
  if (g.getTransA())
    return false;
  int64_t wdim = 0;
  if (!weightOf(g.getB(), wdim) || stateOf(g.getB()).kind != State::Replicated)
    return false;
  // The weight's dims: K and N, by trans_b.
  int64_t kDim = g.getTransB() ? 1 : 0, nDim = 1 - kDim;
  State as = stateOf(g.getA());
  auto bt = tensorType(g.getB());
  if (as.kind == State::Split && as.dim == 1 && !g.getC()) {
    if (bt.getDimSize(kDim) % n != 0)
      return false;
    g->setOperand(1, weightOperand(g.getB(), kDim));
    states[g.getResult()] = State::partial();
    ++partitioned;
    return true;
  }
  if (!divides(g.getResult(), 1) || !keepsSplit(g.getResult(), 1))
    return false;
  g->setOperand(0, toReplicated(g.getA(), g));
  g->setOperand(1, weightOperand(g.getB(), nDim));
  if (Value c = g.getC()) {
    auto ct = wholeType(c);
    if (ct.getRank() >= 1 && ct.getDimSize(ct.getRank() - 1) != 1)
      g->setOperand(2, toSplit(c, ct.getRank() - 1, g));
    else
      g->setOperand(2, toReplicated(c, g));
  }
  splitResults(g, 1);
  return true;
}

/// Broadcasting pointwise ops: the split of the first split operand, the
/// others split alike or broadcast along it.
bool Partitioner::visitPointwise(Operation *op) {
  auto out = tensorType(op->getResult(0));
  int64_t r = out.getRank();
  for (Value res : op->getResults())
    if (tensorType(res).getShape() != out.getShape())
      return false;
  std::optional<int64_t> dim;
  for (Value v : op->getOperands()) {
    State s = stateOf(v);
    if (s.kind == State::Split) {
      dim = s.dim + (r - tensorType(v).getRank());
      break;
    }
  }
  if (!dim)
    return false;
  SmallVector<Value> ops;
  for (Value v : op->getOperands()) {
    auto vt = wholeType(v);
    int64_t d = *dim - (r - vt.getRank());
    if (d < 0 || vt.getDimSize(d) == 1) {
      ops.push_back(toReplicated(v, op));
      continue;
    }
    if (!divides(v, d))
      return false;
    ops.push_back(toSplit(v, d, op));
  }
  setOperands(op, ops);
  splitResults(op, *dim);
  return true;
}

void Partitioner::visit(Operation *op) {
  if (isa<WeightOp, ConstantOp>(op))
    return;
  // A view or transpose of a partial value is partial: a sum of views.
  bool anyPartial = llvm::any_of(op->getOperands(), [&](Value v) {
    return stateOf(v).kind == State::Partial;
  });
  // A float cast that does not narrow is one too: an FP8 product's
  // partial sums are cast to f16 in its epilogue and reduced in f16, as
  // TensorRT-LLM's all-reduce runs in the activation type.
  auto widens = [&]() {
    auto cast = dyn_cast<CastOp>(op);
    if (!cast)
      return false;
    Type in = tensorType(cast.getInput()).getElementType();
    Type out = tensorType(cast.getResult()).getElementType();
    return isa<FloatType>(in) && isa<FloatType>(out) &&
           elementBits(out) >= elementBits(in);
  };
  if (anyPartial && (isa<ReshapeOp, TransposeOp>(op) || widens())) {
    states[op->getResult(0)] = State::partial();
    return;
  }
  if (anyPartial) {
    SmallVector<Value> ops;
    for (Value v : op->getOperands())
      ops.push_back(stateOf(v).kind == State::Partial ? toReplicated(v, op) : v);
    setOperands(op, ops);
  }
  auto single = [&]() -> std::optional<int64_t> {
    if (op->getNumOperands() < 1)
      return std::nullopt;
    State s = stateOf(op->getOperand(0));
    if (s.kind != State::Split)
      return std::nullopt;
    return s.dim;
  };
  bool done = llvm::TypeSwitch<Operation *, bool>(op)
      .Case([&](MatMulOp m) { return visitMatmul(m); })
      .Case([&](GemmOp g) { return visitGemm(g); })
      .Case<ReshapeOp, TransposeOp, ExpandOp, SoftmaxOp, LogSoftmaxOp,
            ReduceSumOp, ReduceMeanOp, ReduceMaxOp, ReduceMinOp, ReduceProdOp,
            ReduceL1Op, ReduceL2Op, ReduceSumSquareOp, ReduceLogSumOp,
            ReduceLogSumExpOp, SplitOp, SliceOp>([&](Operation *o) {
        std::optional<int64_t> d = single();
        if (!d)
          return false;
        // The operand is already the chip's part: the rule sees it whole.
        SmallVector<int64_t> whole(
            globalType(tensorType(o->getOperand(0)), *d, n).getShape());
        std::optional<int64_t> e = keptSplit(o, whole, *d, n);
        if (!e)
          return false;
        // A split along the split dim: each chip's part of every piece (a
        // fused QKV product's columns, assigned to the chips as
        // Megatron-LM assigns them).
        if (auto sp = dyn_cast<SplitOp>(o); sp && *d == int64_t(sp.getAxis())) {
          SmallVector<int64_t> sizes;
          for (int64_t z : sp.getSizes())
            sizes.push_back(z / n);
          sp.setSizes(sizes);
        }
        splitResults(o, *e);
        return true;
      })
      .Case([&](ConcatOp c) {
        std::optional<int64_t> dim;
        for (Value v : c.getInputs())
          if (State s = stateOf(v); s.kind == State::Split) {
            dim = s.dim;
            break;
          }
        if (!dim)
          return false;
        // Joined along the split dim: each chip's parts joined.
        if (*dim == int64_t(c.getAxis()) &&
            llvm::any_of(c.getInputs(), [&](Value v) {
              return stateOf(v).kind != State::Split || stateOf(v).dim != *dim;
            }))
          return false;
        SmallVector<Value> ins;
        for (Value v : c.getInputs())
          if (!divides(v, *dim))
            return false;
        for (Value v : c.getInputs())
          ins.push_back(toSplit(v, *dim, c));
        setOperands(c, ins);
        splitResults(c, *dim);
        return true;
      })
      .Case([&](AttentionOp a) {
        State q = stateOf(a.getQuery());
        auto qt = tensorType(a.getQuery());
        int64_t r = qt.getRank();
        if (q.kind != State::Split || q.dim >= r - 2)
          return false;
        for (Value v : {a.getKey(), a.getValue()})
          if (!divides(v, q.dim))
            return false;
        a->setOperand(1, toSplit(a.getKey(), q.dim, a));
        a->setOperand(2, toSplit(a.getValue(), q.dim, a));
        if (Value mask = a.getMask()) {
          auto mt = wholeType(mask);
          int64_t md = q.dim - (r - mt.getRank());
          if (md < 0 || mt.getDimSize(md) == 1)
            a->setOperand(3, toReplicated(mask, a));
          else if (divides(mask, md))
            a->setOperand(3, toSplit(mask, md, a));
          else
            return false;
        }
        splitResults(a, q.dim);
        return true;
      })
      .Default([&](Operation *o) {
        if (classify(o) == OpClass::Pointwise)
          return visitPointwise(o);
        return false;
      });
  if (!done)
    replicate(op);
}

void Partitioner::visitReturn(func::ReturnOp ret) {
  // A partial result is summed; a split one is the chip's part.
  SmallVector<Value> ops;
  for (Value v : ret.getOperands())
    ops.push_back(stateOf(v).kind == State::Partial ? toReplicated(v, ret) : v);
  setOperands(ret, ops);
}

void Partitioner::foldArgSlices(func::FuncOp func) {
  // A graph input whose every reader takes the same slice is held as that
  // slice: each chip keeps its part (its heads of a KV cache).
  for (SliceOp s : argSlices) {
    auto arg = cast<BlockArgument>(s.getInput());
    if (!arg.hasOneUse())
      continue;
    arg.setType(s.getType());
    s.getResult().replaceAllUsesWith(arg);
    s.erase();
  }
  SmallVector<Type> ins, outs;
  for (BlockArgument a : func.getArguments())
    ins.push_back(a.getType());
  for (Value v : func.getBody().front().getTerminator()->getOperands())
    outs.push_back(v.getType());
  func.setType(FunctionType::get(func.getContext(), ins, outs));
}

} // namespace

namespace dfa {
LogicalResult partitionTensorParallel(ModuleOp module, const target::Target &t,
                                      int64_t chips, bool remarks,
                                      int64_t &collectives,
                                      int64_t &partitioned) {
  collectives = partitioned = 0;
  SmallVector<Operation *> maybeDead;
  module.walk([&](func::FuncOp func) {
    // Each function on its own: no state outlives the values it names.
    Partitioner p{t, chips, remarks};
    Block &block = func.getBody().front();
    SmallVector<Operation *> ops;
    for (Operation &op : block)
      ops.push_back(&op);
    for (Operation *op : ops) {
      if (auto ret = dyn_cast<func::ReturnOp>(op))
        p.visitReturn(ret);
      else
        p.visit(op);
    }
    p.foldArgSlices(func);
    maybeDead.append(p.maybeDead.begin(), p.maybeDead.end());
    collectives += p.collectives;
    partitioned += p.partitioned;
  });
  // Weights (and their transposes) no reader takes whole any more.
  for (size_t i = 0; i < maybeDead.size(); ++i) {
    Operation *op = maybeDead[i];
    if (!op || !op->use_empty())
      continue;
    for (Value v : op->getOperands())
      if (Operation *def = v.getDefiningOp())
        maybeDead.push_back(def);
    op->erase();
    for (size_t j = i + 1; j < maybeDead.size(); ++j)
      if (maybeDead[j] == op)
        maybeDead[j] = nullptr;
  }
  // The deployment, recorded: a saved stage or schedule says whose chip's
  // program it is.
  module->setAttr(kTensorParallelAttr,
                  IntegerAttr::get(IntegerType::get(module.getContext(), 64), chips));
  if (remarks)
    emitRemark(module.getLoc())
        << "tensor parallelism over " << chips << " chips: " << partitioned
        << " ops partitioned, " << collectives << " collectives";
  return success();
}
} // namespace dfa
