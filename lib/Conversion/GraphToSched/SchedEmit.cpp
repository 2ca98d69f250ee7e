//===- SchedEmit.cpp - memory, time, DMAs and kernels of a schedule ------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "SchedLowering.h"

#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/SaveAndRestore.h"

#include <cmath>
#include <numeric>

using namespace mlir;
using namespace dfa;
using namespace dfa::lowering;

int Lowering::arenaFor(const target::MemoryLevel &level, int64_t chip) {
  ArenaKey key{level.name, chip};
  auto it = arenaIndex.find(key);
  if (it != arenaIndex.end())
    return it->second;
  int idx = arenas.size();
  arenas.push_back(
      {key, Arena(int64_t(level.capacityBytes.value), alignment())});
  arenaIndex[key] = idx;
  if (opts.record)
    arenas.back().second.record(&(*opts.record)[{level.name, chip}]);
  if (opts.plan)
    if (auto it = opts.plan->find({level.name, chip}); it != opts.plan->end())
      arenas.back().second.replay(&it->second);
  return idx;
}

FailureOr<Home> Lowering::place(Location loc, const target::MemoryLevel &level,
                                Value v, int64_t chip, int64_t ub, int64_t ue,
                                SmallVectorImpl<Value> &deps, StringRef what) {
  auto type = cast<RankedTensorType>(v.getType());
  return placeType(loc, level, type, layoutOf(v), chip, ub, ue, deps, what);
}

FailureOr<Home> Lowering::placeType(Location loc,
                                    const target::MemoryLevel &level,
                                    RankedTensorType type,
                                    const TensorLayout &layout, int64_t chip,
                                    int64_t ub, int64_t ue,
                                    SmallVectorImpl<Value> &deps,
                                    StringRef what) {
  bool perUnit = level.scope == "unit";
  int64_t units = perUnit ? ue - ub : 1;
  int64_t size = perUnit ? ceilDiv(layout.bytes, std::max<int64_t>(1, units))
                         : layout.bytes;
  int idx = arenaFor(level, chip);
  // Chip-wide memories are one "unit"; per-unit ones are addressed alike in
  // every unit of the range.
  int64_t u0 = perUnit ? ub : 0, u1 = perUnit ? ue : 1;
  std::optional<int64_t> off = arena(idx).allocate(size, u0, u1, deps);
  if (!off) {
    InFlightDiagnostic d =
        emitError(loc) << "does not fit: " << level.name << " of " << t.name
                       << (chips > 1 ? " (chip " + std::to_string(chip) + ")" : "")
                       << " holds " << int64_t(level.capacityBytes.value) << " B; "
                       << what << " (" << type << ", stored " << layout.name()
                       << ") needs " << size << " B with "
                       << arena(idx).liveBytes(u0, u1) << " B already live";
    // The largest of what is live there, each where the graph made it.
    SmallVector<const LiveBlock *> live;
    for (auto &[key, block] : liveBlocks)
      if (std::get<0>(key) == idx && std::get<2>(key) < u1 && u0 < block.unitEnd)
        live.push_back(&block);
    llvm::stable_sort(live, [](const LiveBlock *a, const LiveBlock *b) {
      return a->bytes > b->bytes;
    });
    for (const LiveBlock *block : llvm::ArrayRef(live).take_front(3))
      d.attachNote(block->loc)
          << "live there: "
          << (block->what == "this tensor" ? "its result" : block->what)
          << " (" << block->type << ", " << block->bytes << " B stored)";
    if (live.size() > 3)
      d.attachNote(UnknownLoc::get(b.getContext()))
          << live.size() - 3 << " smaller tensors live there too";
    return failure();
  }
  liveBlocks.insert_or_assign(
      std::tuple{idx, *off, u0},
      LiveBlock{loc, what.str(), type, arena(idx).padded(size), u1});
  Home h;
  h.arena = idx;
  h.offset = *off;
  h.chip = chip;
  h.unitBegin = ub;
  h.unitEnd = ue;
  h.perUnit = perUnit;
  auto bufType = sched::BufferType::get(b.getContext(), level.name, type);
  SmallVector<NamedAttribute> attrs = {
      b.getNamedAttr("offset", b.getI64IntegerAttr(*off)),
      b.getNamedAttr("size", b.getI64IntegerAttr(arena(idx).padded(size))),
  };
  // Dense row-major is the default: only another layout is recorded.
  if (layout.kind != TensorLayout::Kind::Dense || !layout.identityOrder())
    attrs.push_back(b.getNamedAttr(
        "layout", LayoutAttr::get(b.getContext(), layout.encoding())));
  if (perUnit) {
    attrs.push_back(b.getNamedAttr("unit", b.getI64IntegerAttr(ub)));
    if (ue - ub > 1)
      attrs.push_back(b.getNamedAttr("unit_end", b.getI64IntegerAttr(ue)));
  }
  if (chips > 1)
    attrs.push_back(b.getNamedAttr("chip", b.getI64IntegerAttr(chip)));
  h.buffer =
      b.create<sched::AllocOp>(loc, TypeRange{bufType}, ValueRange{}, attrs)
          .getBuffer();
  return h;
}

void Lowering::release(Home &h) {
  if (h.arena < 0)
    return;
  SmallVector<Value> tokens(h.readers.begin(), h.readers.end());
  if (h.token)
    tokens.push_back(h.token);
  arena(h.arena).release(h.offset, h.perUnit ? h.unitBegin : 0,
                         h.perUnit ? h.unitEnd : 1, tokens);
  liveBlocks.erase({h.arena, h.offset, h.perUnit ? h.unitBegin : 0});
  h.arena = -1;
}

std::pair<int64_t, int64_t> Lowering::streamWindow(ValueRange deps,
                                                   int64_t rows,
                                                   int64_t cycles,
                                                   Operation *consumer) {
  int64_t start = 0, end = 0;
  for (Value d : deps) {
    auto r = rowsOf.find(d);
    // Only a producer whose output it reads streams into it; a reuse of
    // memory waits for the last reader to finish.
    if (rows > 1 && r != rowsOf.end() && d.getDefiningOp() &&
        sched::feeds(d.getDefiningOp(), consumer)) {
      start = std::max(start, firstSliceOf.lookup(d));
      end = std::max(end, int64_t(std::ceil(target::streamEnd(
                              double(endOf.lookup(d)), double(cycles), rows))));
    } else {
      start = std::max(start, endOf.lookup(d));
    }
  }
  return {start, end};
}

void Lowering::recordStream(Value token, int64_t rows, int64_t start,
                            int64_t cycles) {
  if (rows <= 1)
    return;
  rowsOf[token] = rows;
  firstSliceOf[token] =
      int64_t(std::ceil(target::streamStart(double(start), double(cycles), rows)));
}

