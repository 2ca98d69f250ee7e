//===- ONNXImporter.cpp - ONNX graph to the graph dialect -------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// Model-level import: opset check, topological order, the up-front list of
/// unsupported ops, graph inputs (with --shape and --specialize),
/// initializers (inline constants or weight references), node conversion and
/// import-time folding of all-constant nodes (the shape subgraphs that torch
/// exports), and verification.
///
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "dfa/Reference/Evaluator.h"
#include "dfa/Support/DimExpr.h"
#include "dfa/Support/Limits.h"
#include "dfa/Support/Progress.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/Path.h"

#include <google/protobuf/unknown_field_set.h>
#include <onnx/defs/schema.h>
#include <onnx/shape_inference/implementation.h>

#include <cstring>
#include <optional>
#include <queue>

using namespace mlir;
using namespace dfa;
using namespace dfa::onnximport;

namespace {
std::string nodeName(const onnx::NodeProto &node, size_t index) {
  if (!node.name().empty())
    return node.name();
  return node.op_type() + "_" + std::to_string(index);
}

/// The torch module a node came from, as torch's dynamo exporter records it
/// (ONNX 1.16's NodeProto.metadata_props, field 9, which libonnx 1.12 keeps
/// as an unknown field): `pkg.torch.onnx.name_scopes` lists the scopes down
/// to the node, "['', 'blocks.0', 'blocks.0.fc', 'linear']"; its module is
/// the one before the last. Empty when there is none.
std::string torchModule(const onnx::NodeProto &node) {
  // The entries' bytes: a declared field (libonnx 1.16+) or unknown ones.
  std::vector<std::string> entries;
  const google::protobuf::Reflection *refl = node.GetReflection();
  if (const google::protobuf::FieldDescriptor *f =
          node.GetDescriptor()->FindFieldByNumber(9)) {
    if (f->is_repeated() && f->type() == google::protobuf::FieldDescriptor::TYPE_MESSAGE)
      for (int i = 0; i < refl->FieldSize(node, f); ++i)
        entries.push_back(refl->GetRepeatedMessage(node, f, i).SerializeAsString());
  } else {
    const google::protobuf::UnknownFieldSet &fields = refl->GetUnknownFields(node);
    for (int i = 0; i < fields.field_count(); ++i)
      if (fields.field(i).number() == 9 &&
          fields.field(i).type() == google::protobuf::UnknownField::TYPE_LENGTH_DELIMITED)
        entries.push_back(fields.field(i).length_delimited());
  }
  for (const std::string &bytes : entries) {
    onnx::StringStringEntryProto entry;
    if (!entry.ParseFromString(bytes) || entry.key() != "pkg.torch.onnx.name_scopes")
      continue;
    SmallVector<std::string> scopes;
    llvm::StringRef rest = entry.value();
    while (true) {
      size_t open = rest.find_first_of("'\"");
      if (open == llvm::StringRef::npos)
        break;
      size_t close = rest.find(rest[open], open + 1);
      if (close == llvm::StringRef::npos)
        break;
      scopes.push_back(rest.slice(open + 1, close).str());
      rest = rest.drop_front(close + 1);
    }
    return scopes.size() >= 2 ? scopes[scopes.size() - 2] : "";
  }
  return "";
}

bool isDefaultDomain(llvm::StringRef domain) {
  return domain.empty() || domain == "ai.onnx";
}
} // namespace

Converter dfa::onnximport::converterFor(const onnx::NodeProto &node) {
  if (isDefaultDomain(node.domain())) {
    if (Converter c = converters().lookup(node.op_type()))
      return c;
    return contribConverters().lookup(node.op_type());
  }
  return contribConverters().lookup(node.domain() + "." + node.op_type());
}

namespace {

/// What a run in segments does at a graph break of an `op` node (`node`:
/// its name, for a main-graph node that `--max-dim` may bound).
std::string breakFallback(llvm::StringRef op, llvm::StringRef node) {
  if (op == "NonZero" || op == "Unique" || op == "NonMaxSuppression")
    return node.empty()
               ? "the host computes it from the device's values; what follows "
                 "compiles for its shape"
               : ("the host computes it from the device's values; what "
                  "follows compiles for its shape, or, bounded with `dfa-run "
                  "--max-dim " +
                  node + "=N`, once for N, padded")
                     .str();
  if (op == "If")
    return "the host reads the condition; the next segment holds the taken "
           "branch";
  if (op == "Loop")
    return "the host reads the trip count and the condition, or runs the "
           "Loop where the device computes its condition";
  return "the host reads the value; what follows compiles for it";
}

/// The dim of output `output` of an `op` node whose size is data (the
/// count the host computes), for `--max-dim`; nullopt for none. Unique's
/// Y counts along its `axis` (flattened: dim 0); its inverse indices have
/// the input's size.
std::optional<int64_t> dataDependentDim(const onnx::NodeProto &node,
                                        int output, int64_t rank) {
  const std::string &op = node.op_type();
  if (op == "NonZero")
    return output == 0 ? std::optional<int64_t>(1) : std::nullopt;
  if (op == "NonMaxSuppression")
    return output == 0 ? std::optional<int64_t>(0) : std::nullopt;
  if (op != "Unique" || output == 2)
    return std::nullopt;
  if (output == 0)
    for (const auto &a : node.attribute())
      if (a.name() == "axis" && rank > 0)
        return (a.i() % rank + rank) % rank;
  return 0;
}

/// `t` padded with zeros along `dim` to `size` (zeros are valid indices:
/// what reads the padding computes on real elements, and is discarded).
ref::Tensor padAlong(const ref::Tensor &t, int64_t dim, int64_t size) {
  SmallVector<int64_t> shape(t.shape());
  shape[dim] = size;
  ref::Tensor out(t.dtype(), shape);
  int64_t outer = 1, inner = ref::dtypeSize(t.dtype());
  for (int64_t d = 0; d < dim; ++d)
    outer *= shape[d];
  for (int64_t d = dim + 1; d < t.rank(); ++d)
    inner *= shape[d];
  int64_t from = t.shape()[dim] * inner, to = size * inner;
  for (int64_t o = 0; o < outer; ++o)
    std::memcpy(out.bytes() + o * to, t.bytes() + o * from, size_t(from));
  return out;
}

/// The names `g`'s nodes read from outside it (through nested subgraphs
/// too), added to `out`.
void outerReads(const onnx::GraphProto &g, std::vector<std::string> &out);

/// Every name a node reads: its inputs and the outer names its subgraphs
/// (an If's branches, a Loop's body) read.
void nodeReads(const onnx::NodeProto &n, std::vector<std::string> &out) {
  for (const std::string &in : n.input())
    if (!in.empty())
      out.push_back(in);
  for (const auto &a : n.attribute()) {
    if (a.has_g())
      outerReads(a.g(), out);
    for (const auto &g : a.graphs())
      outerReads(g, out);
  }
}

void outerReads(const onnx::GraphProto &g, std::vector<std::string> &out) {
  llvm::StringSet<> local;
  for (const auto &in : g.input())
    local.insert(in.name());
  for (const auto &init : g.initializer())
    local.insert(init.name());
  for (const auto &n : g.node())
    for (const std::string &o : n.output())
      local.insert(o);
  std::vector<std::string> reads;
  for (const auto &n : g.node())
    nodeReads(n, reads);
  for (std::string &r : reads)
    if (!local.contains(r))
      out.push_back(std::move(r));
}

class Importer {
public:
  Importer(LoadedModel &model, MLIRContext &ctx,
           const ONNXImportOptions &options)
      : m(model), ctx(ctx), opts(options), b(&ctx),
        fileLoc(FileLineColLoc::get(&ctx, model.path, 0, 0)),
        rt(options.runtime), seg(options.segment),
        collecting(options.collectBreaks || (rt && rt->host.empty())) {}

