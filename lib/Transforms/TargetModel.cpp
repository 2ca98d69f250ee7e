//===- TargetModel.cpp - what passes read from a description ----------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "dfa/Transforms/TargetModel.h"

#include "dialects/Graph/GraphOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace dfa;
using namespace dfa::graph;

FailureOr<target::Target>
dfa::loadPassTarget(ModuleOp module, StringRef name,
                    ArrayRef<std::string> targetDirs) {
  std::string tname = name.str();
  if (tname.empty())
    if (auto attr = module->getAttrOfType<StringAttr>(graph::kTargetAttr))
      tname = attr.str();
  if (tname.empty())
    return emitError(module.getLoc(),
                     "no target: pass target=NAME or set the module's graph.target");
  target::Registry registry(
      std::vector<std::string>(targetDirs.begin(), targetDirs.end()),
      moduleTargetOverrides(module));
  target::Target t;
  std::string err;
  if (registry.find(tname, t, err) != Status::Ok)
    return emitError(module.getLoc()) << err;
  setModuleTarget(module, t);
  return t;
}

void dfa::setModuleTarget(ModuleOp module, const target::Target &t) {
  module->setAttr(graph::kTargetAttr, StringAttr::get(module.getContext(), t.name));
  if (t.overrides.empty()) {
    module->removeAttr(graph::kTargetOverridesAttr);
    return;
  }
  SmallVector<Attribute> kv;
  for (const target::Override &o : t.overrides)
    kv.push_back(StringAttr::get(module.getContext(), o.key + "=" + o.text));
  module->setAttr(graph::kTargetOverridesAttr,
                  ArrayAttr::get(module.getContext(), kv));
}

std::vector<std::string> dfa::moduleTargetOverrides(ModuleOp module) {
  std::vector<std::string> out;
  if (auto a = module->getAttrOfType<ArrayAttr>(graph::kTargetOverridesAttr))
    for (Attribute e : a)
      if (auto s = dyn_cast<StringAttr>(e))
        out.push_back(s.str());
  return out;
}

TensorLayout dfa::layoutFor(const target::Target &t, RankedTensorType type,
                            ArrayRef<int64_t> order) {
  return target::Layout::of(t, type.getShape(),
                            elementBytes(type.getElementType()), order)
      .packBits(elementBits(type.getElementType()));
}

bool dfa::movesMinorDim(Operation *op) {
  auto t = dyn_cast<TransposeOp>(op);
  if (!t)
    return false;
  ArrayRef<int64_t> perm = t.getPerm();
  return !perm.empty() && perm.back() != int64_t(perm.size()) - 1;
}

/// Whether transpose `tr` swaps its last two dims and nothing else.
static bool swapsLastTwo(TransposeOp tr) {
  ArrayRef<int64_t> perm = tr.getPerm();
  int64_t r = perm.size();
  if (r < 2 || perm[r - 1] != r - 2 || perm[r - 2] != r - 1)
    return false;
  for (int64_t i = 0; i + 2 < r; ++i)
    if (perm[i] != i)
      return false;
  return true;
}

/// Whether reshape `r` keeps its last two dims and only merges or splits
/// the batch dims before them ([B, H, K, N] -> [B*H, K, N]): a product
/// reading through it reads the same matrices.
static bool keepsLastTwo(ReshapeOp r) {
  auto in = cast<RankedTensorType>(r.getInput().getType());
  auto out = cast<RankedTensorType>(r.getType());
  return in.getRank() >= 2 && out.getRank() >= 2 &&
         in.getShape().take_back(2) == out.getShape().take_back(2);
}

static bool compileTimeConstant(Value v, int depth = 0);