int64_t Lowering::streamRowsOf(KernelOp k, llvm::SmallBitVector &whole) {
  whole.clear();
  whole.resize(k.getInputs().size());
  if (!isStatic || !layerPipeline() || k.getOutputs().empty())
    return 0;
  Block &body = k.getBlock();
  // Each value's stream dim (-1: not streamed, a weight or constant), the
  // kernel inputs it derives from, and its columns' causal state with the
  // inputs those columns come from (`cols`).
  struct Stream {
    int64_t dim = -1;
    int64_t rows = 0; // the rows it arrives in, one after another
    llvm::SmallBitVector from;
    Columns columns = Columns::None;
    llvm::SmallBitVector cols;
  };
  DenseMap<Value, Stream> state;
  auto rankOf = [](Value v) {
    return cast<RankedTensorType>(v.getType()).getRank();
  };
  auto none = [&] { return llvm::SmallBitVector(whole.size()); };
  // The constant behind a body value: a constant in the body, or a kernel
  // input that is one.
  auto constantOf = [&](Value v) -> ConstantOp {
    if (auto arg = dyn_cast<BlockArgument>(v); arg && arg.getOwner() == &body)
      v = k.getInputs()[arg.getArgNumber()];
    return v.getDefiningOp<ConstantOp>();
  };
  // Whether `mask` is a causal mask over `scores`' two minor dims, given as
  // the kept set (`negated`: the masked-out set).
  auto causalMask = [&](Value mask, Value scores, bool negated) {
    ConstantOp c = constantOf(mask);
    auto mt = cast<RankedTensorType>(mask.getType());
    auto st = cast<RankedTensorType>(scores.getType());
    if (!c || mt.getRank() < 2 || mt.getRank() > st.getRank() ||
        mt.getShape().take_back(2) != st.getShape().take_back(2))
      return false;
    // Every layer reads the same mask: read it once.
    auto [it, inserted] =
        causalMasks.try_emplace({c.getValue(), int(negated)}, false);
    if (inserted)
      it->second = graph::isCausalMask(c.getValue(), negated);
    return it->second;
  };
  auto splat = [&](Value v) -> std::optional<double> {
    ConstantOp c = constantOf(v);
    auto dense = c ? dyn_cast<DenseFPElementsAttr>(c.getValue()) : nullptr;
    if (!dense || !dense.isSplat())
      return std::nullopt;
    return dense.getSplatValue<APFloat>().convertToDouble();
  };
  // A value the same along the last dim that keeps a masked score masked
  // and a zero zero: a row's reduction computed here (a maximum, a sum of
  // exponentials), or a finite constant.
  auto rowConstant = [&](Value v) {
    auto type = cast<RankedTensorType>(v.getType());
    if (type.getRank() != 0 && type.getShape().back() != 1)
      return false;
    if (state.lookup(v).dim >= 0)
      return true;
    std::optional<double> f = splat(v);
    return f && std::isfinite(*f);
  };
  for (BlockArgument arg : body.getArguments()) {
    Stream st;
    st.from = none();
    st.cols = none();
    Value in = k.getInputs()[arg.getArgNumber()];
    if (!isResident(in)) {
      auto type = cast<RankedTensorType>(in.getType());
      auto it = streamDims.find(in);
      if (it != streamDims.end()) {
        st.dim = it->second.dim;
        st.rows = it->second.rows;
        // Its producer streamed it causally: its columns' rows are in.
        st.columns = it->second.columns;
      } else {
        // An activation arrives in rows: all dims but its last, the
        // innermost of more than one (its token dim) the stream dim.
        if (type.getRank() < 2)
          return 0;
        st.dim = type.getRank() - 2;
        for (int64_t d = type.getRank() - 2; d >= 0; --d)
          if (type.getDimSize(d) > 1) {
            st.dim = d;
            break;
          }
        st.rows = type.getNumElements() / std::max<int64_t>(1, type.getShape().back());
      }
      if (type.getDimSize(st.dim) <= 1) {
        // One row (a [1, D] input beside a stream of S rows): every row
        // of the result needs it whole.
        whole.set(arg.getArgNumber());
        st.dim = -1;
        st.columns = Columns::None;
      } else {
        st.from.set(arg.getArgNumber());
      }
    }
    state[arg] = st;
  }
  // An op that does not keep the causal structure: each row of its result
  // needs every column of its operands'.
  auto dropColumns = [&](Operation &op) {
    for (Value v : op.getOperands()) {
      Stream st = state.lookup(v);
      if (st.columns != Columns::None)
        whole |= st.cols;
    }
  };
  // The columns of a pointwise op's result, from its operands'.
  auto pointwiseColumns = [&](Operation &op,
                              llvm::SmallBitVector &cols) -> Columns {
    SmallVector<Value> with;
    for (Value v : op.getOperands())
      if (state.lookup(v).columns != Columns::None) {
        with.push_back(v);
        cols |= state.lookup(v).cols;
      }
    if (with.empty())
      return Columns::None;
    if (with.size() > 1)
      return Columns::Pending;
    Value x = with.front();
    Columns c = state.lookup(x).columns;
    auto others = [&](auto pred) {
      return llvm::all_of(op.getOperands(),
                          [&](Value v) { return v == x || pred(v); });
    };
    auto isFill = [&](Value v) {
      std::optional<double> f = splat(v);
      return f && *f <= graph::kMaskedScore;
    };
    switch (c) {
    case Columns::Pending:
    case Columns::Masked:
      // The mask: scores + causal, or where(keep, scores, fill) and
      // where(masked, fill, scores).
      if (auto add = dyn_cast<AddOp>(op)) {
        Value m = add.getLhs() == x ? add.getRhs() : add.getLhs();
        if (causalMask(m, x, false))
          return Columns::Masked;
      }
      if (auto w = dyn_cast<WhereOp>(op)) {
        if (w.getLhs() == x && isFill(w.getRhs()) &&
            causalMask(w.getCond(), x, false))
          return Columns::Masked;
        if (w.getRhs() == x && isFill(w.getLhs()) &&
            causalMask(w.getCond(), x, true))
          return Columns::Masked;
      }
      if (c == Columns::Pending)
        return Columns::Pending;
      // Masked scores stay masked shifted by a row's value or scaled up,
      // and are zeros once exponentiated.
      if (isa<ExpOp>(op))
        return Columns::Zeros;
      if ((isa<AddOp>(op) || (isa<SubOp>(op) && op.getOperand(0) == x)) &&
          others(rowConstant))
        return Columns::Masked;
      if (isa<MulOp>(op) && others([&](Value v) {
            std::optional<double> f = splat(v);
            return f && *f >= 1.0 && std::isfinite(*f);
          }))
        return Columns::Masked;
      return Columns::Pending;
    case Columns::Zeros:
      if ((isa<MulOp>(op) || (isa<DivOp>(op) && op.getOperand(0) == x)) &&
          others(rowConstant))
        return Columns::Zeros;
      return Columns::Pending;
    case Columns::None:
      break;
    }
    return Columns::Pending;
  };
  for (Operation &op : body.without_terminator()) {
    // The streamed operands, their dim counted from the last.
    SmallVector<std::pair<Value, Stream>> streamed;
    for (Value v : op.getOperands()) {
      Stream st = state.lookup(v);
      if (st.dim >= 0)
        streamed.push_back({v, st});
    }
    auto fromEnd = [&](const std::pair<Value, Stream> &s) {
      return rankOf(s.first) - s.second.dim;
    };
    auto setAll = [&](int64_t dimFromEnd, const llvm::SmallBitVector &from,
                      Columns columns = Columns::None,
                      llvm::SmallBitVector cols = {}) {
      if (cols.empty())
        cols = none();
      for (Value r : op.getResults()) {
        Stream st{rankOf(r) - dimFromEnd, streamed.front().second.rows, from,
                  columns, cols};
        if (st.dim < 0)
          return false;
        state[r] = st;
      }
      return true;
    };
    if (streamed.empty()) { // constants, ops on weights alone
      for (Value r : op.getResults())
        state[r] = Stream{-1, 0, none(), Columns::None, none()};
      continue;
    }
    llvm::SmallBitVector from(whole.size());
    for (auto &s : streamed)
      from |= s.second.from;
    if (auto mm = dyn_cast<MatMulOp>(op)) {
      Stream l = state.lookup(mm.getLhs()), r = state.lookup(mm.getRhs());
      int64_t rl = rankOf(mm.getLhs()), rr = rankOf(mm.getRhs());
      // A vector right operand drops the last dim: not followed.
      if (l.dim < 0 || l.dim > rl - 2 || rr < 2)
        return 0;
      // The left operand's columns are contracted: row i of causal
      // probabilities reads the columns up to i, any other row all.
      bool causalRows = l.columns == Columns::Zeros && l.dim == rl - 2;
      // Row i of the result then depends on those columns' rows up to i.
      (causalRows ? from : whole) |= l.cols;
      if (r.columns != Columns::None)
        whole |= r.cols;
      Columns columns = Columns::None;
      llvm::SmallBitVector cols = none();
      if (r.dim >= 0) {
        if (r.dim < rr - 2)
          return 0;
        // Key rows line up with query rows only when both arrive in the
        // same rows (a token a row, one after another).
        bool aligned = r.rows == l.rows;
        if (r.dim == rr - 1 && l.dim == rl - 2 && aligned) {
          // q kT: a column a key. Each row needs all of them unless a
          // causal mask follows.
          columns = Columns::Pending;
          cols = r.from;
          from = l.from | l.cols;
        } else if (!(r.dim == rr - 2 && causalRows && aligned)) {
          // p v (but for causal p, whose row i reads v's rows up to i):
          // each row of the result needs all of the right operand.
          whole |= r.from;
          from = l.from | (causalRows ? l.cols : none());
        }
      }
      for (Value res : op.getResults())
        state[res] = Stream{rankOf(res) - (rl - l.dim), l.rows, from, columns,
                            cols};
      continue;
    }
    if (auto g = dyn_cast<GemmOp>(op)) {
      Stream b = state.lookup(g.getB());
      Stream c = g.getC() ? state.lookup(g.getC()) : Stream();
      if (g.getTransA() || b.dim >= 0 || state.lookup(g.getA()).dim != 0 ||
          (c.dim >= 0 && rankOf(g.getC()) - c.dim != 2))
        return 0;
      dropColumns(op);
      if (!setAll(2, from))
        return 0;
      continue;
    }
    // Views: the stream dim's place in the result, -1 where it is not a
    // dim of its own there.
    std::optional<int64_t> viewed;
    int64_t d = streamed.front().second.dim;
    if (auto tr = dyn_cast<TransposeOp>(op)) {
      viewed = -1;
      for (auto [i, p] : llvm::enumerate(tr.getPerm()))
        if (p == d)
          viewed = int64_t(i);
    } else if (auto rs = dyn_cast<ReshapeOp>(op)) {
      // The same elements before the stream dim and the same size (the
      // head split [B, S, H*d] to [B, S, H, d]). Or, when the dims up to
      // the stream dim are the order its rows arrive in (their product is
      // its rows), a dim of the result with the same elements after it:
      // the reshape keeps the order of the elements, so the rows arrive in
      // the same slices, merged with the dims before them (a [B, S, D]
      // activation viewed as [B*S, D] for a linear layer, as torch.export
      // writes it) or split off them again. Dims that are not in arrival
      // order (heads moved before the tokens by a transpose) are not
      // merged into the stream.
      auto in = cast<RankedTensorType>(rs.getInput().getType()).getShape();
      auto out = cast<RankedTensorType>(rs.getType()).getShape();
      auto product = [](ArrayRef<int64_t> dims) {
        int64_t n = 1;
        for (int64_t x : dims)
          n *= x;
        return n;
      };
      int64_t before = product(in.take_front(d));
      viewed = -1;
      for (int64_t j = 0; j < int64_t(out.size()); ++j)
        if (product(out.take_front(j)) == before && out[j] == in[d]) {
          viewed = j;
          break;
        }
      if (*viewed < 0 && before * in[d] == streamed.front().second.rows)
        for (int64_t j = 0; j < int64_t(out.size()); ++j)
          if (out[j] > 1 && product(out.drop_front(j + 1)) == product(in.drop_front(d + 1))) {
            viewed = j;
            break;
          }
    } else if (auto e = dyn_cast<ExpandOp>(op)) {
      // A broadcast (GQA's repeat of the KV heads) keeps the stream dim
      // when it does not broadcast along it.
      auto in = cast<RankedTensorType>(e.getInput().getType()).getShape();
      auto out = cast<RankedTensorType>(e.getType()).getShape();
      int64_t to = d + int64_t(out.size()) - int64_t(in.size());
      viewed = to >= 0 && to < int64_t(out.size()) && in[d] == out[to] ? to : -1;
    }
    if (viewed) {
      if (*viewed < 0)
        return 0;
      dropColumns(op);
      state[op.getResult(0)] = Stream{*viewed, streamed.front().second.rows,
                                      from, Columns::None, none()};
      continue;
    }
    if (auto sp = dyn_cast<SplitOp>(op)) {
      if (int64_t(sp.getAxis()) == streamed.front().second.dim)
        return 0;
      dropColumns(op);
      if (!setAll(fromEnd(streamed.front()), from))
        return 0;
      continue;
    }
    // Pointwise ops: every streamed operand along the same dim (from the
    // last, as operands broadcast).
    bool along = llvm::all_of(streamed, [&](auto &s) {
      return fromEnd(s) == fromEnd(streamed.front());
    });
    int64_t last = rankOf(streamed.front().first) - 1;
    bool rowWise = streamed.front().second.dim < last;
    if (isa<ConstantOp>(op) || graph::classify(&op) == graph::OpClass::Pointwise) {
      llvm::SmallBitVector cols = none();
      Columns columns = pointwiseColumns(op, cols);
      if (!along || !setAll(fromEnd(streamed.front()), from, columns, cols))
        return 0;
      continue;
    }
    // Reductions and normalizations along the last dim only.
    bool lastOnly = false;
    if (auto axes = op.getAttrOfType<DenseI64ArrayAttr>("axes"))
      lastOnly = llvm::all_of(axes.asArrayRef(),
                              [&](int64_t a) { return a == last || a == -1; });
    else if (auto axis = op.getAttrOfType<IntegerAttr>("axis"))
      lastOnly = isa<SoftmaxOp, LayerNormOp, LogSoftmaxOp>(op) &&
                 (axis.getInt() == last || axis.getInt() == -1);
    if (!lastOnly || !rowWise || !along || streamed.size() != 1)
      return 0;
    // Over causal columns: a row's maximum of masked scores and any
    // reduction of zeros read the columns up to the row; softmax turns
    // masked scores into zeros (log-softmax keeps them masked).
    const Stream &in = streamed.front().second;
    Columns columns = Columns::None;
    bool reduction = isa<ReduceSumOp, ReduceMeanOp, ReduceMaxOp, ReduceMinOp,
                         ReduceProdOp, ReduceL1Op, ReduceL2Op,
                         ReduceSumSquareOp, ReduceLogSumOp>(op);
    if (in.columns == Columns::Masked && isa<SoftmaxOp>(op))
      columns = Columns::Zeros;
    else if (in.columns == Columns::Masked && isa<LogSoftmaxOp>(op))
      columns = Columns::Masked;
    else if ((in.columns == Columns::Masked && isa<ReduceMaxOp>(op)) ||
             (in.columns == Columns::Zeros && reduction))
      from |= in.cols; // row i: the columns' rows up to i
    else
      dropColumns(op);
    // The stream dim keeps its index (the reduced last dim is after it).
    for (Value r : op.getResults())
      state[r] = Stream{in.dim, in.rows, from, columns,
                        columns == Columns::None ? none() : in.cols};
  }
  auto yield = cast<YieldOp>(body.getTerminator());
  for (auto [v, r] : llvm::zip(yield.getOperands(), k.getOutputs())) {
    Stream st = state.lookup(v);
    if (st.dim < 0)
      return 0;
    // Scores that still need every key are complete only at the end.
    if (st.columns == Columns::Pending) {
      whole |= st.cols;
      st.columns = Columns::None;
    }
    streamDims[r] = {st.dim, st.rows, st.columns};
  }
  // The rows the inputs arrive in, which the results keep (heads split
  // off a token's row arrive with it, not one after another).
  int64_t rows = streamDims.lookup(k.getOutputs()[0]).rows;
  return rows > 1 ? rows : 0;
}