  ImportResult run();
  /// Fills `cov`; returns the opset or failure.
  LogicalResult coverage(OpCoverage &cov);

private:
  InFlightDiagnostic error(Status s) {
    status = s;
    return emitError(fileLoc);
  }
  LogicalResult readOpset();
  LogicalResult orderNodes();
  LogicalResult checkSupported();
  /// Every `--max-dim` name is a NonZero, NonMaxSuppression or Unique
  /// node of the main graph, or one of their bounded outputs.
  LogicalResult checkMaxDims();
  LogicalResult createFunction();
  Value lookup(const std::string &name);
  Value importInitializer(const onnx::TensorProto &init);
  LogicalResult importNode(const onnx::NodeProto &node, size_t index);
  /// collectBreaks: the node's outputs are known only after a break.
  void markAfterBreak(const onnx::NodeProto &node) {
    for (const std::string &out : node.output())
      if (!out.empty())
        afterBreak.insert(out);
  }
  /// A subgraph's nodes (an If's taken branch) imported in place.
  LogicalResult importSubgraph(const onnx::GraphProto &g, ArrayRef<Value> inputs,
                               SmallVectorImpl<Value> &outputs);
  /// The value a graph's or subgraph's output names; null, reported, when
  /// no node makes it.
  Value outputValue(const std::string &name, llvm::StringRef what);
  /// Initializers of subgraphs: their raw data is not at the main graph's
  /// offsets (ModelLoader records those), so they are read, not referenced.
  llvm::SmallPtrSet<const onnx::TensorProto *, 8> subgraphInits;
  /// Names a Trilu node cuts a triangle from: an initializer of one value
  /// there imports as a splat constant (importInitializer).
  llvm::StringSet<> triluInputs;
  void noteTriluInputs(const onnx::GraphProto &g) {
    for (const auto &node : g.node())
      if (node.op_type() == "Trilu" && isDefaultDomain(node.domain()) &&
          node.input_size() > 0)
        triluInputs.insert(node.input(0));
  }
  /// Names nodes of subgraphs that have none, past the main graph's.
  size_t subgraphNodes = 0;
  void foldConstants(Block::iterator from, DenseMap<Value, Value> &replaced);
  void runONNXShapeInference();
  /// The size of a symbolic dim: `NAME`, or a sum of products of names
  /// and integers ("past_sequence_length + 1"), the names bound by --dim.
  std::optional<int64_t> symbolicDim(llvm::StringRef param);
  /// Symbolic dims sized by the values given (valueShapes): the size and
  /// the input it came from.
  std::map<std::string, std::pair<int64_t, std::string>> dimsFromValues;
  /// Records that input `input`'s dim `dim` (named `param`, or unnamed)
  /// was imported as `value` (graph.guards).
  void guard(llvm::StringRef param, llvm::StringRef input, int dim,
             int64_t value);
  SmallVector<NamedAttribute> guards;
  void crossCheck(const onnx::NodeProto &node, Location loc);

  LoadedModel &m;
  MLIRContext &ctx;
  const ONNXImportOptions &opts;
  OpBuilder b;
  Location fileLoc;
  Status status = Status::Ok;
  int64_t opset = 0;
  std::vector<size_t> order;
  llvm::StringMap<Value> values;
  llvm::StringMap<const onnx::TensorProto *> initializers;
  llvm::StringSet<> usedNames;
  /// collectBreaks: the breaks met, and the values known only after one.
  std::vector<GraphBreak> breaks;
  llvm::StringSet<> afterBreak;
  int64_t nodesAfterBreaks = 0;
  /// The static shape each graph input was imported with.
  llvm::StringMap<SmallVector<int64_t>> inputShapes;
  /// Fully static result types that ONNX's own shape inference found.
  llvm::StringMap<RankedTensorType> onnxTypes;
  func::FuncOp func;
  OwningOpRef<ModuleOp> module;

  /// A segment of a run in segments (null: the whole graph).
  const RuntimeValues *rt;
  SegmentInfo *seg;
  /// Go on past graph breaks (collectBreaks, or a device segment).
  bool collecting;
  /// The segment's arguments (run-time values), by argument.
  DenseMap<Value, std::string> runtimeArgs;
  /// Values the host computed while importing this segment.
  std::map<std::string, ref::Tensor> made;
  /// A host segment's constants for run-time values (known already).
  llvm::SmallPtrSet<Operation *, 16> runtimeConstants;
  /// Names a subgraph being imported defines for itself, with depth.
  llvm::StringMap<int> shadowed;
  /// Main-graph nodes this segment imported.
  std::set<size_t> imported;
  /// A run-time value as the segment sees it: an argument of a device
  /// segment, a constant of a host segment.
  Value runtimeInput(const std::string &name, const ref::Tensor &t);
  /// The run-time value behind `v`, if it is one.
  const ref::Tensor *runtimeTensor(Value v) const;
  /// A segment's end: its results are the values it made that a node left
  /// for later (or the graph) reads.
  LogicalResult finishSegment();
  /// Ends the function: returns `outs` named `names`, drops what nothing
  /// uses.
  void returnValues(ArrayRef<Value> outs, ArrayRef<std::string> names);

public:
  /// The import failed at a graph break (a value known only at run time).
  bool brokeAtRuntimeValue = false;
  std::vector<std::pair<std::string, Type>> inputTypes;
  std::vector<std::string> wantSpecialized;
  /// Why the last step failed.
  Status failureStatus() const {
    return status == Status::Ok ? Status::InvalidModel : status;
  }
};
} // namespace

LogicalResult Importer::readOpset() {
  for (const auto &imp : m.model.opset_import())
    if (isDefaultDomain(imp.domain()))
      opset = imp.version();
  bool usesDefault = llvm::any_of(m.model.graph().node(), [](const auto &n) {
    return isDefaultDomain(n.domain());
  });
  if (opset == 0 && usesDefault) {
    error(Status::InvalidModel) << "model imports no version of the default "
                                   "ONNX operator set";
    return failure();
  }
  if (opset > newestOpset()) {
    error(Status::Unsupported)
        << "model uses ONNX opset " << opset << "; dfa supports opsets up to "
        << newestOpset();
    return failure();
  }
  return success();
}

LogicalResult Importer::orderNodes() {
  const auto &graph = m.model.graph();
  int n = graph.node_size();
  llvm::StringMap<int> producer;
  for (int i = 0; i < n; ++i)
    for (const std::string &out : graph.node(i).output())
      if (!out.empty())
        producer[out] = i;
  // Kahn's algorithm, always taking the earliest ready node, so a sorted
  // graph keeps its order.
  std::vector<std::vector<int>> users(n);
  std::vector<int> pending(n, 0);
  for (int i = 0; i < n; ++i) {
    for (const std::string &in : graph.node(i).input()) {
      usedNames.insert(in);
      auto it = producer.find(in);
      if (in.empty() || it == producer.end())
        continue;
      users[it->second].push_back(i);
      ++pending[i];
    }
  }
  std::priority_queue<int, std::vector<int>, std::greater<int>> ready;
  for (int i = 0; i < n; ++i)
    if (pending[i] == 0)
      ready.push(i);
  while (!ready.empty()) {
    int i = ready.top();
    ready.pop();
    order.push_back(i);
    for (int u : users[i])
      if (--pending[u] == 0)
        ready.push(u);
  }
  if ((int)order.size() != n) {
    std::string names;
    int listed = 0;
    for (int i = 0; i < n && listed < 5; ++i)
      if (pending[i] > 0) {
        names += (listed++ ? ", '" : "'") + nodeName(graph.node(i), i) + "'";
      }
    error(Status::InvalidModel)
        << "graph has a cycle: " << (n - (int)order.size())
        << " nodes wait on each other (" << names << ")";
    return failure();
  }
  for (const auto &out : graph.output())
    usedNames.insert(out.name());
  return success();
}

LogicalResult Importer::coverage(OpCoverage &cov) {
  if (failed(readOpset()))
    return failure();
  cov.opset = opset;
  const auto &graph = m.model.graph();
  cov.numNodes = graph.node_size();
  for (int i = 0; i < graph.node_size(); ++i) {
    const auto &node = graph.node(i);
    std::string type = isDefaultDomain(node.domain())
                           ? node.op_type()
                           : node.domain() + "." + node.op_type();
    if (converterFor(node))
      ++cov.supported[type];
    else
      cov.unsupported[type].push_back(nodeName(node, i));
  }
  return success();
}

LogicalResult Importer::checkMaxDims() {
  for (const auto &[name, bound] : opts.maxDims) {
    bool found = false;
    const auto &nodes = m.model.graph().node();
    for (int n = 0; n < nodes.size(); ++n) {
      const onnx::NodeProto &node = nodes[n];
      if (!isDefaultDomain(node.domain()))
        continue;
      // By the name the import gives it (`OpType_index` when it has none).
      bool named = nodeName(node, size_t(n)) == name;
      for (int i = 0; i < node.output_size() && !named; ++i)
        named = node.output(i) == name && dataDependentDim(node, i, 1);
      if (named && dataDependentDim(node, 0, 1)) {
        found = true;
        break;
      }
    }
    if (!found) {
      error(Status::Usage)
          << "--max-dim " << name << "=" << bound
          << ": the model has no NonZero, NonMaxSuppression or Unique node "
             "of that name, nor such a node's output with a data-dependent "
             "size";
      return failure();
    }
  }
  return success();
}