bool dfa::foldsIntoProducts(const target::Target &t, Operation *op) {
  auto tr = dyn_cast<TransposeOp>(op);
  // A transpose of a value computed from weights and constants alone is
  // folded on any target: the compiler stores the weight in the layout its
  // product reads, once, when the program is built (the experts' [E, N, K]
  // weights of onnxruntime's MoE, read [E, K, N] by a grouped product).
  if (!tr || tr->use_empty() || !swapsLastTwo(tr) ||
      !(t.caps.transposeFolding || compileTimeConstant(tr.getInput())))
    return false;
  // One product reads it (as one or both operands), perhaps through views
  // of its batch dims (torch's k.transpose(-2, -1) then a view merging
  // batch and heads before bmm): it is then a part of that product's
  // kernel. Several would each need a copy.
  Value v = tr.getResult();
  while (v.hasOneUse()) {
    auto r = dyn_cast<ReshapeOp>(*v.getUsers().begin());
    if (!r || !keepsLastTwo(r))
      break;
    v = r.getResult();
  }
  if (v.use_empty()) // a view no op reads
    return false;
  Operation *reader = v.getUses().begin()->getOwner();
  return llvm::all_of(v.getUses(), [&](OpOperand &use) {
    return use.getOwner() == reader && isa<MatMulOp, GemmOp, GroupedMatMulOp>(reader) &&
           use.getOperandNumber() < 2;
  });
}

bool dfa::isRelayout(const target::Target &t, Operation *op) {
  return t.caps.relayoutMinorDim && movesMinorDim(op) && !foldsIntoProducts(t, op);
}

bool dfa::minorTied(const target::Target &t) {
  // Whether the target's layout stores the minor dim in sticks, tiles or
  // vectors: Layout::of decides, for any element type.
  target::Layout::Kind k = target::Layout::of(t, {1}, 4).kind;
  return k == target::Layout::Kind::Stick || k == target::Layout::Kind::Tile ||
         k == target::Layout::Kind::Vector;
}

/// Whether `op` (a kernel or a single op) works on feature maps: a
/// convolution, a pooling window or a per-channel normalization.
static bool isSpatial(Operation *op) {
  if (!op)
    return false;
  auto spatial = [](Operation *o) {
    OpClass c = classify(o);
    return c == OpClass::Conv || c == OpClass::Window ||
           isa<GlobalAvgPoolOp, GlobalMaxPoolOp, BatchNormOp, InstanceNormOp>(o);
  };
  if (auto k = dyn_cast<KernelOp>(op))
    return llvm::any_of(k.getBlock(), [&](Operation &o) { return spatial(&o); });
  return spatial(op);
}

/// Feature maps' channels-last order (dimOrder), empty where there is none.
SmallVector<int64_t> dfa::featureMapOrder(const target::Target &t, Value v) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  // Feature maps of 2-D and 3-D convolutions: [N, C, spatial...].
  int64_t rank = type ? type.getRank() : 0;
  if ((rank != 4 && rank != 5) || !minorTied(t))
    return {};
  Operation *def = v.getDefiningOp();
  bool spatial = isSpatial(def) ||
                 llvm::any_of(v.getUsers(), [](Operation *u) { return isSpatial(u); });
  bool resident = isa_and_nonnull<WeightOp, ConstantOp>(def);
  // N, the spatial dims, C (a weight: the spatial dims, I, O).
  SmallVector<int64_t> channelsLast{0}, weights;
  for (int64_t d = 2; d < rank; ++d) {
    channelsLast.push_back(d);
    weights.push_back(d);
  }
  channelsLast.push_back(1);
  weights.append({1, 0});
  // Unless the channels are so few that channels-last stores twice the
  // bytes the identity order does (a one- or three-channel image in
  // 320-element vectors or 128-wide tiles would be stored 40 to 300 times
  // over): then the spatial dims stay minor.
  auto fits = [&](ArrayRef<int64_t> order) {
    return layoutFor(t, type, order).bytes < 2 * layoutFor(t, type).bytes;
  };
  if (spatial && resident)
    return fits(weights) ? weights : SmallVector<int64_t>(); // OIHW stored HWIO
  if (spatial)
    return fits(channelsLast) ? channelsLast : SmallVector<int64_t>(); // NCHW stored NHWC
  // A feature map no window touches (RoI features on their way to a linear
  // head): channels-last too when it stores at most half the bytes, as
  // when a 7-wide minor dim would fill 320-element vectors. Below that,
  // the saving does not pay for the relayout a consumer may need.
  if (!resident && 2 * layoutFor(t, type, channelsLast).bytes <= layoutFor(t, type).bytes)
    return channelsLast;
  return {};
}