void Lowering::timeCompute(sched::ComputeOp op, double seconds,
                           bool hostLink) {
  // Every op carries its estimated cycles (dfa-run times the schedule with
  // them); static targets also get a start cycle.
  int64_t cycles = target::toCycles(t, seconds);
  op.setCyclesAttr(b.getI64IntegerAttr(cycles));
  if (!isStatic)
    return;
  int64_t chip = op.getChip() ? int64_t(*op.getChip()) : 0;
  int64_t ub = op.getUnitBegin(), ue = op.getUnitEnd();
  int64_t rows = op.getRows() ? int64_t(*op.getRows()) : 0;
  auto [ready, floor] = streamWindow(op.getDeps(), rows, cycles, op);
  int64_t start = std::max(ready, unitsBusy[chip].freeAt(ub, ue));
  if (hostLink)
    start = std::max(start, hostLinkFree.lookup(chip));
  int64_t end = std::max(start + cycles, floor);
  if (hostLink)
    hostLinkFree[chip] = end;
  op.setStartAttr(b.getI64IntegerAttr(start));
  unitsBusy[chip].occupy(ub, ue, end);
  endOf[op.getDone()] = end;
  recordStream(op.getDone(), rows, start, cycles);
  makespan = std::max(makespan, end);
}

Value Lowering::dma(Location loc, Value v, Value src, Value dst,
                    ArrayRef<Value> deps, int64_t engine, int64_t chip) {
  auto type = cast<sched::BufferType>(src.getType()).getTensor();
  SmallVector<int64_t> zeros(type.getRank(), 0);
  SmallVector<int64_t> sizes(type.getShape());
  TensorLayout layout = layoutOf(v);
  plantFaults(type, layout, sizes);
  return dmaRegion(loc, src, dst, zeros, zeros, sizes,
                   int64_t(std::ceil(double(layout.bytes) * operandPart)), deps,
                   engine, chip);
}