LogicalResult Importer::checkSupported() {
  OpCoverage cov;
  if (failed(coverage(cov)))
    return failure();
  if (cov.unsupported.empty())
    return success();
  auto diag = error(Status::Unsupported);
  diag << "model uses " << cov.unsupported.size()
       << " unsupported op type" << (cov.unsupported.size() > 1 ? "s" : "")
       << ":";
  bool first = true;
  std::vector<std::string> host;
  for (const auto &[type, nodes] : cov.unsupported) {
    diag << (first ? " " : "; ") << type << " (" << nodes.size() << " node"
         << (nodes.size() > 1 ? "s" : "") << ": '" << nodes.front() << "'"
         << (nodes.size() > 1 ? ", ..." : "") << ")";
    first = false;
    host.insert(host.end(), nodes.begin(), nodes.end());
  }
  // A compiler with a host fallback would break the graph at each of them.
  llvm::sort(host);
  auto &note = diag.attachNote();
  note << host.size() << " node" << (host.size() > 1 ? "s" : "")
       << " would have to run on the host:";
  for (size_t i = 0; i < host.size() && i < 12; ++i)
    note << (i ? ", '" : " '") << host[i] << "'";
  if (host.size() > 12)
    note << ", ... (dfa-compile --check lists them all)";
  return failure();
}

LogicalResult Importer::createFunction() {
  const auto &graph = m.model.graph();
  for (const auto &init : graph.initializer())
    initializers[init.name()] = &init;
  noteTriluInputs(graph);

  SmallVector<Type> argTypes;
  SmallVector<std::string> argNames;
  for (const auto &input : graph.input()) {
    const std::string &name = input.name();
    if (initializers.count(name) || opts.specialized.count(name))
      continue;
    if (!input.type().has_tensor_type()) {
      error(Status::Unsupported) << "input '" << name
                                 << "' is not a tensor (sequences, maps and "
                                    "optionals are not supported)";
      return failure();
    }
    const auto &tt = input.type().tensor_type();
    Type elt = elementType(tt.elem_type(), &ctx);
    if (!elt) {
      error(Status::Unsupported) << "input '" << name
                                 << "' has unsupported element type "
                                 << onnxTypeName(tt.elem_type());
      return failure();
    }
    SmallVector<int64_t> shape;
    if (rt) {
      // A run in segments: the input is its value, made an argument (or a
      // constant) where a node reads it.
      auto known = rt->values.find(name);
      if (known == rt->values.end()) {
        error(Status::BadInput) << "no value for input '" << name << "'";
        return failure();
      }
      const ref::Tensor &t = known->second;
      bool sameRank = !tt.has_shape() || tt.shape().dim_size() == (int)t.rank();
      bool sameDims = sameRank;
      for (int d = 0; sameRank && tt.has_shape() && d < tt.shape().dim_size(); ++d)
        if (tt.shape().dim(d).has_dim_value() &&
            tt.shape().dim(d).dim_value() != t.shape()[d])
          sameDims = false;
      if (ref::mlirTypeOf(t.dtype(), &ctx) != elt || !sameDims) {
        std::string want;
        llvm::raw_string_ostream os(want);
        if (std::optional<ref::DType> d = ref::dtypeOf(elt))
          os << ref::dtypeName(*d);
        else
          os << elt;
        if (tt.has_shape()) {
          os << "[";
          for (int d = 0; d < tt.shape().dim_size(); ++d) {
            const auto &dim = tt.shape().dim(d);
            os << (d ? "x" : "")
               << (dim.has_dim_value() ? std::to_string(dim.dim_value())
                                       : dim.has_dim_param() ? dim.dim_param()
                                                             : std::string("?"));
          }
          os << "]";
        }
        error(Status::BadInput)
            << "input '" << name << "' is " << ref::dtypeName(t.dtype())
            << "[" << ref::shapeString(t.shape()) << "], the model expects "
            << want;
        return failure();
      }
      inputShapes[name] = SmallVector<int64_t>(t.shape().begin(), t.shape().end());
      continue;
    }
    auto it = opts.shapes.find(name);
    if (it != opts.shapes.end()) {
      if (tt.has_shape() && tt.shape().dim_size() != (int)it->second.size()) {
        error(Status::BadInput)
            << "--shape " << name << " gives " << it->second.size()
            << " dims, the model's input has " << tt.shape().dim_size();
        return failure();
      }
      shape.assign(it->second.begin(), it->second.end());
      if (tt.has_shape())
        for (int d = 0; d < tt.shape().dim_size(); ++d)
          if (!tt.shape().dim(d).has_dim_value())
            guard(tt.shape().dim(d).dim_param(), name, d, shape[d]);
    } else {
      if (!tt.has_shape()) {
        error(Status::InvalidModel) << "input '" << name
                                    << "' has no shape; pass --shape " << name
                                    << "=d0,d1,...";
        return failure();
      }
      for (int d = 0; d < tt.shape().dim_size(); ++d) {
        const auto &dim = tt.shape().dim(d);
        if (dim.has_dim_value() && dim.dim_value() >= 0) {
          shape.push_back(dim.dim_value());
          continue;
        }
        if (dim.has_dim_param() && !opts.dims.empty()) {
          if (std::optional<int64_t> v = symbolicDim(dim.dim_param())) {
            guard(dim.dim_param(), name, d, *v);
            shape.push_back(*v);
            continue;
          }
          if (status != Status::Ok)
            return failure();
        }
        if (auto g = opts.valueShapes.find(name);
            g != opts.valueShapes.end() && (int)g->second.size() == tt.shape().dim_size()) {
          int64_t v = g->second[d];
          if (dim.has_dim_param()) {
            auto [it, fresh] = dimsFromValues.try_emplace(dim.dim_param(), v, name);
            if (!fresh && it->second.first != v) {
              error(Status::BadInput)
                  << "input '" << name << "' is " << v << " in dim " << d << " ('"
                  << dim.dim_param() << "'), where input '" << it->second.second
                  << "' is " << it->second.first;
              return failure();
            }
            guard(dim.dim_param(), name, d, v);
          }
          shape.push_back(v);
          continue;
        }
        auto diag = error(Status::InvalidModel);
        diag << "input '" << name << "' has a dynamic dimension " << d;
        if (dim.has_dim_param())
          diag << " ('" << dim.dim_param() << "'); pass --dim NAME=N for its "
                  "names, or";
        else
          diag << ";";
        diag << " --shape " << name << "=d0,d1,...";
        return failure();
      }
    }
    inputShapes[name] = shape;
    inputTypes.push_back({name, RankedTensorType::get(shape, elt)});
    argTypes.push_back(RankedTensorType::get(shape, elt));
    argNames.push_back(name);
  }
  for (const auto &name : llvm::make_first_range(opts.specialized))
    if (!llvm::any_of(graph.input(),
                      [&](const auto &in) { return in.name() == name; })) {
      error(Status::Usage) << "--specialize names '" << name
                           << "', which is not a graph input";
      return failure();
    }

  module = ModuleOp::create(fileLoc);
  module->getOperation()->setAttr(graph::kSourceAttr, b.getStringAttr(m.path));
  module->getOperation()->setAttr(graph::kOpsetAttr, b.getI64IntegerAttr(opset));
  // What the schedule assumed of its inputs: the dims bound and the values
  // fixed at compile time (a new value of either is a new compile).
  for (const auto &name : llvm::make_first_range(opts.specialized)) {
    // A dim may share the input's name: the input's guard is then its own.
    std::string key = name;
    if (llvm::any_of(guards, [&](NamedAttribute a) { return a.getName().strref() == key; }))
      key = "input " + name;
    guards.push_back(b.getNamedAttr(key, b.getStringAttr("specialized")));
  }
  if (!guards.empty()) {
    llvm::sort(guards, [](NamedAttribute x, NamedAttribute y) {
      return x.getName().strref() < y.getName().strref();
    });
    module->getOperation()->setAttr(graph::kGuardsAttr,
                                    b.getDictionaryAttr(guards));
  }
  b.setInsertionPointToEnd(module->getBody());
  func = b.create<func::FuncOp>(fileLoc, "main",
                                b.getFunctionType(argTypes, {}));
  Block *entry = func.addEntryBlock();
  for (auto [i, name] : llvm::enumerate(argNames)) {
    func.setArgAttr(i, graph::kNameAttr, b.getStringAttr(name));
    values[name] = entry->getArgument(i);
  }
  b.setInsertionPointToEnd(entry);
  for (const auto &[name, tensor] : opts.specialized)
    values[name] = b.create<graph::ConstantOp>(
        NameLoc::get(b.getStringAttr(name), fileLoc),
        ref::tensorToAttr(tensor, &ctx));
  return success();
}

