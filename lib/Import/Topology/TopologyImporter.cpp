//===- TopologyImporter.cpp - SCALE-Sim topologies to the graph dialect ---===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// SCALE-Sim's topology files are comma-separated rows under one header
/// line. SCALE-Sim itself drops the last cell of every row (its files end
/// rows with a comma) and skips blank lines; dfa reads the same files and
/// also rows without the trailing comma, and a `#` comment in that last
/// cell (`1,#dw`). Every malformed row is an error naming its line.
///
//===----------------------------------------------------------------------===//

#include "dfa/Import/Topology.h"

#include "dialects/Graph/GraphOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace mlir;
using namespace dfa;

namespace {

/// More rows than any published topology by far; a bigger file is refused
/// before it is built into IR.
constexpr size_t kMaxLayers = 100000;
/// Dims and element counts: shapes only, but every size the compiler
/// derives from them stays an exact int64.
constexpr int64_t kMaxDim = int64_t(1) << 31;
constexpr int64_t kMaxElements = int64_t(1) << 48;

struct Layer {
  std::string name;
  unsigned line = 0;
  bool gemm = false;
  // GEMM: ifmap [m, k] x filter [k, n].
  int64_t m = 0, n = 0, k = 0;
  // Convolution: ifmap [1, c, h, w], filter [f, c, r, s].
  int64_t h = 0, w = 0, r = 0, s = 0, c = 0, f = 0, strideH = 1, strideW = 1;
  bool depthwise = false;
};

struct Topology {
  bool gemm = false;
  std::vector<Layer> layers;
};

const char *const kGemmColumns[] = {"M", "N", "K"};
const char *const kConvColumns[] = {"IFMAP Height", "IFMAP Width",
                                    "Filter Height", "Filter Width",
                                    "Channels", "Num Filter", "Strides",
                                    "Stride width"};

/// The cells of a row: split at commas and trimmed, less an empty or
/// `#`-comment last cell.
llvm::SmallVector<llvm::StringRef> cellsOf(llvm::StringRef row) {
  llvm::SmallVector<llvm::StringRef> cells;
  row.split(cells, ',');
  for (llvm::StringRef &c : cells)
    c = c.trim();
  if (!cells.empty() && (cells.back().empty() || cells.back().starts_with("#")))
    cells.pop_back();
  return cells;
}

/// Why a topology was refused: the message, and the line it is about (0:
/// the file).
struct Failure {
  std::string message;
  unsigned line = 0;
};

Status parse(llvm::StringRef text, Topology &out, Failure &error) {
  auto fail = [&](unsigned line, const llvm::Twine &message) {
    error = {message.str(), line};
    return Status::InvalidModel;
  };
  llvm::SmallVector<llvm::StringRef> lines;
  text.split(lines, '\n');
  if (lines.empty() || lines.front().trim().empty())
    return fail(1, "expected a SCALE-Sim topology header ('Layer, M, N, K' or "
                   "'Layer name, IFMAP Height, IFMAP Width, Filter Height, "
                   "Filter Width, Channels, Num Filter, Strides')");
  llvm::SmallVector<llvm::StringRef> header = cellsOf(lines.front());
  out.gemm = header.size() >= 4 && header[1].equals_insensitive("M") &&
             header[2].equals_insensitive("N") &&
             header[3].equals_insensitive("K");
  if (!out.gemm && header.size() < 8)
    return fail(1, "the header names " + llvm::Twine(header.size()) +
                       " columns: a GEMM topology starts 'Layer, M, N, K', a "
                       "convolution topology names 8 (layer, ifmap height "
                       "and width, filter height and width, channels, "
                       "filters, strides)");
  llvm::StringSet<> names;
  for (size_t i = 1; i < lines.size(); ++i) {
    unsigned line = unsigned(i + 1);
    llvm::StringRef row = lines[i].trim();
    if (row.empty() || row.starts_with("#"))
      continue;
    if (out.layers.size() == kMaxLayers)
      return fail(line, "more than " + llvm::Twine(kMaxLayers) + " layers");
    llvm::SmallVector<llvm::StringRef> cells = cellsOf(row);
    Layer l;
    l.line = line;
    l.gemm = out.gemm;
    l.name = cells.empty() ? "" : cells.front().str();
    if (l.name.empty())
      return fail(line, "a layer without a name");
    size_t want = out.gemm ? 3 : 7, most = out.gemm ? 3 : 8;
    size_t have = cells.size() - 1;
    if (have < want || have > most)
      return fail(line, "layer '" + l.name + "' has " + llvm::Twine(have) +
                            " values; expected " +
                            (out.gemm ? llvm::Twine("3 (M, N, K)")
                                      : llvm::Twine("7 or 8 (ifmap height and "
                                                    "width, filter height and "
                                                    "width, channels, filters, "
                                                    "one or two strides)")));
    int64_t v[8] = {};
    for (size_t j = 0; j < have; ++j) {
      llvm::StringRef cell = cells[j + 1];
      cell.consume_front("+");
      const char *column = out.gemm ? kGemmColumns[j] : kConvColumns[j];
      if (cell.getAsInteger(10, v[j]) || v[j] < 1 || v[j] >= kMaxDim)
        return fail(line, "layer '" + l.name + "': " + column + " is '" +
                              cells[j + 1] + "'; expected an integer from 1 to " +
                              llvm::Twine(kMaxDim - 1));
    }
    // Unique names: each layer's tensors are named after it.
    std::string base = l.name;
    for (int suffix = 2; !names.insert(l.name).second; ++suffix)
      l.name = base + "_" + std::to_string(suffix);
    auto tooBig = [](std::initializer_list<int64_t> dims) {
      int64_t n = 1;
      for (int64_t d : dims)
        if (__builtin_mul_overflow(n, d, &n) || n > kMaxElements)
          return true;
      return false;
    };
    if (out.gemm) {
      l.m = v[0];
      l.n = v[1];
      l.k = v[2];
      if (tooBig({l.m, l.k}) || tooBig({l.k, l.n}) || tooBig({l.m, l.n}))
        return fail(line, "layer '" + l.name + "' has a tensor of more than 2^48 "
                          "elements");
    } else {
      l.h = v[0];
      l.w = v[1];
      l.r = v[2];
      l.s = v[3];
      l.c = v[4];
      l.f = v[5];
      l.strideH = v[6];
      l.strideW = have == 8 ? v[7] : v[6];
      // As SCALE-Sim (topology_utils.py): a name with DP is depthwise.
      l.depthwise = llvm::StringRef(base).contains("DP");
      if (l.r > l.h || l.s > l.w)
        return fail(line, "layer '" + l.name + "': the " +
                              llvm::Twine(l.r) + "x" + llvm::Twine(l.s) +
                              " filter is larger than the " + llvm::Twine(l.h) +
                              "x" + llvm::Twine(l.w) + " ifmap");
      int64_t filters = l.depthwise ? l.c * l.f : l.f;
      if (tooBig({l.c, l.h, l.w}) || tooBig({filters, l.c, l.r, l.s}) ||
          tooBig({filters, l.h, l.w}))
        return fail(line, "layer '" + l.name + "' has a tensor of more than 2^48 "
                          "elements");
    }
    out.layers.push_back(std::move(l));
  }
  if (out.layers.empty())
    return fail(unsigned(lines.size()), "the topology has no layers");
  return Status::Ok;
}

Status read(llvm::StringRef path, Topology &out, Failure &error) {
  auto buf = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buf) {
    error = {"cannot read '" + path.str() + "': " + buf.getError().message(), 0};
    return Status::IOError;
  }
  return parse((*buf)->getBuffer(), out, error);
}