SmallVector<int64_t> dfa::dimOrder(const target::Target &t, Value v) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  if (!type)
    return {};
  return refinedOrder(t, type, featureMapOrder(t, v),
                      isa_and_nonnull<WeightOp, ConstantOp>(v.getDefiningOp()));
}

SmallVector<int64_t> dfa::refinedOrder(const target::Target &t, RankedTensorType type,
                                       ArrayRef<int64_t> order, bool resident) {
  int64_t rank = type.getRank();
  if (rank < 2 || !minorTied(t))
    return SmallVector<int64_t>(order);
  ArrayRef<int64_t> shape = type.getShape();
  if (llvm::none_of(shape, [](int64_t d) { return d > 1; }))
    return SmallVector<int64_t>(order);
  SmallVector<int64_t> o(order);
  if (o.empty())
    for (int64_t d = 0; d < rank; ++d)
      o.push_back(d);
  // A weight or constant is laid out once, at load, however the compiler
  // likes: a size-1 minor dim goes major ([736, 328, 1, 1], a 1x1
  // convolution's weight read through a reshape, would fill a
  // 320-element vector, a 128-wide tile or a stick per element). Values
  // kernels write keep a size-1 minor dim, as XLA pads a TPU value's
  // trailing 1 to the lanes (its consumers broadcast it along them).
  // Where a tile spans the two minor dims (a TPU), size-1 dims go major
  // from second-minor ([B, 1, K], a decode step's activations and
  // attention scores, would fill one row of each tile). Moving a size-1
  // dim moves no element, so no kernel relayouts for it, and XLA chooses
  // the layouts of the values between its fusions (layout assignment;
  // tensorflow#30803 shows f32[32,256,64,32]{3,0,2,1}, the batch dim
  // second-minor).
  bool tile = target::Layout::of(t, {1}, 4).kind == target::Layout::Kind::Tile;
  bool unitMinor = resident && shape[o.back()] == 1;
  if (unitMinor || (tile && rank >= 3 && shape[o[rank - 2]] == 1)) {
    SmallVector<int64_t> moved;
    for (int64_t d : o)
      if (shape[d] == 1)
        moved.push_back(d);
    bool keepMinor = !unitMinor;
    for (int64_t d : keepMinor ? ArrayRef<int64_t>(o).drop_back() : ArrayRef<int64_t>(o))
      if (shape[d] != 1)
        moved.push_back(d);
    if (keepMinor)
      moved.push_back(o.back());
    o = moved;
  }
  // A minor dim narrower than the granule gives its place to the largest
  // dim when that stores at most half the bytes: for a weight or constant
  // (a [4096, 2] classifier weight) always; for a value a kernel writes
  // always where moving the minor dim costs no relayout (the LPU, whose
  // compiler chooses every layout and whose switch slices transpose in
  // the stream: attention heads of 64 or 128 in 320-element vectors,
  // stored five or 2.5 times over, are stored with the sequence minor);
  // elsewhere only where its layout stores it 8 times over or more
  // ([224, 224, 2] gather coordinates), not a head dim of 64 in a TPU's
  // 128 lanes, which XLA pads (2x).
  int64_t largest = o.back();
  for (int64_t d : o)
    if (shape[d] > shape[largest])
      largest = d;
  TensorLayout current = layoutFor(t, type, o);
  bool wasteful = resident || !t.caps.relayoutMinorDim ||
                  (shape[o.back()] > 1 && current.bytes >= 8 * current.logicalBytes());
  if (wasteful && largest != o.back()) {
    SmallVector<int64_t> swapped;
    for (int64_t d : o)
      if (d != largest)
        swapped.push_back(d);
    swapped.push_back(largest);
    if (2 * layoutFor(t, type, swapped).bytes <= current.bytes)
      o = swapped;
  }
  for (int64_t d = 0; d < rank; ++d)
    if (o[d] != d)
      return o;
  return {};
}