void Lowering::plantFaults(RankedTensorType type, const TensorLayout &layout,
                           SmallVectorImpl<int64_t> &sizes) {
  if (fault.name != "tail-drop" || sizes.empty())
    return;
  // Cover whole sticks, tiles or vectors of the minor dim only.
  int64_t minor = layout.order.back();
  int64_t g = layout.granule(minor);
  if (g > 1 && sizes[minor] > g && sizes[minor] % g)
    sizes[minor] = sizes[minor] / g * g;
}

Value Lowering::dmaRegion(Location loc, Value src, Value dst,
                          ArrayRef<int64_t> srcOffsets,
                          ArrayRef<int64_t> dstOffsets,
                          ArrayRef<int64_t> sizes, int64_t bytes,
                          ArrayRef<Value> deps, int64_t engine, int64_t chip) {
  SmallVector<Value> waits(deps.begin(), deps.end());
  sortDeps(waits);
  auto op = b.create<sched::DmaOp>(
      loc, sched::TokenType::get(b.getContext()), src, dst, waits,
      b.getDenseI64ArrayAttr(srcOffsets), b.getDenseI64ArrayAttr(dstOffsets),
      b.getDenseI64ArrayAttr(sizes), b.getI64IntegerAttr(engine),
      chips > 1 ? b.getI64IntegerAttr(chip) : IntegerAttr(),
      b.getI64IntegerAttr(bytes), IntegerAttr(), IntegerAttr(),
      currentKernel, IntegerAttr());
  ++stats.dmas;
  stats.dmaBytes += bytes;
  sched::BufferSite from = sched::siteOf(src), to = sched::siteOf(dst);
  target::TransferPath path = target::transferPath(
      t, *t.level(cast<sched::BufferType>(src.getType()).getMemory()),
      from.units(), *t.level(cast<sched::BufferType>(dst.getType()).getMemory()),
      to.units(), from.chip != to.chip);
  int64_t cycles =
      target::toCycles(t, target::transferSeconds(t, path, double(bytes)));
  op.setCyclesAttr(b.getI64IntegerAttr(cycles));
  if (fault.name == "dma-hang" && !planted) {
    // The plan expects it done in `cycles`; the transfer never ends.
    op.setBytesAttr(b.getI64IntegerAttr(int64_t(1) << 62));
    planted = true;
  }
  // A copy over the fabric between two streaming kernels streams too, and
  // so does an activation's load from the outer memory into one.
  int64_t rows = 0;
  if (kernelRows > 1 && layerPipeline() && !wholeOperand) {
    if (streamFromOuter)
      rows = kernelRows;
    else if (engine == kLinkEngine)
      for (Value d : waits)
        if (rowsOf.count(d))
          rows = kernelRows;
  }
  if (rows > 1)
    op.setRowsAttr(b.getI64IntegerAttr(rows));
  if (isStatic) {
    auto [ready, floor] = streamWindow(waits, rows, cycles, op);
    Intervals &engineBusy = enginesBusy[{chip, engine}];
    // A streamed copy holds its engine for its own bytes, not while it
    // waits for its producer's last rows (the simulator's bodyDone).
    int64_t start = engineBusy.earliest(ready, cycles, 0);
    int64_t end = std::max(start + cycles, floor);
    op.setStartAttr(b.getI64IntegerAttr(start));
    engineBusy.occupy(start, start + cycles);
    endOf[op.getDone()] = end;
    recordStream(op.getDone(), rows, start, cycles);
    makespan = std::max(makespan, end);
  }
  return op.getDone();
}