/// Reads the topology, or reports why not at its line.
Status read(llvm::StringRef path, MLIRContext &ctx, Topology &out) {
  Failure error;
  Status s = read(path, out, error);
  if (s != Status::Ok)
    emitError(FileLineColLoc::get(&ctx, path, error.line, 0)) << error.message;
  return s;
}

} // namespace

ImportResult dfa::importTopology(llvm::StringRef path, MLIRContext &ctx) {
  ctx.loadDialect<graph::GraphDialect, func::FuncDialect>();
  ImportResult result;
  Location fileLoc = FileLineColLoc::get(&ctx, path, 0, 0);
  Topology topo;
  result.status = read(path, ctx, topo);
  if (result.status != Status::Ok)
    return result;
  OpBuilder b(&ctx);
  Type i8 = b.getIntegerType(8);
  auto tensor = [&](llvm::ArrayRef<int64_t> shape) {
    return RankedTensorType::get(shape, i8);
  };
  SmallVector<Type> argTypes;
  for (const Layer &l : topo.layers)
    argTypes.push_back(l.gemm ? tensor({l.m, l.k}) : tensor({1, l.c, l.h, l.w}));
  OwningOpRef<ModuleOp> module = ModuleOp::create(fileLoc);
  (*module)->setAttr(graph::kSourceAttr, b.getStringAttr(path));
  b.setInsertionPointToEnd(module->getBody());
  auto func = b.create<func::FuncOp>(fileLoc, "main",
                                     b.getFunctionType(argTypes, {}));
  Block *entry = func.addEntryBlock();
  b.setInsertionPointToEnd(entry);
  SmallVector<Value> outputs;
  SmallVector<Type> resultTypes;
  for (auto [i, l] : llvm::enumerate(topo.layers)) {
    func.setArgAttr(i, graph::kNameAttr, b.getStringAttr(l.name + ".ifmap"));
    Location loc = NameLoc::get(b.getStringAttr(l.name),
                                FileLineColLoc::get(&ctx, path, l.line, 1));
    Value ifmap = entry->getArgument(i);
    Value out;
    if (l.gemm) {
      Value filter = b.create<graph::WeightOp>(loc, tensor({l.k, l.n}),
                                               l.name + ".filter", "", 0);
      out = b.create<graph::MatMulOp>(loc, ifmap, filter);
    } else {
      int64_t groups = l.depthwise ? l.c : 1;
      Value filter = b.create<graph::WeightOp>(
          loc, tensor({l.f * groups, l.c / groups, l.r, l.s}),
          l.name + ".filter", "", 0);
      // SCALE-Sim's ofmap is ceil((H - R + S) / S) rows (topology_utils.py):
      // a last partial window counts, read past the ifmap's end. The same
      // conv pads the end by what that window reads beyond the ifmap.
      auto endPad = [](int64_t in, int64_t kernel, int64_t stride) {
        int64_t out = (in - kernel + stride + stride - 1) / stride;
        return (out - 1) * stride + kernel - in;
      };
      out = b.create<graph::ConvOp>(
          loc, ifmap, filter, Value(),
          b.getDenseI64ArrayAttr({l.strideH, l.strideW}),
          b.getDenseI64ArrayAttr({0, 0, endPad(l.h, l.r, l.strideH),
                                  endPad(l.w, l.s, l.strideW)}),
          b.getDenseI64ArrayAttr({1, 1}), b.getI64IntegerAttr(groups));
    }
    outputs.push_back(out);
    resultTypes.push_back(out.getType());
  }
  b.create<func::ReturnOp>(fileLoc, outputs);
  func.setFunctionType(b.getFunctionType(argTypes, resultTypes));
  for (auto [i, l] : llvm::enumerate(topo.layers))
    func.setResultAttr(i, graph::kNameAttr, b.getStringAttr(l.name + ".ofmap"));
  if (failed(verify(*module))) {
    emitError(fileLoc) << "imported module failed verification";
    result.status = Status::Internal;
    return result;
  }
  result.module = std::move(module);
  return result;
}

ImportResult dfa::checkTopology(llvm::StringRef path, MLIRContext &ctx,
                                OpCoverage &coverage) {
  ImportResult result;
  Topology topo;
  result.status = read(path, ctx, topo);
  if (result.status != Status::Ok)
    return result;
  coverage.numNodes = int64_t(topo.layers.size());
  for (const Layer &l : topo.layers)
    ++coverage.supported[l.gemm ? "GEMM" : l.depthwise ? "Conv (depthwise)"
                                                      : "Conv"];
  return result;
}

Status dfa::topologyInputs(llvm::StringRef path, std::vector<std::string> &names,
                           std::string &error) {
  Topology topo;
  Failure failure;
  if (Status s = read(path, topo, failure); s != Status::Ok) {
    error = failure.line ? (path + ":" + llvm::Twine(failure.line) + ": " +
                            failure.message).str()
                         : failure.message;
    return s;
  }
  for (const Layer &l : topo.layers)
    names.push_back(l.name + ".ifmap");
  return Status::Ok;
}