void Importer::guard(llvm::StringRef param, llvm::StringRef input, int dim,
                     int64_t value) {
  // A plain name guards itself; an expression ("past + seq") follows from
  // its names; an unnamed dim is the input's.
  // A param bound whole ("seq-len" by --dim) guards itself too.
  bool name = isDimName(param) || opts.dims.count(param.str());
  std::string key = name ? param.str()
                    : param.empty() ? (input + "[" + llvm::Twine(dim) + "]").str()
                                    : std::string();
  if (key.empty() || llvm::any_of(guards, [&](NamedAttribute a) {
        return a.getName().strref() == key;
      }))
    return;
  guards.push_back(b.getNamedAttr(key, b.getI64IntegerAttr(value)));
}

std::optional<int64_t> Importer::symbolicDim(llvm::StringRef param) {
  DimValue v = evalDimExpr(param, opts.dims);
  if (v.kind == DimValue::Malformed)
    error(Status::BadInput) << "symbolic dim '" << param << "': " << v.detail;
  if (v.kind != DimValue::Value)
    return std::nullopt; // unbound: the caller asks for --dim
  return v.value;
}

void Importer::runONNXShapeInference() {
  // libonnx would infer a newer opset's nodes with its older schemas.
  if (opset > libonnxNewestOpset())
    return;
  // Give the graph inputs the shapes they are imported with, so that
  // inference (with data propagation) reaches static shapes.
  for (auto &input : *m.model.mutable_graph()->mutable_input()) {
    auto it = inputShapes.find(input.name());
    if (it == inputShapes.end() || !input.type().has_tensor_type())
      continue;
    auto *shape = input.mutable_type()->mutable_tensor_type()->mutable_shape();
    shape->clear_dim();
    for (int64_t d : it->second)
      shape->add_dim()->set_dim_value(d);
  }
  try {
    onnx::ShapeInferenceOptions options(/*check_type=*/false, /*error_mode=*/0,
                                        /*data_prop=*/true);
    onnx::shape_inference::InferShapes(m.model, onnx::OpSchemaRegistry::Instance(),
                                       options);
  } catch (const std::exception &e) {
    // A model ONNX cannot infer is still imported; dfa's own inference
    // decides, and the import reports real inconsistencies.
    return;
  }
  auto record = [&](const onnx::ValueInfoProto &vi) {
    if (!vi.type().has_tensor_type() || !vi.type().tensor_type().has_shape())
      return;
    const auto &tt = vi.type().tensor_type();
    SmallVector<int64_t> shape;
    for (const auto &d : tt.shape().dim()) {
      if (!d.has_dim_value())
        return;
      shape.push_back(d.dim_value());
    }
    if (Type elt = elementType(tt.elem_type(), &ctx))
      onnxTypes[vi.name()] = RankedTensorType::get(shape, elt);
  };
  for (const auto &vi : m.model.graph().value_info())
    record(vi);
}

void Importer::crossCheck(const onnx::NodeProto &node, Location loc) {
  for (const std::string &out : node.output()) {
    auto inferred = onnxTypes.find(out);
    auto ours = values.find(out);
    if (inferred == onnxTypes.end() || ours == values.end())
      continue;
    auto type = cast<RankedTensorType>(ours->second.getType());
    if (type.getShape() != inferred->second.getShape())
      emitWarning(loc) << "'" << node.op_type() << "' node '"
                       << cast<NameLoc>(loc).getName().str() << "': output '"
                       << out << "' is " << type
                       << ", ONNX shape inference says " << inferred->second;
  }
}

/// Reads the bytes of one element of an initializer, `width` bytes at
/// `byteOffset` of its data, packed little-endian; nullopt where it cannot.
using ElementProbe =
    llvm::function_ref<std::optional<uint64_t>(size_t byteOffset, size_t width)>;

/// The element sizes these probes look at: a square trailing L x L of
/// floats or bools of at most 64 MiB (what a mask or a constant fill is);
/// 0 for anything else.
static size_t probedWidth(RankedTensorType type) {
  int64_t r = type.getRank();
  Type elt = type.getElementType();
  if (r < 2 || type.getDimSize(r - 1) != type.getDimSize(r - 2) ||
      type.getDimSize(r - 1) < 2 || !(isa<FloatType>(elt) || elt.isInteger(1)) ||
      (graph::elementBits(elt) < 8 && !elt.isInteger(1)) ||
      graph::tensorBytes(type) > (int64_t(64) << 20))
    return 0;
  return size_t(graph::elementBits(elt) + 7) / 8;
}

/// A cheap first look before graph::isCausalMask reads it all: whether a
/// tensor of `type` may be a causal attention mask, from a few of its
/// elements: kept ones (on and below the diagonal) all zero bits or all not
/// (0 added, or a bool's keep) and masked ones (above) the other, at the
/// corners and next to the diagonal. Cheap, so that every square weight can
/// be asked before any is read.
static bool mayBeCausalMask(RankedTensorType type, ElementProbe probe) {
  size_t width = probedWidth(type);
  if (!width)
    return false;
  int64_t L = type.getDimSize(type.getRank() - 1);
  auto zero = [&](int64_t i, int64_t j) -> std::optional<bool> {
    std::optional<uint64_t> v = probe(size_t(i * L + j) * width, width);
    return v ? std::optional<bool>(*v == 0) : std::nullopt;
  };
  std::optional<bool> kept = zero(0, 0);
  if (!kept)
    return false;
  for (auto [i, j] : {std::pair<int64_t, int64_t>{0, 1}, {0, L - 1}})
    if (zero(i, j) != std::optional<bool>(!*kept))
      return false;
  for (auto [i, j] : {std::pair<int64_t, int64_t>{1, 0}, {1, 1}, {L - 1, 0},
                      {L - 1, L - 1}})
    if (zero(i, j) != kept)
      return false;
  return true;
}

/// Whether a tensor of `type` may hold one value everywhere (the ones a
/// causal mask is cut from by Trilu, as torch.onnx exports SDPA's
/// is_causal), from its corners and first off-diagonal elements.
static bool mayBeSplat(RankedTensorType type, ElementProbe probe) {
  size_t width = probedWidth(type);
  if (!width)
    return false;
  int64_t L = type.getDimSize(type.getRank() - 1);
  std::optional<uint64_t> first = probe(0, width);
  if (!first)
    return false;
  for (auto [i, j] : {std::pair<int64_t, int64_t>{0, 1}, {1, 0}, {0, L - 1},
                      {L - 1, 0}, {L - 1, L - 1}})
    if (probe(size_t(i * L + j) * width, width) != first)
      return false;
  return true;
}

/// The file and byte offset of an initializer's `bytes` of external data,
/// when its location is a safe relative path to an existing file and its
/// reference holds them all; nullopt otherwise (the weight path reports
/// why where it needs the bytes).
static std::optional<std::pair<std::string, int64_t>>
externalData(const onnx::TensorProto &init, llvm::StringRef dir, int64_t bytes) {
  auto [location, offset, length] = externalRef(init);
  llvm::SmallString<256> file(dir);
  llvm::sys::path::append(file, location);
  if (location.empty() || offset < 0 || (length >= 0 && length < bytes) ||
      !checkExternalLocation(location).empty() ||
      !llvm::sys::fs::is_regular_file(file))
    return std::nullopt;
  return std::pair{std::string(file), offset};
}