/// The graph input a KV-cache append grows into `v` (v the concat of that
/// input and the new rows, in a kernel or not), or null.
static Value grownCache(Value v) {
  Operation *def = v.getDefiningOp();
  if (auto k = dyn_cast_or_null<KernelOp>(def)) {
    auto yield = cast<YieldOp>(k.getBlock().getTerminator());
    auto concat = yield->getOperand(cast<OpResult>(v).getResultNumber())
                      .getDefiningOp<ConcatOp>();
    auto arg = concat ? dyn_cast<BlockArgument>(concat->getOperand(0)) : BlockArgument();
    if (!arg || arg.getOwner() != &k.getBlock())
      return {};
    Value in = k.getInputs()[arg.getArgNumber()];
    return isa<BlockArgument>(in) ? in : Value();
  }
  if (auto concat = dyn_cast_or_null<ConcatOp>(def)) {
    Value in = concat->getOperand(0);
    return isa<BlockArgument>(in) && isa<func::FuncOp>(in.getParentBlock()->getParentOp())
               ? in
               : Value();
  }
  return {};
}

TensorLayout dfa::layoutOf(const target::Target &t, Value v) {
  auto type = cast<RankedTensorType>(v.getType());
  // A cache grown in place is the cache's buffer: it keeps the cache's
  // layout (a tile chosen for a short cache's second-minor dim stays).
  if (Value cache = grownCache(v);
      cache && cast<RankedTensorType>(cache.getType()).getRank() == type.getRank())
    return target::Layout::make(layoutOf(t, cache).encoding(), type.getShape(),
                                elementBytes(type.getElementType()));
  return layoutFor(t, type, dimOrder(t, v));
}

bool dfa::sharesRhs(Operation *op) {
  auto mm = dyn_cast<MatMulOp>(op);
  if (!mm)
    return false;
  auto b = cast<RankedTensorType>(mm.getRhs().getType());
  return llvm::all_of(b.getShape().drop_back(std::min<int64_t>(2, b.getRank())),
                      [](int64_t d) { return d == 1; });
}

/// The operand a product reads for `v`, and whether it is stored MN-major
/// given that `v` would be: a transpose of the last two dims is read
/// through, and so are the views of its batch dims between it and the
/// product (foldsIntoProducts).
static std::pair<Value, bool> readThrough(Value v, bool mnMajor) {
  Value x = v;
  while (auto r = x.getDefiningOp<ReshapeOp>()) {
    if (!keepsLastTwo(r) || !r.getInput().hasOneUse())
      break;
    x = r.getInput();
  }
  if (auto tr = x.getDefiningOp<TransposeOp>(); tr && swapsLastTwo(tr))
    return {tr.getInput(), !mnMajor};
  return {v, mnMajor};
}