/// Places a weight or constant where its first consumer runs.
LogicalResult Lowering::placeResident(Value v, const KernelPlan &p) {
  auto it = homes.find(v);
  if (it != homes.end()) {
    if (!chipPartition() || it->second.chip == p.chip ||
        residentOnChip.count({v, p.chip}))
      return success();
    FailureOr<Home> h = placeResidentHome(v, p);
    if (failed(h))
      return failure();
    residentOnChip[{v, p.chip}] = *h;
    return success();
  }
  FailureOr<Home> h = placeResidentHome(v, p);
  if (failed(h))
    return failure();
  homes[v] = *h;
  return success();
}

Home &Lowering::homeFor(Value v, const KernelPlan &p) {
  if (chipPartition()) {
    auto it = residentOnChip.find({v, p.chip});
    if (it != residentOnChip.end())
      return it->second;
  }
  return homes[v];
}

FailureOr<Home> Lowering::placeResidentHome(Value v, const KernelPlan &p) {
  const target::MemoryLevel &level = weightStreaming || !home ? *outer : *home;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(weightsEnd);
  SmallVector<Value> deps;
  std::string what = "a constant";
  if (auto w = v.getDefiningOp<WeightOp>())
    what = ("weight '" + w.getSymName() + "'").str();
  FailureOr<Home> h =
      place(v.getLoc(), level, v, p.chip, p.unitBegin, p.unitEnd, deps, what);
  if (failed(h))
    return failure();
  auto alloc = cast<sched::AllocOp>(h->buffer.getDefiningOp());
  if (auto w = v.getDefiningOp<WeightOp>()) {
    auto op = b.create<sched::WeightOp>(
        w.getLoc(), alloc.getType(), w.getSymNameAttr(), w.getFileAttr(),
        w.getOffsetAttr(), w.getZstdBytesAttr(), alloc.getOffsetAttr(),
        alloc.getSizeAttr(), alloc.getUnitAttr(), alloc.getUnitEndAttr(),
        alloc.getChipAttr(), alloc.getLayoutAttr(), w.getRowPitchAttr());
    alloc.replaceAllUsesWith(op.getBuffer());
    alloc.erase();
    h->buffer = op.getBuffer();
  } else {
    alloc.setInitAttr(
        cast<ElementsAttr>(v.getDefiningOp<ConstantOp>().getValue()));
  }
  h->token = Value();
  return h;
}

const target::MemoryLevel *Lowering::copyTarget(const Home &h,
                                                const KernelPlan &p, bool stage,
                                                int64_t &engine) const {
  engine = kLoadEngine;
  if (stage)
    return scratch;
  bool onWafer =
      cast<sched::BufferType>(h.buffer.getType()).getMemory() == home->name;
  if (spatial() && (!onWafer || h.unitBegin != p.unitBegin)) {
    // Over the fabric into this kernel's rectangle (or from MemoryX).
    if (t.onChip && onWafer)
      engine = kLinkEngine;
    return home;
  }
  if (chipPartition() && h.chip != p.chip) {
    engine = kLinkEngine;
    return home;
  }
  return nullptr;
}

/// The buffer a kernel reads `v` from, copying it where the kernel needs
/// it; `deps` gets what the read waits for.
FailureOr<Value>
Lowering::operand(Location loc, Value v, const KernelPlan &p,
                  SmallVectorImpl<Value> &deps,
                  SmallVectorImpl<std::pair<Home, Value>> &temps, bool stage) {
  Home &h = homeFor(v, p);
  int64_t engine = kLoadEngine;
  const target::MemoryLevel *want = copyTarget(h, p, stage, engine);
  if (!want) {
    if (h.token)
      deps.push_back(h.token);
    return h.buffer;
  }
  // An activation from another chip: the copy an earlier kernel on this
  // chip made, kept while a later one here reads it too.
  std::pair<Value, int64_t> onChip{v, p.chip};
  bool keep = false;
  if (chipPartition() && !stage && !isResident(v)) {
    bool last = lastReaderOnChip.lookup(onChip) <= emitting;
    if (auto it = copiedToChip.find(onChip); it != copiedToChip.end()) {
      if (it->second.token)
        deps.push_back(it->second.token);
      Value buffer = it->second.buffer;
      if (last) {
        temps.push_back({it->second, Value()});
        copiedToChip.erase(it);
      }
      return buffer;
    }
    keep = !last;
  }
  // An activation read from the outer memory (a graph input, or a value
  // spilled there) flows into a streaming kernel row by row, as one from
  // another rectangle does; a weight is placed whole (placeResident).
  llvm::SaveAndRestore<bool> rowsFromOuter(
      streamFromOuter, spatial() && !isResident(v) && want == home &&
                           cast<sched::BufferType>(h.buffer.getType()).getMemory() !=
                               home->name);
  FailureOr<Home> copy = copyOf(loc, v, h, *want, p, engine);
  if (failed(copy))
    return failure();
  deps.push_back(copy->token);
  // A graph input loaded onto the wafer stays there for its later readers,
  // which take it over the fabric from this copy instead of reading the
  // outer memory again (fan-out, as an activation made on the wafer is);
  // it is freed after its last reader. A graph input that is also a result
  // keeps its home where the result is returned.
  if (streamFromOuter && isa<BlockArgument>(v) &&
      llvm::none_of(v.getUsers(),
                    [](Operation *u) { return isa<func::ReturnOp>(u); })) {
    homes[v] = *copy;
    return copy->buffer;
  }
  if (keep) {
    copiedToChip[onChip] = *copy;
    return copy->buffer;
  }
  temps.push_back({*copy, Value()});
  return copy->buffer;
}

FailureOr<Home> Lowering::copyOf(Location loc, Value v, Home &from,
                                 const target::MemoryLevel &level,
                                 const KernelPlan &p, int64_t engine) {
  SmallVector<Value> deps;
  FailureOr<Home> copy =
      place(loc, level, v, p.chip, p.unitBegin, p.unitEnd, deps);
  if (failed(copy))
    return failure();
  // Named, while it lives, at the node that made the value.
  auto live = liveBlocks.find(
      {copy->arena, copy->offset, copy->perUnit ? copy->unitBegin : 0});
  if (live != liveBlocks.end()) {
    live->second.loc = v.getLoc();
    live->second.what = isa<BlockArgument>(v) ? "a copy of a graph input"
                                              : "a copy of its result";
  }
  if (from.token)
    deps.push_back(from.token);
  Value done = dma(loc, v, from.buffer, copy->buffer, deps, engine, p.chip);
  from.readers.push_back(done);
  copy->token = done;
  return copy;
}