Value Importer::importInitializer(const onnx::TensorProto &init) {
  Location loc = NameLoc::get(b.getStringAttr(init.name()), fileLoc);
  Type elt = elementType(init.data_type(), &ctx);
  if (!elt) {
    error(Status::Unsupported) << "initializer '" << init.name()
                               << "' has unsupported element type "
                               << onnxTypeName(init.data_type());
    return {};
  }
  SmallVector<int64_t> shape(init.dims().begin(), init.dims().end());
  if (llvm::any_of(shape, [](int64_t d) { return d < 0; })) {
    error(Status::InvalidModel) << "initializer '" << init.name()
                                << "' has a negative dimension";
    return {};
  }
  auto type = RankedTensorType::get(shape, elt);
  int64_t bytes = graph::tensorBytes(type);
  bool external = init.data_location() == onnx::TensorProto::EXTERNAL;
  auto rawOffset = m.rawDataOffsets.find(init.name());
  bool inModelFile = !external && rawOffset != m.rawDataOffsets.end() &&
                     init.has_raw_data() && bytes > opts.inlineLimitBytes &&
                     !subgraphInits.contains(&init);
  bool byReference = external || inModelFile;
  // A causal attention mask in the model file stays a constant, with or
  // without --no-weights: passes read its structure (attention's `causal`,
  // which key rows a streamed attention waits for), and its bytes are in the
  // parsed model already.
  // The same for one in an external-data file (torch.onnx.export's dynamo
  // path folds SDPA's is_causal mask into such an initializer): a few
  // elements are read first, so that no square weight is read whole.
  bool causalCandidate = false, splatCandidate = false;
  auto probeWith = [&](ElementProbe probe) {
    causalCandidate = mayBeCausalMask(type, probe);
    splatCandidate = !causalCandidate && triluInputs.contains(init.name()) &&
                     mayBeSplat(type, probe);
  };
  if (inModelFile) {
    const std::string &raw = init.raw_data();
    probeWith([&](size_t at, size_t width) -> std::optional<uint64_t> {
      if (at + width > raw.size())
        return std::nullopt;
      uint64_t v = 0;
      std::memcpy(&v, raw.data() + at, width);
      return v;
    });
  } else if (external) {
    if (auto where = externalData(init, m.dir, bytes)) {
      int fd = -1;
      if (!llvm::sys::fs::openFileForRead(where->first, fd)) {
        llvm::sys::fs::file_t f = llvm::sys::fs::convertFDToNativeFile(fd);
        probeWith([&](size_t at, size_t width) -> std::optional<uint64_t> {
          uint64_t v = 0;
          llvm::Expected<size_t> n = llvm::sys::fs::readNativeFileSlice(
              f, llvm::MutableArrayRef<char>(reinterpret_cast<char *>(&v), width),
              uint64_t(where->second) + at);
          if (!n) {
            llvm::consumeError(n.takeError());
            return std::nullopt;
          }
          return *n == width ? std::optional<uint64_t>(v) : std::nullopt;
        });
        llvm::sys::fs::closeFile(f);
      }
    }
  }
  // One value everywhere, read by a Trilu, becomes a splat constant, whatever
  // its size: the ones torch.onnx cuts a causal mask from (Trilu, Equal,
  // Where), so that graph-raise sees the mask's structure. A weight of one
  // value elsewhere stays a weight.
  if (splatCandidate) {
    ref::Tensor t;
    std::string err;
    size_t width = probedWidth(type);
    if (tensorFromProto(init, m.dir, t, err) == Status::Ok && width &&
        t.byteSize() == size_t(t.numElements()) * width) {
      // Every element's bytes the first's: only then is it made an
      // attribute (which dense storage turns into a splat).
      const uint8_t *at = t.bytes();
      bool same = true;
      for (size_t i = width; same && i < t.byteSize(); i += width)
        same = std::memcmp(at, at + i, width) == 0;
      if (same) {
        auto dense = dyn_cast<DenseElementsAttr>(ref::tensorToAttr(t, &ctx));
        if (dense && dense.isSplat())
          return b.create<graph::ConstantOp>(loc, dense);
      }
    }
  }
  if (causalCandidate) {
    ref::Tensor t;
    std::string err;
    if (tensorFromProto(init, m.dir, t, err) == Status::Ok) {
      ElementsAttr values = ref::tensorToAttr(t, &ctx);
      if (graph::isCausalMask(values) ||
          (elt.isInteger(1) && graph::isCausalMask(values, /*negated=*/true)))
        return b.create<graph::ConstantOp>(loc, values);
    }
  }
  // Without weights, an initializer small enough to be held inline is
  // still read when its external file is there and holds it: the graph and
  // what folds from it (BERT's token-type ids looked up in their table)
  // are then the ones a run with the weights compiles, and so is the time.
  bool readSmall = false;
  if (external && opts.noWeights && bytes <= opts.inlineLimitBytes)
    if (auto data = externalData(init, m.dir, bytes)) {
      uint64_t size = 0;
      readSmall = !llvm::sys::fs::file_size(data->first, size) &&
                  uint64_t(data->second + bytes) <= size;
    }
  if (byReference && opts.noWeights && !readSmall)
    return b.create<graph::WeightOp>(loc, type, init.name(), "", 0);
  // Files pack the sub-byte types; a graph.weight is one element a byte, so
  // those are read and unpacked here instead.
  bool packed = graph::elementBits(elt) < 8 && !elt.isInteger(1); // bool: a byte
  if (external && bytes > opts.inlineLimitBytes && !packed) {
    auto [location, offset, length] = externalRef(init);
    if (std::string bad = checkExternalLocation(location); !bad.empty()) {
      error(Status::InvalidModel) << "initializer '" << init.name() << "': " << bad;
      return {};
    }
    llvm::SmallString<256> file(m.dir);
    llvm::sys::path::append(file, location);
    uint64_t size = 0;
    if (location.empty() || llvm::sys::fs::file_size(file, size)) {
      error(Status::IOError) << "initializer '" << init.name()
                             << "': missing external-data file '" << file
                             << "'";
      return {};
    }
    if (offset < 0 || (length >= 0 && length < bytes) ||
        (uint64_t)(offset + bytes) > size) {
      error(Status::InvalidModel)
          << "initializer '" << init.name() << "': external data '" << file
          << "' holds " << size << " bytes, " << bytes << " needed at offset "
          << offset;
      return {};
    }
    return b.create<graph::WeightOp>(loc, type, init.name(), file, offset);
  }
  if (inModelFile && !packed)
    return b.create<graph::WeightOp>(loc, type, init.name(), m.path,
                                     rawOffset->second);
  ref::Tensor t;
  std::string err;
  Status s = tensorFromProto(init, m.dir, t, err);
  if (s != Status::Ok) {
    error(s) << err;
    return {};
  }
  return b.create<graph::ConstantOp>(loc, ref::tensorToAttr(t, &ctx));
}

Value Importer::lookup(const std::string &name) {
  auto it = values.find(name);
  if (it != values.end())
    return it->second;
  auto init = initializers.find(name);
  if (init == initializers.end()) {
    // A subgraph's own name is not the run-time value of the same name.
    if (rt && shadowed.lookup(name) == 0) {
      auto known = rt->values.find(name);
      if (known != rt->values.end())
        return values[name] = runtimeInput(name, known->second);
    }
    return {};
  }
  Value v = importInitializer(*init->second);
  if (v)
    values[name] = v;
  return v;
}

Value Importer::runtimeInput(const std::string &name, const ref::Tensor &t) {
  Location loc = NameLoc::get(b.getStringAttr(name), fileLoc);
  if (!rt->host.empty()) {
    // A host segment: everything it reads is on the host.
    if (seg)
      seg->reads.push_back({name, ""});
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&func.getBody().front());
    auto c = b.create<graph::ConstantOp>(loc, ref::tensorToAttr(t, &ctx));
    runtimeConstants.insert(c);
    return c;
  }
  auto type = RankedTensorType::get(t.shape(), ref::mlirTypeOf(t.dtype(), &ctx));
  unsigned i = func.getNumArguments();
  func.insertArgument(
      i, type,
      b.getDictionaryAttr(b.getNamedAttr(graph::kNameAttr, b.getStringAttr(name))),
      loc);
  BlockArgument arg = func.getArgument(i);
  runtimeArgs[arg] = name;
  if (seg)
    seg->args.push_back(name);
  return arg;
}

const ref::Tensor *Importer::runtimeTensor(Value v) const {
  auto it = runtimeArgs.find(v);
  if (it == runtimeArgs.end())
    return nullptr;
  if (auto m = made.find(it->second); m != made.end())
    return &m->second;
  auto known = rt->values.find(it->second);
  return known == rt->values.end() ? nullptr : &known->second;
}

void Importer::foldConstants(Block::iterator from,
                             DenseMap<Value, Value> &replaced) {
  ref::foldConstantOps(*b.getInsertionBlock(), from, opts.foldLimitElements, &replaced);
}