std::optional<MatmulShape> dfa::matmulShape(Operation *op) {
  MatmulShape s;
  if (auto mm = dyn_cast<MatMulOp>(op)) {
    std::tie(s.lhs, s.lhsMnMajor) = readThrough(mm.getLhs(), false);
    std::tie(s.rhs, s.rhsMnMajor) = readThrough(mm.getRhs(), true);
    auto a = cast<RankedTensorType>(mm.getLhs().getType());
    auto out = cast<RankedTensorType>(mm.getOutput().getType());
    s.k = a.getShape().back();
    auto b = cast<RankedTensorType>(mm.getRhs().getType());
    s.m = a.getRank() >= 2 ? a.getDimSize(a.getRank() - 2) : 1;
    s.n = b.getRank() >= 2 ? b.getShape().back() : 1;
    // A right-hand side every batch shares makes one GEMM over all of the
    // left-hand side's rows, as a linear layer over a batch of sequences
    // runs: [B, 1, K] x [K, N] is a B x K x N product, not B products of
    // one row.
    if (sharesRhs(op) && a.getRank() > 2)
      s.m = a.getNumElements() / std::max<int64_t>(1, s.k);
    else
      s.batch = std::max<int64_t>(
          1, out.getNumElements() / std::max<int64_t>(1, s.m * s.n));
    // One row or column is stored the same either way.
    s.lhsMnMajor &= s.m > 1;
    s.rhsMnMajor &= s.n > 1;
    return s;
  }
  if (auto g = dyn_cast<GroupedMatMulOp>(op)) {
    // Its rows spread evenly over the active groups (graph::activeGroups):
    // that many products of S / groups rows, each with its own matrix.
    std::tie(s.lhs, s.lhsMnMajor) = readThrough(g.getLhs(), false);
    std::tie(s.rhs, s.rhsMnMajor) = readThrough(g.getRhs(), true);
    auto a = cast<RankedTensorType>(g.getLhs().getType());
    auto out = cast<RankedTensorType>(g.getOutput().getType());
    s.batch = graph::activeGroups(g);
    s.m = ceilDiv(graph::groupedRows(g), s.batch);
    s.k = a.getDimSize(1);
    s.n = out.getDimSize(1);
    s.lhsMnMajor &= s.m > 1;
    s.rhsMnMajor &= s.n > 1;
    return s;
  }
  if (auto g = dyn_cast<GemmOp>(op)) {
    auto a = cast<RankedTensorType>(g.getA().getType());
    auto out = cast<RankedTensorType>(g.getOutput().getType());
    s.m = out.getDimSize(0);
    s.n = out.getDimSize(1);
    s.k = a.getDimSize(g.getTransA() ? 0 : 1);
    std::tie(s.lhs, s.lhsMnMajor) = readThrough(g.getA(), g.getTransA());
    std::tie(s.rhs, s.rhsMnMajor) = readThrough(g.getB(), !g.getTransB());
    s.lhsMnMajor &= s.m > 1;
    s.rhsMnMajor &= s.n > 1;
    return s;
  }
  return std::nullopt;
}

std::optional<AttentionShape> dfa::attentionShape(Operation *op) {
  auto att = dyn_cast_or_null<AttentionOp>(op);
  if (!att)
    return std::nullopt;
  auto q = cast<RankedTensorType>(att.getQuery().getType());
  auto key = cast<RankedTensorType>(att.getKey().getType());
  auto v = cast<RankedTensorType>(att.getValue().getType());
  if (q.getRank() < 2 || key.getRank() < 2 || v.getRank() < 1 ||
      key.getDimSize(key.getRank() - 2) <= 0 || q.getNumElements() <= 0)
    return std::nullopt;
  AttentionShape s;
  s.queries = q.getDimSize(q.getRank() - 2);
  s.headDim = q.getShape().back();
  s.valueDim = v.getShape().back();
  s.keys = key.getDimSize(key.getRank() - 2);
  s.heads = q.getNumElements() / std::max<int64_t>(1, s.queries * s.headDim);
  s.causal = att.getCausal();
  // GQA: keys broadcast from fewer heads (the repeat of the K/V heads,
  // fused into the kernel) are stored once per K/V head.
  Value stored = att.getKey();
  while (Operation *def = stored.getDefiningOp())
    if (isa<ExpandOp, ReshapeOp>(def))
      stored = def->getOperand(0);
    else
      break;
  int64_t kvRows = cast<RankedTensorType>(stored.getType()).getNumElements() /
                   std::max<int64_t>(1, s.keys * s.headDim);
  if (kvRows > 0 && s.heads % kvRows == 0)
    s.kvGroup = s.heads / kvRows;
  return s;
}