/// Does the kernel's working set fit half of the scratchpad per unit?
bool Lowering::fitsStaged(KernelOp k, const KernelPlan &p,
                          ArrayRef<int64_t> inPlace) {
  if (!scratch)
    return false;
  int64_t units = p.unitEnd - p.unitBegin, total = 0;
  // A cache grown in place stays where it is.
  auto kept = [&](int64_t index, bool output) {
    for (size_t j = 0; j < inPlace.size(); j += 2)
      if (inPlace[j + (output ? 1 : 0)] == index)
        return true;
    return false;
  };
  for (auto [i, v] : llvm::enumerate(k.getInputs()))
    if (!kept(int64_t(i), false))
      total += bytesPerUnit(v, units);
  for (auto [o, v] : llvm::enumerate(k.getOutputs()))
    if (!kept(int64_t(o), true))
      total += bytesPerUnit(v, units);
  return double(total) <= 0.5 * scratch->capacityBytes.value;
}

void Lowering::sortDeps(SmallVectorImpl<Value> &deps) {
  auto &pos = sequencer.position;
  llvm::sort(deps, [&](Value a, Value c) {
    Operation *x = a.getDefiningOp(), *y = c.getDefiningOp();
    auto i = pos.find(x), j = pos.find(y);
    if (i != pos.end() && j != pos.end())
      return i->second < j->second;
    return x->isBeforeInBlock(y);
  });
  deps.erase(std::unique(deps.begin(), deps.end()), deps.end());
}

sched::ComputeOp Lowering::buildCompute(KernelOp k, const KernelPlan &p,
                                        ValueRange ins, ValueRange outs,
                                        SmallVectorImpl<Value> &deps,
                                        const KernelSplit *split,
                                        int64_t extent) {
  Location loc = k.getLoc();
  sortDeps(deps);
  SmallVector<Value> waits(deps.begin(), deps.end());
  plantDependencyFault(waits);
  // The pieces written where this kernel's result is are not read.
  SmallVector<Value> read;
  for (auto [i, v] : llvm::enumerate(ins))
    if (!assembledInput(k, unsigned(i)))
      read.push_back(v);
  auto compute = b.create<sched::ComputeOp>(
      loc, sched::TokenType::get(b.getContext()), k.getSymNameAttr(), read, outs,
      waits, b.getI64IntegerAttr(p.unitBegin), b.getI64IntegerAttr(p.unitEnd),
      chips > 1 ? b.getI64IntegerAttr(p.chip) : IntegerAttr(), IntegerAttr(),
      IntegerAttr(), StringAttr(), IntegerAttr(), DenseI64ArrayAttr(),
      DenseI64ArrayAttr());
  compute->setAttr("kind", k.getKindAttr());
  if (kernelRows > 1 && !split)
    compute.setRowsAttr(b.getI64IntegerAttr(kernelRows));
  // Matrix products accumulate in the target's format when it is narrower
  // than f32 (or in f16, with the accum-f16 fault planted).
  if (isMatrixKind(k.getKindEnum())) {
    std::string acc = fault.name == "accum-f16" ? "f16" : t.accumulator;
    std::optional<target::StorageFormat> f = t.floatFormat(acc);
    if (f && f->mantissaBits < 23)
      compute.setAccumulatorAttr(b.getStringAttr(acc));
  }
  // The padding FLOPs are the one tiling decision a later stage reads (the
  // roofline's padding waste); the tile, grid and units stay in the tiled
  // stage's IR, and the schedule says where the op runs in its own terms.
  if (IntegerAttr padFlops = k.getPadFlopsAttr())
    compute->setAttr("pad_flops", padFlops);
  // A chunk computes on slices: every value split along a dim gets the
  // chunk's extent there.
  auto typeOf = [&](Value v) {
    auto type = cast<RankedTensorType>(v.getType());
    return split ? chunkType(type, split->dim(v), extent) : type;
  };
  Block *cb = new Block();
  compute.getBody().push_back(cb);
  IRMapping map;
  auto assembled = [&](Value v) { return assembledOperand(k, v); };
  for (BlockArgument arg : k.getBlock().getArguments())
    if (!assembled(arg))
      map.map(arg, cb->addArgument(typeOf(arg), arg.getLoc()));
  // An output whose concat's pieces are assembled where it is: the body
  // writes the concat's own operands, the region of the output they are
  // (the concat and the views after it are not built).
  auto yield = cast<YieldOp>(k.getBlock().getTerminator());
  DenseMap<int64_t, ConcatResult> assembledOutputs;
  llvm::SmallPtrSet<Operation *, 4> skipped;
  for (int64_t o = 0, n = int64_t(yield.getValues().size()); o < n; ++o)
    if (std::optional<ConcatResult> c = concatResult(k, o);
        c && llvm::any_of(c->cat.getInputs(), assembled)) {
      skipped.insert(c->cat);
      for (ReshapeOp v : c->views)
        skipped.insert(v);
      assembledOutputs[o] = *c;
    }
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToEnd(cb);
  for (Operation &op : k.getBlock().without_terminator()) {
    if (skipped.contains(&op))
      continue;
    Operation *c = b.clone(op, map);
    for (auto [orig, copy] : llvm::zip(op.getResults(), c->getResults()))
      copy.setType(typeOf(orig));
  }
  // A value as the region type `type` (only dims of size 1 differ).
  auto as = [&](Value v, RankedTensorType type) -> Value {
    if (v.getType() == type)
      return v;
    return b.create<ReshapeOp>(loc, type, v);
  };
  SmallVector<Value> yielded;
  for (auto [o, v] : llvm::enumerate(yield.getValues())) {
    auto it = assembledOutputs.find(int64_t(o));
    if (it == assembledOutputs.end()) {
      Value y = map.lookup(v);
      auto piece = pieces.find(k.getOutputs()[o]);
      yielded.push_back(piece == pieces.end() ? y : as(y, piece->second.region));
      continue;
    }
    ConcatOp cat = it->second.cat;
    SmallVector<Value> own;
    for (Value in : cat.getInputs())
      if (!assembled(in))
        own.push_back(map.lookup(in));
    RankedTensorType region = ownRegion(k, int64_t(o))->second;
    Value joined = own.front();
    if (own.size() > 1) {
      auto type = cast<RankedTensorType>(cat.getType());
      SmallVector<int64_t> shape(type.getShape());
      shape[cat.getAxis()] = 0;
      for (Value x : own)
        shape[cat.getAxis()] += cast<RankedTensorType>(x.getType()).getDimSize(cat.getAxis());
      joined = b.create<ConcatOp>(cat.getLoc(), type.clone(shape), own, cat.getAxisAttr());
    }
    yielded.push_back(as(joined, region));
  }
  b.create<sched::YieldOp>(loc, yielded);
  plantBodyFault(*cb);
  return compute;
}