LogicalResult Importer::importNode(const onnx::NodeProto &node, size_t index) {
  std::string name = nodeName(node, index);
  // The node, in its torch module where the exporter recorded one (as the
  // FX importer nests them: node(module(file))).
  std::string module = torchModule(node);
  Location loc = NameLoc::get(
      b.getStringAttr(name),
      module.empty() ? fileLoc
                     : Location(NameLoc::get(b.getStringAttr(module), fileLoc)));
  // A run in segments: what earlier segments ran is known, and a host
  // segment imports only its own nodes.
  bool mainNode = index < size_t(m.model.graph().node_size());
  if (rt && mainNode &&
      (rt->done.count(index) || (!rt->host.empty() && !rt->host.count(index))))
    return success();
  // Past a break, a node that reads what it made (itself or in a subgraph)
  // is compiled only once the host's values are known: skipped here.
  if (collecting) {
    std::vector<std::string> reads;
    nodeReads(node, reads);
    if (llvm::any_of(reads, [&](const std::string &in) {
          return afterBreak.contains(in);
        })) {
      markAfterBreak(node);
      ++nodesAfterBreaks;
      return success();
    }
  }
  // The main graph's nodes were checked up front (checkSupported); a
  // subgraph's are met here.
  Converter convert = converterFor(node);
  if (!convert) {
    error(Status::Unsupported)
        << "'" << node.op_type() << "' node '" << name << "' is not supported";
    return failure();
  }
  // The node must match its ONNX schema (input and output counts, required
  // inputs and attributes, attribute types) before a converter sees it.
  bool standard = isDefaultDomain(node.domain()) &&
                  converters().count(node.op_type());
  if (std::optional<std::string> what = standard
                                            ? checkSignature(node, opset)
                                            : checkContribSignature(node)) {
    auto diag = error(Status::InvalidModel)
                << "'" << node.op_type() << "' node '" << name
                << "' does not match the ";
    if (standard)
      diag << "opset-" << opset;
    else
      diag << "onnxruntime";
    diag << " schema: " << *what;
    return failure();
  }
  SmallVector<Value> inputs;
  for (const std::string &in : node.input()) {
    if (in.empty()) {
      inputs.push_back({});
      continue;
    }
    Value v = lookup(in);
    if (!v) {
      if (status == Status::Ok)
        error(Status::InvalidModel)
            << "'" << node.op_type() << "' node '" << name << "' uses '" << in
            << "', which no node, graph input or initializer defines";
      return failure();
    }
    inputs.push_back(v);
  }
  // The OCP minifloats (FP4, FP6, E8M0) only convert and move: ONNX allows
  // them in these ops, and the converters of the others assume a builtin
  // float or integer.
  static const llvm::StringSet<> minifloatOps = {
      "Cast", "CastLike", "Identity", "Reshape", "Flatten", "Squeeze",
      "Unsqueeze", "Transpose", "Shape", "Size", "QuantizeLinear",
      "DequantizeLinear", "BitCast", "Pad"};
  for (Value v : inputs)
    if (v) {
      Type e = cast<RankedTensorType>(v.getType()).getElementType();
      if (graph::isFloatElement(e) && !isa<FloatType>(e) &&
          !minifloatOps.contains(node.op_type())) {
        error(Status::Unsupported)
            << "'" << node.op_type() << "' node '" << name
            << "' is not supported on " << e
            << " (dfa converts and moves the FP4, FP6 and E8M0 minifloats: "
               "Cast, CastLike, Quantize/DequantizeLinear, Reshape, "
               "Transpose, Pad and the like)";
        return failure();
      }
    }
  Block *block = b.getInsertionBlock();
  Operation *last = block->empty() ? nullptr : &block->back();
  NodeContext nc(node, loc, b, opset, std::move(inputs), status,
                 opts.foldLimitElements);
  nc.wantSpecialized = &wantSpecialized;
  if (rt)
    nc.runtimeValue = [this, name](Value v) -> const ref::Tensor * {
      const ref::Tensor *t = runtimeTensor(v);
      if (t && seg) {
        std::string value = runtimeArgs.lookup(v);
        if (!llvm::any_of(seg->reads, [&](const SegmentInfo::Read &r) {
              return r.value == value && r.node == name;
            }))
          seg->reads.push_back({value, name});
      }
      return t;
    };
  nc.importSubgraph = [this](const onnx::GraphProto &g, ArrayRef<Value> ins,
                             SmallVectorImpl<Value> &outs) {
    return importSubgraph(g, ins, outs);
  };
  SmallVector<Value> results;
  LogicalResult converted = failure();
  std::string message; // collectBreaks: the converter's first error
  {
    std::optional<ScopedDiagnosticHandler> quiet;
    if (collecting)
      quiet.emplace(&ctx, [&](Diagnostic &d) {
        if (message.empty() && d.getSeverity() == DiagnosticSeverity::Error)
          message = d.str();
        return success();
      });
    graph::LenientInference lenient;
    size_t wanted = wantSpecialized.size(), breaksBefore = breaks.size();
    size_t readsBefore = seg ? seg->reads.size() : 0;
    int64_t skippedBefore = nodesAfterBreaks;
    Status before = status;
    converted = convert(nc, results);
    brokeAtRuntimeValue |= failed(converted) && nc.needsRuntimeValue;
    // A node that broke read nothing the segment needs.
    if (failed(converted) && collecting && seg)
      seg->reads.resize(readsBefore);
    if (failed(converted) && collecting && nc.needsRuntimeValue) {
      // A graph break: recorded, and what depends on it skipped.
      std::vector<std::string> inputs;
      for (auto it = wantSpecialized.begin() + wanted; it != wantSpecialized.end(); ++it)
        if (!llvm::is_contained(inputs, *it))
          inputs.push_back(*it);
      breaks.push_back({name, node.op_type(), message, std::move(inputs),
                        breakFallback(node.op_type(), mainNode ? name : "")});
      status = before;
      markAfterBreak(node);
      if (mainNode && seg)
        seg->breakNodes.push_back(index);
      return success();
    }
    if (failed(converted) && collecting &&
        (breaks.size() > breaksBefore || nodesAfterBreaks > skippedBefore)) {
      // A subgraph (an If's branch) met a break: the node is after it.
      status = before;
      markAfterBreak(node);
      ++nodesAfterBreaks;
      if (mainNode && seg)
        seg->breakNodes.push_back(index);
      return success();
    }
  }
  if (failed(converted) && !message.empty())
    emitError(loc) << message; // not a break: the error it was
  if (failed(converted)) {
    if (status == Status::Ok)
      status = Status::InvalidModel;
    return failure();
  }
  if (const onnx::AttributeProto *a = nc.unreadAttr()) {
    error(Status::Unsupported)
        << "'" << node.op_type() << "' node '" << name << "': attribute '"
        << a->name() << "' is not supported (opset " << opset << ")";
    return failure();
  }
  // Verify what the node became here, so that an inconsistency the
  // converter did not catch is reported at this node, not as a broken
  // module at the end.
  for (Operation &op : llvm::make_range(
           last ? std::next(Block::iterator(last)) : block->begin(), block->end()))
    if (failed(graph::verifyTensorSizes(&op)) ||
        failed(verify(&op, /*verifyRecursively=*/false))) {
      emitError(loc) << "'" << node.op_type() << "' node '" << name
                     << "' is inconsistent (see the error above)";
      status = Status::InvalidModel;
      return failure();
    }
  for (int i = 0; i < node.output_size(); ++i) {
    const std::string &out = node.output(i);
    if (out.empty())
      continue;
    if (i < (int)results.size() && results[i]) {
      values[out] = results[i];
      continue;
    }
    if (usedNames.count(out)) {
      error(Status::Unsupported) << "'" << node.op_type() << "' node '" << name
                                 << "': output " << i << " ('" << out
                                 << "') is not supported";
      return failure();
    }
  }
  // A device segment: what a node computed from values it read on the
  // host (NonZero of a device value) is the host's; the segment takes it
  // as an argument, and what uses it runs on the device.
  // (A subgraph's node keeps its constant: its names are its own.)
  if (rt && rt->host.empty() && nc.readRuntime && mainNode) {
    DenseMap<Operation *, Value> argOf;
    // The constant `c` as the host's value `value`: an argument.
    // `output`: the node's output it is (-1: a table the converter made).
    auto hostValue = [&](const std::string &value, graph::ConstantOp c,
                         int output) -> FailureOr<Value> {
      ref::Tensor t = ref::tensorFromAttr(c.getValue());
      SegmentInfo::Made mv{value, name, node.op_type(), t};
      std::optional<int64_t> dim =
          output < 0 ? std::nullopt : dataDependentDim(node, output, t.rank());
      auto bound = opts.maxDims.find(value);
      if (bound == opts.maxDims.end())
        bound = opts.maxDims.find(name);
      if (dim && *dim < t.rank() && bound != opts.maxDims.end()) {
        mv.dim = *dim;
        mv.bound = bound->second;
        mv.count = t.shape()[*dim];
        if (mv.count > mv.bound) {
          // XLA's bound check: the padded buffer cannot hold the result.
          emitError(NameLoc::get(b.getStringAttr(name), fileLoc))
              << "'" << node.op_type() << "' node '" << name << "': output '"
              << value << "' has " << mv.count << " along dim " << *dim
              << ", past its bound --max-dim " << bound->first << "="
              << mv.bound;
          status = Status::RuntimeError;
          return failure();
        }
        if (opts.padBounded) {
          // The padded value, and the segment's values padded alike.
          double bytes = double(ref::dtypeSize(t.dtype())) * double(mv.bound);
          for (int64_t d = 0; d < t.rank(); ++d)
            if (d != *dim)
              bytes *= double(t.shape()[d]);
          if (!limits::fits(bytes)) {
            emitError(NameLoc::get(b.getStringAttr(name), fileLoc))
                << "--max-dim " << bound->first << "=" << mv.bound
                << " pads output '" << value << "' to "
                << limits::formatSize(bytes) << ", " << limits::overBudget();
            status = Status::LimitExceeded;
            return failure();
          }
          t = mv.tensor = padAlong(t, *dim, mv.bound);
        }
      }
      made[value] = t;
      if (seg)
        seg->made.push_back(std::move(mv));
      return runtimeInput(value, t);
    };
    for (int i = 0; i < node.output_size() && i < (int)results.size(); ++i) {
      const std::string &out = node.output(i);
      auto c = results[i] ? results[i].getDefiningOp<graph::ConstantOp>()
                          : graph::ConstantOp();
      // Only a constant the node made: one from before stays what it is.
      if (out.empty() || !c || c->getBlock() != block ||
          (last && !last->isBeforeInBlock(c)))
        continue;
      Value &arg = argOf[c];
      if (!arg) {
        FailureOr<Value> v = hostValue(out, c, i);
        if (failed(v))
          return failure();
        arg = *v;
      } else if (seg) {
        seg->aliases.push_back({out, runtimeArgs.lookup(arg)});
      }
      results[i] = arg;
      values[out] = arg;
    }
    // The tables the converter computed from what it read.
    for (auto [k, op] : llvm::enumerate(nc.hostConstants)) {
      Value &arg = argOf[op];
      if (!arg) {
        FailureOr<Value> v = hostValue(name + "#host" + std::to_string(k),
                                       cast<graph::ConstantOp>(op), -1);
        if (failed(v))
          return failure();
        arg = *v;
      }
    }
    for (auto [op, arg] : argOf) {
      op->getResult(0).replaceAllUsesWith(arg);
      op->erase();
    }
  }
  if (mainNode)
    imported.insert(index);
  DenseMap<Value, Value> replaced;
  foldConstants(last ? std::next(Block::iterator(last)) : block->begin(),
                replaced);
  // Folding replaced results: point the names at the constants.
  for (int i = 0; i < node.output_size() && i < (int)results.size(); ++i)
    if (!node.output(i).empty() && replaced.count(results[i]))
      values[node.output(i)] = replaced.lookup(results[i]);

  return success();
}

