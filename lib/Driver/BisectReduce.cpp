//===- BisectReduce.cpp - dfa-bisect --reduce: a minimal reproducer ---------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// Delta debugging of a failing graph, keeping the failure's signature
/// (its exit code and the pattern of its first wrong output) at every
/// step:
///   1. the prefix that ends at the first diverging node;
///   2. cuts, from the last node back: a node's results become graph
///      inputs fed the reference's values (the FX minifier's strategy), and
///      whatever only fed them goes;
///   3. shapes: each input dim shrinks to one granule plus the failing
///      remainder (65 stays 65 on 64-element sticks; 300 becomes 108), other
///      dims to 1, when the ops re-infer their types;
///   4. unused inputs go.
/// The result is written as the graph IR (with its source-node locations),
/// its inputs as .npy and run.sh, the one command that fails the same way.
///
//===----------------------------------------------------------------------===//

#include "BisectReduce.h"
#include "Pipeline.h"

#include "dfa/Reference/Evaluator.h"
#include "dfa/Reference/Npy.h"

#include "dialects/Graph/GraphOps.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace dfa;
using namespace dfa::driver;

namespace {

func::FuncOp mainOf(ModuleOp m) { return m.lookupSymbol<func::FuncOp>("main"); }

struct Candidate {
  OwningOpRef<ModuleOp> module;
  SmallVector<ref::Tensor> args;
};

Candidate copyOf(ModuleOp m, ArrayRef<ref::Tensor> args) {
  return {cast<ModuleOp>(m->clone()), SmallVector<ref::Tensor>(args)};
}

/// Removes the ops nothing uses and the inputs nothing reads.
void prune(Candidate &c) {
  func::FuncOp main = mainOf(*c.module);
  SmallVector<Operation *> ops;
  for (Operation &op : main.getBody().front().without_terminator())
    ops.push_back(&op);
  for (Operation *op : llvm::reverse(ops))
    if (op->use_empty())
      op->erase();
  for (unsigned i = main.getNumArguments(); i-- > 0;)
    if (main.getArgument(i).use_empty()) {
      (void)main.eraseArgument(i);
      c.args.erase(c.args.begin() + i);
    }
}

/// `c` with node `index`'s results turned into graph inputs fed the
/// reference's values for them.
std::optional<Candidate> cut(BisectEnv &env, const Candidate &c, size_t index) {
  Candidate n = copyOf(*c.module, c.args);
  func::FuncOp main = mainOf(*n.module);
  ref::EvalOptions keep;
  keep.keepValues = true;
  ref::Evaluator ev(keep);
  if (failed(ev.run(main, n.args)))
    return std::nullopt;
  Operation *node = nodesOf(main)[index];
  llvm::StringSet<> taken;
  for (unsigned i = 0; i < main.getNumArguments(); ++i)
    if (auto n = main.getArgAttrOfType<StringAttr>(i, graph::kNameAttr))
      taken.insert(n.getValue());
  for (auto [k, r] : llvm::enumerate(node->getResults())) {
    // A unique input name: a reproducer's .npy files are matched by it.
    std::string name = nodeName(node);
    if (node->getNumResults() > 1)
      name += "#" + std::to_string(k);
    for (int u = 1; taken.contains(name); ++u)
      name = nodeName(node) + "#" + std::to_string(k) + "." + std::to_string(u);
    taken.insert(name);
    unsigned at = main.getNumArguments();
    main.insertArgument(at, r.getType(), {}, r.getLoc());
    main.setArgAttr(at, graph::kNameAttr, StringAttr::get(main.getContext(), name));
    r.replaceAllUsesWith(main.getArgument(at));
    n.args.push_back(sim::toDeviceFormat(env.target, ev.get(r)));
  }
  prune(n);
  return n;
}

/// The leading part of `t` with shape `shape`.
ref::Tensor slice(const ref::Tensor &t, ArrayRef<int64_t> shape) {
  ref::Tensor out(t.dtype(), shape);
  size_t e = ref::dtypeSize(t.dtype());
  ref::Shape from = ref::rowMajorStrides(t.shape());
  ref::Shape to = ref::rowMajorStrides(shape);
  for (int64_t i = 0, n = out.numElements(); i < n; ++i) {
    int64_t src = 0, rest = i;
    for (size_t d = 0; d < shape.size(); ++d) {
      src += rest / to[d] * from[d];
      rest %= to[d];
    }
    std::memcpy(out.bytes() + i * e, t.bytes() + src * e, e);
  }
  return out;
}

/// `c` with input `arg`'s dim `dim` made `size`, every op's result type
/// inferred again; nullopt when an op cannot infer it.
std::optional<Candidate> reshaped(const Candidate &c, unsigned arg, unsigned dim,
                                  int64_t size) {
  Candidate n = copyOf(*c.module, c.args);
  func::FuncOp main = mainOf(*n.module);
  auto type = cast<RankedTensorType>(main.getArgument(arg).getType());
  SmallVector<int64_t> shape(type.getShape());
  shape[dim] = size;
  main.getArgument(arg).setType(RankedTensorType::get(shape, type.getElementType()));
  for (Operation &op : main.getBody().front().without_terminator()) {
    auto infer = dyn_cast<InferTypeOpInterface>(op);
    if (!infer)
      return std::nullopt;
    SmallVector<Type> types;
    if (failed(infer.inferReturnTypes(op.getContext(), op.getLoc(),
                                      op.getOperands(), op.getAttrDictionary(),
                                      op.getPropertiesStorage(), op.getRegions(),
                                      types)))
      return std::nullopt;
    for (auto [r, t] : llvm::zip(op.getResults(), types))
      r.setType(t);
  }
  Block &body = main.getBody().front();
  main.setType(FunctionType::get(main.getContext(), body.getArgumentTypes(),
                                 body.getTerminator()->getOperandTypes()));
  // A shape the ops reject is just not a candidate.
  ScopedDiagnosticHandler quiet(main.getContext(),
                                [](Diagnostic &) { return success(); });
  if (failed(verify(*n.module)))
    return std::nullopt;
  n.args[arg] = slice(n.args[arg], shape);
  return n;
}

/// Smaller sizes for a dim of `size` that keep its remainder against the
/// granule `g`: one granule plus the remainder (never the remainder alone,
/// which loses the whole granules the fault may need), or one granule.
std::vector<int64_t> smallerSizes(int64_t size, int64_t g, bool minor) {
  std::vector<int64_t> out;
  if (!minor) {
    if (size > 1)
      out.push_back(1);
    return out;
  }
  int64_t r = g > 1 ? size % g : 0;
  int64_t keep = g > 1 ? (r ? g + r : g) : 1;
  if (keep < size)
    out.push_back(keep);
  return out;
}

std::string shellQuote(llvm::StringRef s) {
  std::string out = "'";
  for (char c : s)
    out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

} // namespace

Reduction dfa::driver::reduce(BisectEnv &env, ModuleOp graph,
                              ArrayRef<ref::Tensor> argsStored,
                              std::optional<size_t> firstNode,
                              llvm::function_ref<Signature(ModuleOp, ArrayRef<ref::Tensor>)> check,
                              const Signature &want) {
  Reduction r;
  r.nodesBefore = nodesOf(mainOf(graph)).size();
  Candidate best = copyOf(graph, argsStored);
  auto interesting = [&](const Candidate &c) {
    ++r.checks;
    return check(*c.module, c.args) == want;
  };
  // 1. The prefix at the first diverging node.
  if (firstNode) {
    Candidate p{prefix(graph, *firstNode), SmallVector<ref::Tensor>(argsStored)};
    prune(p);
    if (interesting(p))
      best = std::move(p);
  }
  // 2. Cuts, from the last node back.
  for (size_t j = nodesOf(mainOf(*best.module)).size(); j-- > 0;) {
    size_t count = nodesOf(mainOf(*best.module)).size();
    if (count <= 1)
      break;
    if (j >= count - 1)
      continue; // never the node that makes the result
    if (std::optional<Candidate> c = cut(env, best, j); c && interesting(*c))
      best = std::move(*c);
  }
  // 3. Shapes, keeping the granule remainders.
  r.shapesReduced = false;
  for (unsigned a = 0; a < mainOf(*best.module).getNumArguments(); ++a) {
    auto type = cast<RankedTensorType>(mainOf(*best.module).getArgument(a).getType());
    int64_t g = env.target.minorGranule(graph::elementBytes(type.getElementType()));
    for (unsigned d = 0; d < type.getRank(); ++d) {
      bool minor = d + 1 == unsigned(type.getRank());
      for (int64_t size : smallerSizes(type.getDimSize(d), g, minor)) {
        std::optional<Candidate> c = reshaped(best, a, d, size);
        if (c && interesting(*c)) {
          best = std::move(*c);
          r.shapesReduced = true;
          break;
        }
      }
    }
  }
  // 4. The pipeline: the fewest stages and passes that still fail so.
  int stage = env.stopStage, passes = env.stopPasses;
  r.stopStage = stage;
  r.stopPasses = passes;
  bool found = false;
  for (int s = 1; s <= stage && !found; ++s) {
    size_t count = stagePasses(Stage(s)).size();
    for (size_t n = 1; n <= count && !found; ++n) {
      bool whole = n == count;
      if (s == stage && (passes < 0 ? whole : int(n) >= passes))
        found = true; // the pipeline it failed with: nothing shorter
      if (found)
        break;
      env.stopStage = s;
      env.stopPasses = whole ? -1 : int(n);
      if (interesting(best)) {
        r.stopStage = s;
        r.stopPasses = env.stopPasses;
        found = true;
      }
    }
  }
  env.stopStage = stage;
  env.stopPasses = passes;
  r.nodesAfter = nodesOf(mainOf(*best.module)).size();
  r.module = std::move(best.module);
  r.args = std::move(best.args);
  return r;
}

Status dfa::driver::writeReproducer(const Reduction &r, const BisectOptions &opts,
                                    const std::string &target,
                                    const std::string &verdict, int code,
                                    DiagnosticPrinter &printer) {
  llvm::StringRef dir = opts.reduce;
  if (std::error_code ec = llvm::sys::fs::create_directories(dir)) {
    printer.error("cannot create '" + dir.str() + "': " + ec.message());
    return Status::IOError;
  }
  auto path = [&](llvm::StringRef name) {
    llvm::SmallString<256> p(dir);
    llvm::sys::path::append(p, name);
    return p.str().str();
  };
  std::error_code ec;
  {
    llvm::raw_fd_ostream os(path("repro.mlir"), ec);
    if (ec) {
      printer.error("cannot write '" + path("repro.mlir") + "': " + ec.message());
      return Status::IOError;
    }
    os << "// dfa-bisect reproducer: " << verdict << "\n// Run: sh run.sh\n";
    OpPrintingFlags flags;
    flags.enableDebugInfo(/*enable=*/true, /*prettyForm=*/false);
    ModuleOp m = *const_cast<OwningOpRef<ModuleOp> &>(r.module);
    // run.sh runs from DIR: the weights' files by absolute path.
    m.walk([](graph::WeightOp w) {
      llvm::SmallString<256> abs(w.getFile());
      if (!abs.empty() && !llvm::sys::fs::make_absolute(abs))
        w.setFileAttr(StringAttr::get(w.getContext(), abs));
    });
    m->print(os, flags);
  }
  std::string inputs;
  for (size_t i = 0; i < r.args.size(); ++i) {
    std::string name = "input_" + std::to_string(i) + ".npy", err;
    if (!ref::writeNpy(path(name), r.args[i], err)) {
      printer.error(err);
      return Status::IOError;
    }
    inputs += " " + name;
  }
  std::string self = llvm::sys::fs::getMainExecutable(nullptr, nullptr);
  llvm::raw_fd_ostream sh(path("run.sh"), ec);
  if (ec) {
    printer.error("cannot write '" + path("run.sh") + "': " + ec.message());
    return Status::IOError;
  }
  sh << "#!/bin/sh\n# dfa-bisect reproducer (exits " << code << " when it "
     << "fails the same way): " << verdict << "\ncd \"$(dirname \"$0\")\"\n"
     << "exec \"${DFA_BISECT:-" << self << "}\" repro.mlir --target "
     << shellQuote(target) << (inputs.empty() ? "" : " --inputs" + inputs)
     << " --profile " << opts.profile;
  if (!opts.run.inject.empty())
    sh << " --inject " << shellQuote(opts.run.inject);
  if (opts.run.fp32Matmul != "ieee")
    sh << " --fp32-matmul " << shellQuote(opts.run.fp32Matmul);
  for (const std::string &t : opts.tolerances)
    sh << " --tolerance " << shellQuote(t);
  for (const std::string &d : opts.run.targetDirs) {
    llvm::SmallString<256> abs(d);
    (void)llvm::sys::fs::make_absolute(abs);
    sh << " --target-dir " << shellQuote(abs);
  }
  if (r.stopStage != kSchedStage || r.stopPasses >= 0)
    sh << " --stop-after " << stageName(Stage(r.stopStage))
       << (r.stopPasses >= 0 ? ":" + std::to_string(r.stopPasses) : "");
  sh << " --check \"$@\"\n";
  return Status::Ok;
}