void Lowering::timeKernel(KernelOp k, const KernelPlan &p,
                          sched::ComputeOp compute,
                          const target::MemoryLevel &src, double fraction) {
  // A collective goes at the links' pace (one cost function for it).
  if (std::optional<target::Collective> work = sched::collectiveOf(compute)) {
    double link = target::collectiveLinkBytes(*work) /
                  std::max(1.0, target::collectiveBandwidth(t));
    compute->setAttr("compute_cycles", b.getI64IntegerAttr(0));
    compute->setAttr("memory_cycles",
                     b.getI64IntegerAttr(target::toCycles(t, link)));
    timeCompute(compute, target::collectiveSeconds(t, *work) +
                             target::kernelOverheadSeconds(t, false, 1));
    return;
  }
  // Bytes from and to the device's memory; a result written to the host
  // streams over the host link as the kernel makes it (as stored, padding
  // included, as a copy moves it: sched::hostBytes), which bounds the
  // kernel too.
  double bytes = 0, hostBytes = 0;
  const target::MemoryLevel *host = t.hostLevel();
  for (auto [level, moved] :
       sched::levelBytes(compute, host ? StringRef(host->name) : StringRef()))
    (host && level == host->name ? hostBytes : bytes) += moved;
  target::Work w =
      workOf(k, p, compute.getBody().front(), bytes, src, fraction);
  target::KernelTime time = target::kernelTime(t, w);
  if (hostBytes > 0)
    time.memory = std::max(
        time.memory, target::transferSeconds(t, *target::hostPath(t), hostBytes));
  // The two bounds, for dfa-roofline and the validation of the cost model.
  compute->setAttr("compute_cycles",
                   b.getI64IntegerAttr(target::toCycles(t, time.compute)));
  compute->setAttr("memory_cycles",
                   b.getI64IntegerAttr(target::toCycles(t, time.memory)));
  timeCompute(compute,
              time.seconds() +
                  target::kernelOverheadSeconds(t, layerPipeline(), w.units),
              hostBytes > 0);
}

target::Work Lowering::workOf(KernelOp k, const KernelPlan &p, Block &body,
                              double bytes, const target::MemoryLevel &src,
                              double fraction) {
  // FLOPs (with padding) against the units used, bytes against the memory
  // the operands come from; the arithmetic and its shape as graph-tile read
  // them.
  target::Work w = kernelWork(k, body);
  w.flops = fraction * double(cast<CostOpInterface>(k.getOperation()).getFlops() +
                              int64_t(k.getPadFlops().value_or(0)));
  w.bytes = bytes;
  w.units = p.unitEnd - p.unitBegin;
  w.bandwidth = target::bandwidthOf(src, p.unitEnd - p.unitBegin);
  return w;
}

void Lowering::releaseDead(KernelOp k, const DenseMap<Value, int64_t> &lastUse,
                           int64_t index) {
  for (Value v : k.getInputs()) {
    auto it = lastUse.find(v);
    if (it != lastUse.end() && it->second == index && !isResident(v))
      release(homes[v]);
  }
  for (Value r : k.getOutputs())
    if (!lastUse.count(r))
      release(homes[r]);
}