LogicalResult Importer::importSubgraph(const onnx::GraphProto &g,
                                       ArrayRef<Value> inputs,
                                       SmallVectorImpl<Value> &outputs) {
  if (g.input_size() != int(inputs.size())) {
    error(Status::InvalidModel) << "subgraph '" << g.name() << "' declares "
                                << g.input_size() << " inputs, " << inputs.size()
                                << " are given";
    return failure();
  }
  // The names the subgraph defines are its own: what they meant outside
  // comes back afterwards (sibling branches may reuse a name).
  struct Saved {
    std::string name;
    std::optional<Value> value;
    std::optional<const onnx::TensorProto *> init;
  };
  std::vector<Saved> saved;
  auto shadow = [&](const std::string &name) {
    if (name.empty())
      return;
    Saved s{name, {}, {}};
    if (auto it = values.find(name); it != values.end())
      s.value = it->second;
    if (auto it = initializers.find(name); it != initializers.end())
      s.init = it->second;
    values.erase(name);
    initializers.erase(name);
    ++shadowed[name];
    saved.push_back(std::move(s));
  };
  for (const auto &init : g.initializer())
    shadow(init.name());
  for (const auto &in : g.input())
    shadow(in.name());
  for (const auto &n : g.node())
    for (const std::string &out : n.output())
      shadow(out);
  for (auto [in, v] : llvm::zip(g.input(), inputs))
    values[in.name()] = v;
  for (const auto &init : g.initializer()) {
    initializers[init.name()] = &init;
    subgraphInits.insert(&init);
  }
  noteTriluInputs(g);
  size_t base = size_t(m.model.graph().node_size()) + subgraphNodes;
  subgraphNodes += size_t(g.node_size());
  LogicalResult result = success();
  for (int i = 0; i < g.node_size() && succeeded(result); ++i)
    result = importNode(g.node(i), base + size_t(i));
  for (const auto &out : g.output()) {
    if (failed(result))
      break;
    Value v = outputValue(out.name(), "subgraph");
    if (!v)
      result = failure();
    else
      outputs.push_back(v);
  }
  for (auto it = saved.rbegin(); it != saved.rend(); ++it) {
    --shadowed[it->name];
    values.erase(it->name);
    initializers.erase(it->name);
    if (it->value)
      values[it->name] = *it->value;
    if (it->init)
      initializers[it->name] = *it->init;
  }
  return result;
}

void Importer::returnValues(ArrayRef<Value> outs, ArrayRef<std::string> names) {
  b.create<func::ReturnOp>(fileLoc, outs);
  // Drop what folding left unused (the constants of folded shape
  // computations, initializers only they read).
  SmallVector<Operation *> ops;
  for (Operation &op : func.getBody().front().without_terminator())
    ops.push_back(&op);
  for (Operation *op : llvm::reverse(ops))
    if (op->use_empty() && isPure(op))
      op->erase();
  func.setFunctionType(b.getFunctionType(func.getFunctionType().getInputs(),
                                         ValueRange(outs).getTypes()));
  for (auto [i, name] : llvm::enumerate(names))
    func.setResultAttr(i, graph::kNameAttr, b.getStringAttr(name));
}

LogicalResult Importer::finishSegment() {
  const auto &graph = m.model.graph();
  // What the segment made (not its arguments) that a node it left, or the
  // graph, reads; constants too, so that a later segment knows them.
  std::vector<std::string> wanted;
  for (size_t i : order)
    if (!imported.count(i) && !rt->done.count(i))
      nodeReads(graph.node(int(i)), wanted);
  for (const auto &out : graph.output())
    if (!rt->values.count(out.name()) && !values.count(out.name()))
      lookup(out.name()); // an initializer the graph returns
  for (const auto &out : graph.output())
    wanted.push_back(out.name());
  SmallVector<Value> outs;
  llvm::StringSet<> seen;
  std::vector<std::string> names;
  for (const std::string &name : wanted) {
    auto it = values.find(name);
    if (it == values.end() || !seen.insert(name).second)
      continue;
    if (auto arg = runtimeArgs.find(it->second); arg != runtimeArgs.end()) {
      if (arg->second != name && seg)
        seg->aliases.push_back({name, arg->second});
      continue;
    }
    Operation *def = it->second.getDefiningOp();
    if (runtimeConstants.contains(def))
      continue; // a run-time value the host segment read: known
    if (auto c = dyn_cast_or_null<graph::ConstantOp>(def)) {
      if (seg)
        seg->constants.push_back({name, ref::tensorFromAttr(c.getValue())});
      continue;
    }
    // A large initializer a later node reads is read again there.
    if (isa_and_nonnull<graph::WeightOp>(def) &&
        !llvm::any_of(graph.output(), [&](const auto &o) { return o.name() == name; }))
      continue;
    // A graph input's own value (specialized) is known already.
    if (rt->values.count(name))
      continue;
    outs.push_back(it->second);
    names.push_back(name);
  }
  returnValues(outs, names);
  // Arguments nothing reads (a node that broke after looking one up).
  for (int i = int(func.getNumArguments()) - 1; i >= 0; --i) {
    BlockArgument arg = func.getArgument(unsigned(i));
    if (!arg.use_empty())
      continue;
    std::string name = runtimeArgs.lookup(arg);
    runtimeArgs.erase(arg);
    func.eraseArgument(unsigned(i));
    if (seg)
      llvm::erase(seg->args, name);
  }
  if (seg) {
    seg->left = 0;
    for (size_t i : order)
      seg->left += !imported.count(i) && !rt->done.count(i);
    for (const auto &out : graph.output())
      seg->outputs.push_back(out.name());
    seg->nodes.assign(imported.begin(), imported.end());
    for (size_t i : seg->nodes) {
      seg->nodeNames.push_back(nodeName(graph.node(int(i)), i));
      seg->nodeOps.push_back(graph.node(int(i)).op_type());
    }
    seg->results = names;
    seg->breaks = breaks;
  }
  if (failed(verify(*module))) {
    error(Status::Internal) << "imported segment failed verification";
    return failure();
  }
  return success();
}