/// Whether `v` is known at compile time: computed from weights and
/// constants only (through the kernels' block arguments to their inputs).
static bool compileTimeConstant(Value v, int depth) {
  if (depth > 16)
    return false;
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    auto k = dyn_cast_or_null<KernelOp>(arg.getOwner()->getParentOp());
    return k && arg.getArgNumber() < k.getInputs().size() &&
           compileTimeConstant(k.getInputs()[arg.getArgNumber()], depth + 1);
  }
  Operation *def = v.getDefiningOp();
  if (!def || isa<KernelOp>(def) || def->getNumRegions() > 0)
    return false;
  if (isa<WeightOp, ConstantOp>(def))
    return true;
  return def->getNumOperands() > 0 &&
         llvm::all_of(def->getOperands(), [&](Value in) {
           return compileTimeConstant(in, depth + 1);
         });
}

bool dfa::readsRuntimeMnMajor(Operation *op) {
  std::optional<MatmulShape> s = matmulShape(op);
  return s && ((s->lhsMnMajor && !compileTimeConstant(s->lhs)) ||
               (s->rhsMnMajor && !compileTimeConstant(s->rhs)));
}

std::optional<MatmulShape> dfa::gemmShape(Operation *op) {
  if (std::optional<MatmulShape> mm = matmulShape(op))
    return mm;
  auto conv = dyn_cast<ConvOp>(op);
  if (!conv)
    return std::nullopt;
  auto out = cast<RankedTensorType>(conv.getOutput().getType());
  auto filter = cast<RankedTensorType>(conv.getFilter().getType());
  int64_t groups = std::max<int64_t>(1, conv.getGroup());
  MatmulShape s;
  s.batch = groups;
  s.m = out.getDimSize(0);
  for (int64_t d = 2; d < out.getRank(); ++d)
    s.m *= out.getDimSize(d);
  s.k = 1;
  for (int64_t d = 1; d < filter.getRank(); ++d)
    s.k *= filter.getDimSize(d);
  s.n = filter.getDimSize(0) / groups;
  return s;
}


target::Work dfa::kernelWork(KernelOp k, Block &body) {
  target::Work w;
  w.matrix = isMatrixKind(k.getKindEnum());
  if (!k.getOutputs().empty()) {
    // The arithmetic's type (a product's operands'), and the result's.
    Type out =
        cast<RankedTensorType>(k.getOutputs()[0].getType()).getElementType();
    Type et = arithmeticType(body, out);
    std::string s;
    llvm::raw_string_ostream os(s);
    et.print(os);
    w.dtype = s;
    w.elementBytes = double(elementBytes(et));
    w.outputElementBytes = double(elementBytes(out));
  }
  if (!w.matrix)
    return w;
  // The GEMM the body performs (on a chunk's slice, for a chunk's copy).
  for (Operation &op : body)
    if (std::optional<MatmulShape> g = gemmShape(&op)) {
      w.batch = g->batch;
      w.m = g->m;
      w.n = g->n;
      w.k = g->k;
      break;
    }
  // Flash attention: its shape, for the tiled model.
  for (Operation &op : body)
    if (std::optional<AttentionShape> a = attentionShape(&op)) {
      w.batch = a->heads;
      w.m = a->queries;
      w.k = a->headDim;
      w.n = a->valueDim;
      w.kvLen = a->keys;
      w.kvGroup = a->kvGroup;
      w.causal = a->causal;
      break;
    }
  // An operand stored MN-major, in the kernel's own products (the body
  // may be a chunk's copy, whose operands are buffers).
  for (Operation &op : k.getBlock())
    if (isa<MatMulOp, GemmOp, GroupedMatMulOp>(op)) {
      w.mnMajorOperand = readsRuntimeMnMajor(&op);
      break;
    }
  // f32 operands on TF32 or bf16 tensor cores (--fp32-matmul); a product
  // of dequantized int8 or float8 operands multiplies in the narrow type.
  if (w.dtype == "f32")
    for (Operation &op : body)
      if (Fp32Matmul mode = fp32MatmulOf(&op); mode != Fp32Matmul::IEEE) {
        w.mathType = graph::name(mode).str();
        break;
      }
  return w;
}