LogicalResult Lowering::emitKernel(KernelOp k, const KernelPlan &p,
                                   const DenseMap<Value, int64_t> &lastUse,
                                   int64_t index) {
  emitting = index;
  Location loc = k.getLoc();
  llvm::SmallBitVector whole;
  kernelRows = streamRowsOf(k, whole);
  // KV-cache appends in place: the cache is neither staged nor copied; the
  // kernel writes the appended rows where the cache is.
  SmallVector<int64_t> inPlace = inPlacePairs(k, p);
  auto inPlaceInput = [&](int64_t i) {
    for (size_t j = 0; j < inPlace.size(); j += 2)
      if (inPlace[j] == i)
        return true;
    return false;
  };
  auto inPlaceOf = [&](int64_t o) -> std::optional<int64_t> {
    for (size_t j = 0; j < inPlace.size(); j += 2)
      if (inPlace[j + 1] == o)
        return inPlace[j];
    return std::nullopt;
  };
  // A collective moves its operand between the chips' outer memories (a
  // DMA over the links, as NCCL's and XLA's do): it is never staged.
  bool collective = k.getKindEnum() == KernelKind::Collective;
  bool stage = staging && !collective && fitsStaged(k, p, inPlace);
  // A compiler that double-buffers pipelines a kernel that fits too, when
  // that is faster; a cache appended in place stays where it is.
  bool pipeline = stage && t.caps.doubleBuffering && inPlace.empty();
  if (staging && (!stage || pipeline) && !collective) {
    // Chunks copy every operand through the scratchpad: the cache too,
    // as a chunked kernel did before (no append in place then).
    if (std::optional<ChunkChoice> c = chooseChunks(k, p, stage))
      return emitChunked(k, p, *c, lastUse, index);
  }
  if (staging && !stage && !collective) {
    std::string reason = "working set exceeds half of " + scratch->name +
                         " and no split of the output fits: operands stream "
                         "from " + outer->name;
    stats.spills.push_back({k.getSymName().str(), reason});
    if (opts.remarks)
      emitRemark(loc) << "kernel '" << k.getSymName() << "': " << reason;
  }
  SmallVector<Value> deps;
  SmallVector<Value> ins(k.getInputs().size());
  SmallVector<std::pair<Home, Value>> temps;
  // Under chip partition the operands arriving over the links are copied
  // in the order their data is ready (a static scheduler orders a
  // kernel's copies so; in operand order, a copy ready late can take the
  // link before one ready early).
  SmallVector<unsigned> order(k.getInputs().size());
  std::iota(order.begin(), order.end(), 0u);
  if (chipPartition() && isStatic) {
    auto ready = [&](unsigned i) -> int64_t {
      const Home &h = homeFor(k.getInputs()[i], p);
      return h.token ? endOf.lookup(h.token) : 0;
    };
    llvm::stable_sort(order, [&](unsigned a, unsigned c) { return ready(a) < ready(c); });
  }
  for (unsigned i : order) {
    Value v = k.getInputs()[i];
    // A piece its maker wrote where this kernel's result is: not read.
    if (assembledInput(k, i))
      continue;
    if (inPlaceInput(int64_t(i))) {
      const Home &h = homes[v];
      if (h.token)
        deps.push_back(h.token);
      ins[i] = h.buffer;
      continue;
    }
    size_t before = deps.size();
    llvm::SaveAndRestore<bool> needsWhole(wholeOperand,
                                          kernelRows > 1 && whole.test(i));
    llvm::SaveAndRestore<double> part(
        operandPart, graph::readFraction(k.getBlock().getArgument(i)));
    FailureOr<Value> buf = operand(loc, v, p, deps, temps, stage);
    if (failed(buf))
      return failure();
    ins[i] = *buf;
    // An input needed whole that arrives without a copy of its own: the
    // kernel waits for its producer's end, so it does not stream.
    if (wholeOperand)
      for (size_t j = before; j < deps.size(); ++j)
        if (rowsOf.count(deps[j]))
          kernelRows = 0;
  }
  // Outputs: in the scratchpad when staged, else at home.
  // (The activation level is the outer memory unless placement keeps
  // activations on chip.)
  const target::MemoryLevel &outLevel = stage ? *scratch : *home;
  SmallVector<Value> outs;
  SmallVector<Home> outHomes;
  // A pointwise or row-wise kernel writes over an input it alone reads,
  // read where it lives (overwrittenInput): its buffer is the output's.
  std::optional<unsigned> over = stage ? std::nullopt : overwrittenInput(k);
  if (over && (leavesForHost(k, 0) || pieces.count(k.getOutputs()[0])))
    over.reset();
  if (over) {
    const Home &from = homes[k.getInputs()[*over]];
    if (from.arena != arenaFor(outLevel, p.chip) || ins[*over] != from.buffer)
      over.reset();
  }
  // A result assembled where it lives: each piece's kernel writes its
  // region, the first placing the buffer (in the host's memory, which every
  // chip reaches over its own host link); the concat's kernel writes what
  // is left, or nothing.
  SmallVector<int64_t> offsets;
  bool regions = false;
  auto assembly = [&](Value r) -> Assembly * {
    auto piece = pieces.find(r);
    Value whole = piece != pieces.end() ? piece->second.result : r;
    auto it = assemblies.find(whole);
    return it == assemblies.end() ? nullptr : &it->second;
  };
  for (auto [o, r] : llvm::enumerate(k.getOutputs())) {
    auto piece = pieces.find(r);
    bool made = llvm::any_of(llvm::seq(k.getInputs().size()), [&](size_t i) {
      return assembledInput(k, unsigned(i)) &&
             pieces.lookup(k.getInputs()[i]).result == r;
    });
    if (piece == pieces.end() && !made) {
      offsets.append(cast<RankedTensorType>(r.getType()).getRank(), 0);
      continue;
    }
    Value whole = piece != pieces.end() ? piece->second.result : r;
    if (!assemblies.count(whole)) {
      SmallVector<Value> reuse;
      FailureOr<Home> h = place(loc, *t.hostLevel(), whole, p.chip, p.unitBegin,
                                p.unitEnd, reuse);
      if (failed(h))
        return failure();
      deps.append(reuse.begin(), reuse.end());
      assemblies[whole].home = *h;
    }
    if (piece != pieces.end()) {
      llvm::append_range(offsets, piece->second.offsets);
      regions = true;
      continue;
    }
    // The concat's own operands: the region after the pieces before them
    // (none: the kernel is the concat alone, and builds no compute).
    if (auto own = ownRegion(k, int64_t(o)))
      llvm::append_range(offsets, own->first);
    regions = true;
  }
  // All of the result is pieces (the concat's kernel is the concat alone,
  // findAssemblies' `alone`): it is there once every piece is.
  if (regions && k.getOutputs().size() == 1 && !pieces.count(k.getOutputs()[0]) &&
      !ownRegion(k, 0)) {
    Value r = k.getOutputs()[0];
    Home h = assemblies[r].home;
    h.token = lastWriter(assemblies[r]);
    homes[r] = h;
    releaseDead(k, lastUse, index);
    return success();
  }
  for (auto [o, r] : llvm::enumerate(k.getOutputs())) {
    SmallVector<Value> reuse;
    if (Assembly *a = regions ? assembly(r) : nullptr) {
      Home h = a->home;
      h.arena = -1; // the result's, released never (a graph result)
      outs.push_back(h.buffer);
      outHomes.push_back(h);
      continue;
    }
    if (over) {
      Home &from = homes[k.getInputs()[*over]];
      Home h = from;
      h.readers.clear();
      from.arena = -1; // its memory is the output's now
      outs.push_back(h.buffer);
      outHomes.push_back(h);
      continue;
    }
    // The grown cache is where the cache was; a result for the host goes
    // there as it is made (unless staged: then it is copied there).
    const target::MemoryLevel *level = &outLevel;
    if (std::optional<int64_t> in = inPlaceOf(int64_t(o)))
      level = t.level(cast<sched::BufferType>(ins[*in].getType()).getMemory());
    else if (!stage && leavesForHost(k, int64_t(o)))
      level = t.hostLevel();
    FailureOr<Home> h =
        place(loc, *level, r, p.chip, p.unitBegin, p.unitEnd, reuse);
    if (failed(h))
      return failure();
    deps.append(reuse.begin(), reuse.end());
    outs.push_back(h->buffer);
    outHomes.push_back(*h);
  }
  auto compute = buildCompute(k, p, ins, outs, deps);
  if (regions)
    compute.setOutOffsets(offsets);
  // A fault planted in the body may have changed the append (nan@NODE on
  // the concat, swap-strides on the cache): such a pair is a plain output,
  // the whole cache read and written.
  // The compute's inputs leave out the pieces assembled where its result
  // is: an input's index there counts only the others before it.
  auto computeInput = [&](int64_t i) {
    return i - int64_t(llvm::count_if(llvm::seq(i), [&](int64_t j) {
             return assembledInput(k, unsigned(j));
           }));
  };
  SmallVector<int64_t> kept;
  for (size_t j = 0; j < inPlace.size(); j += 2)
    if (int64_t in = computeInput(inPlace[j]);
        sched::isCacheAppend(compute, in, inPlace[j + 1]))
      kept.append({in, inPlace[j + 1]});
  if (!kept.empty())
    compute.setInPlace(kept);
  Value done = compute.getDone();
  timeKernel(k, p, compute, stage ? *scratch : outLevel);

  for (Value v : k.getInputs()) {
    homeFor(v, p).readers.push_back(done);
    if (auto it = copiedToChip.find({v, p.chip}); it != copiedToChip.end())
      it->second.readers.push_back(done);
  }
  for (auto &[tmp, unused] : temps) {
    tmp.readers.push_back(done);
    release(tmp);
  }
  // Results: copied home when staged.
  for (auto [o, r, h] : llvm::enumerate(k.getOutputs(), outHomes)) {
    h.token = done;
    if (Assembly *a = regions ? assembly(r) : nullptr) {
      // A piece is where its result is; the result, once its pieces are.
      a->writers.push_back(done);
      if (!pieces.count(r))
        h.token = lastWriter(*a);
      homes[r] = h;
      continue;
    }
    if (!stage || inPlaceOf(int64_t(o))) {
      homes[r] = h;
      continue;
    }
    FailureOr<Home> back =
        copyOf(loc, r, h, resultLevel(k, int64_t(o)), p, kStoreEngine);
    if (failed(back))
      return failure();
    release(h);
    homes[r] = *back;
  }
  // A result only another chip reads goes there now (sentAhead).
  for (Value r : k.getOutputs()) {
    auto ahead = sentAhead.find(r);
    Home &from = homes[r];
    if (ahead == sentAhead.end() || from.chip != p.chip || from.arena < 0 ||
        (regions && assembly(r)))
      continue;
    llvm::SaveAndRestore<StringAttr> reader(currentKernel, ahead->second.second);
    FailureOr<Home> there = copyOf(loc, r, from, *home, ahead->second.first, kLinkEngine);
    if (failed(there))
      return failure();
    release(from);
    homes[r] = *there;
  }
  releaseDead(k, lastUse, index);
  return success();
}