Value Importer::outputValue(const std::string &name, llvm::StringRef what) {
  Value v = lookup(name);
  if (!v && status == Status::Ok)
    error(Status::InvalidModel) << what << " output '" << name
                                << "' is not produced by any node";
  return v;
}

ImportResult Importer::run() {
  ImportResult result;
  auto fail = [&] {
    result.status = status == Status::Ok ? Status::InvalidModel : status;
    result.breaks = std::move(breaks); // collectBreaks: the ones found so far
    result.nodesAfterBreaks = nodesAfterBreaks;
    return std::move(result);
  };
  if (failed(checkSupported()) || failed(checkMaxDims()) ||
      failed(orderNodes()) || failed(createFunction()))
    return fail();
  const auto &graph = m.model.graph();
  progress::Task task("importing", int64_t(order.size()));
  for (size_t i : order) {
    task.advance();
    if (failed(importNode(graph.node(i), i)))
      return fail();
  }
  if (rt) {
    if (failed(finishSegment()))
      return fail();
    result.module = std::move(module);
    return result;
  }
  if (opts.collectBreaks && !breaks.empty()) {
    result.breaks = std::move(breaks);
    result.nodesAfterBreaks = nodesAfterBreaks;
    result.status = Status::Unsupported;
    return std::move(result);
  }
  // ONNX's own shape inference as a cross-check, once dfa has accepted
  // every node (libonnx's inference does unchecked arithmetic on what it
  // is given).
  runONNXShapeInference();
  for (size_t i : order)
    crossCheck(graph.node(i),
               NameLoc::get(b.getStringAttr(nodeName(graph.node(i), i)), fileLoc));

  SmallVector<Value> outs;

  for (const auto &out : graph.output()) {
    if (out.has_type() && !out.type().has_tensor_type()) {
      error(Status::Unsupported) << "output '" << out.name()
                                 << "' is not a tensor (sequences, maps and "
                                    "optionals are not supported)";
      return fail();
    }
    Value v = outputValue(out.name(), "graph");
    if (!v)
      return fail();
    outs.push_back(v);
  }
  std::vector<std::string> names;
  for (const auto &out : graph.output())
    names.push_back(out.name());
  returnValues(outs, names);
  if (failed(verify(*module))) {
    error(Status::Internal) << "imported module failed verification";
    return fail();
  }
  result.module = std::move(module);
  return result;
}

ImportResult dfa::importONNX(llvm::StringRef path, MLIRContext &ctx,
                             const ONNXImportOptions &options) {
  ctx.loadDialect<graph::GraphDialect, func::FuncDialect>();
  ImportResult result;
  {
    LoadedModel model;
    std::string err;
    result.status = loadModel(path, model, err);
    if (result.status != Status::Ok) {
      emitError(FileLineColLoc::get(&ctx, path, 0, 0)) << err;
      return result;
    }
    Importer importer(model, ctx, options);
    result = importer.run();
    result.wantSpecialized = importer.wantSpecialized;
    result.graphBreak = importer.brokeAtRuntimeValue;
    result.inputTypes = importer.inputTypes;
  }
  // The parsed protobuf (a copy of every tensor in the file) is gone: its
  // pages go back now, before the run maps the weights.
  limits::returnFreedMemory();
  return result;
}

Status dfa::onnxGraphInputs(llvm::StringRef path,
                            std::vector<std::string> &names,
                            std::string &error) {
  LoadedModel model;
  Status s = loadModel(path, model, error);
  if (s != Status::Ok)
    return s;
  llvm::StringSet<> inits;
  for (const auto &init : model.model.graph().initializer())
    inits.insert(init.name());
  for (const auto &in : model.model.graph().input()) {
    if (inits.count(in.name()))
      continue;
    if (!in.type().has_tensor_type()) {
      error = "input '" + in.name() + "' is not a tensor (sequences, maps "
              "and optionals are not supported)";
      return Status::Unsupported;
    }
    names.push_back(in.name());
  }
  // Non-tensor outputs are the model's problem too, before its data's.
  for (const auto &out : model.model.graph().output())
    if (out.has_type() && !out.type().has_tensor_type()) {
      error = "output '" + out.name() + "' is not a tensor (sequences, maps "
              "and optionals are not supported)";
      return Status::Unsupported;
    }
  return Status::Ok;
}

Status dfa::onnxInputSignatures(llvm::StringRef path,
                               std::vector<GraphInputSignature> &inputs,
                               std::string &error) {
  LoadedModel model;
  Status s = loadModel(path, model, error);
  if (s != Status::Ok)
    return s;
  MLIRContext types; // builtin types only, for their sizes
  llvm::StringSet<> inits;
  for (const auto &init : model.model.graph().initializer())
    inits.insert(init.name());
  for (const auto &in : model.model.graph().input()) {
    if (inits.count(in.name()) || !in.type().has_tensor_type())
      continue;
    GraphInputSignature sig;
    sig.name = in.name();
    const auto &tt = in.type().tensor_type();
    if (Type elt = elementType(tt.elem_type(), &types))
      sig.elementBytes = graph::elementBytes(elt);
    for (const auto &d : tt.shape().dim())
      sig.dims.push_back(d.has_dim_value() ? std::to_string(d.dim_value())
                                           : d.dim_param());
    inputs.push_back(std::move(sig));
  }
  // Window-sized caches: the past buffers of a GroupQueryAttention that
  // keeps its window only ([B, kv_heads, C, head], C at least the window).
  for (const onnx::NodeProto &node : model.model.graph().node()) {
    if (node.op_type() != "GroupQueryAttention" || node.domain() != "com.microsoft")
      continue;
    int64_t windowed = 0, window = 0;
    for (const onnx::AttributeProto &a : node.attribute()) {
      if (a.name() == "sliding_window_cache")
        windowed = a.i();
      else if (a.name() == "local_window_size")
        window = a.i();
    }
    if (!windowed || window < 1)
      continue;
    for (int i : {3, 4})
      for (GraphInputSignature &sig : inputs)
        if (i < node.input_size() && sig.name == node.input(i) && sig.dims.size() == 4)
          sig.window = std::max(sig.window, window);
  }
  return Status::Ok;
}

ImportResult dfa::checkONNX(llvm::StringRef path, MLIRContext &ctx,
                            OpCoverage &coverage) {
  ctx.loadDialect<graph::GraphDialect, func::FuncDialect>();
  LoadedModel model;
  std::string err;
  ImportResult result;
  result.status = loadModel(path, model, err);
  if (result.status != Status::Ok) {
    emitError(FileLineColLoc::get(&ctx, path, 0, 0)) << err;
    return result;
  }
  ONNXImportOptions options;
  Importer imp(model, ctx, options);
  if (failed(imp.coverage(coverage)))
    result.status = imp.failureStatus();
  else if (!coverage.unsupported.empty())
    result.status = Status::Unsupported;
  return result;
}

std::vector<std::string> dfa::supportedONNXOps() {
  std::vector<std::string> ops;
  for (const auto &entry : converters())
    ops.push_back(entry.getKey().str());
  for (const auto &entry : contribConverters())
    ops.push_back(entry.getKey().str());
  llvm::sort(ops);
  return ops;
}
