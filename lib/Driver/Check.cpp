//===- Check.cpp - dfa-compile --check --------------------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// What --check accepts must compile: after the op coverage (every node's
/// type has a converter), the model is imported as dfa-compile imports it
/// (with the same --shape, --dim and --specialize flags), the CPU reference
/// is asked for every imported op, and with --target it is compiled for
/// each target. The first failure of each step is reported with the node
/// it stops at, and its exit code is --check's.
///
//===----------------------------------------------------------------------===//

#include "Capture.h"
#include "ModelFlags.h"
#include "Pipeline.h"

#include "dfa/Reference/Evaluator.h"
#include "dfa/Support/SourceName.h"
#include "dfa/Target/Target.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace dfa;
using namespace dfa::driver;

namespace {

/// One step of the check: where it stopped and why.
struct Step {
  std::string name; // "import", "reference", or a target's name
  Status status = Status::Ok;
  std::string node, message;
  bool ok() const { return status == Status::Ok; }
};

/// Runs `body` as step `step`, keeping its first error and the node it
/// names (warnings and remarks are not --check's to print).
template <typename F>
void runStep(MLIRContext &ctx, Step &step, F body) {
  Captured c;
  step.status = capturing(ctx, c, body);
  step.node = c.node;
  step.message = c.message;
}

struct Report {
  OpCoverage coverage;
  Status coverageStatus = Status::Ok;
  std::vector<Step> steps;
  /// When the import stops at a graph break: every break, past the first.
  std::vector<GraphBreak> breaks;
  int64_t nodesAfterBreaks = 0;
  Status status() const {
    if (coverageStatus != Status::Ok)
      return coverageStatus;
    for (const Step &s : steps)
      if (!s.ok())
        return s.status;
    return Status::Ok;
  }
};

/// Import; when it succeeds, the reference and each target's compile
/// (each whatever the others gave). Fails (printed) only on flags that
/// cannot be used.
Status deepen(const CompileOptions &opts, MLIRContext &ctx,
              DiagnosticPrinter &printer, Report &rep) {
  ONNXImportOptions importOpts;
  if (Status s = buildImportOptions(opts.model, {}, {}, importOpts, printer);
      s != Status::Ok)
    return s;
  std::vector<target::Target> targets;
  if (!opts.target.empty()) {
    target::Registry registry(opts.targetDirs, opts.overrides);
    std::string err;
    if (Status s = registry.resolve(opts.target, targets, err); s != Status::Ok) {
      printer.error(err);
      return s;
    }
  }
  Step imp;
  imp.name = "import";
  ImportResult r;
  runStep(ctx, imp, [&] {
    r = loadModel(opts.model.model, ctx, importOpts);
    return r.status;
  });
  rep.steps.push_back(imp);
  if (imp.status == Status::Unsupported && modelKind(opts.model.model) == ModelKind::ONNX) {
    // Every break, not only the first: the import goes on past each.
    ONNXImportOptions collect = importOpts;
    collect.collectBreaks = true;
    ScopedDiagnosticHandler quiet(&ctx, [](Diagnostic &) { return success(); });
    ImportResult all = loadModel(opts.model.model, ctx, collect);
    rep.breaks = std::move(all.breaks);
    rep.nodesAfterBreaks = all.nodesAfterBreaks;
  }
  if (!imp.ok())
    return Status::Ok;

  Step refStep;
  refStep.name = "reference";
  auto main = r.module->lookupSymbol<func::FuncOp>("main");
  if (Operation *op = main ? ref::firstUnevaluable(main.getBody().front())
                           : nullptr) {
    refStep.status = Status::Unsupported;
    refStep.node = sourceName(op);
    refStep.message = "the CPU reference has no implementation of '" +
                      op->getName().getStringRef().str() + "'";
  }
  rep.steps.push_back(refStep);

  for (const target::Target &t : targets) {
    if (t.caps.reference)
      continue; // the CPU reference: the step above
    Step c;
    c.name = t.name;
    OwningOpRef<ModuleOp> m = cast<ModuleOp>((*r.module)->clone());
    runStep(ctx, c, [&] {
      return runPipeline(*m, t, 0, kSchedStage, opts, printer);
    });
    rep.steps.push_back(c);
  }
  return Status::Ok;
}

void printText(const CompileOptions &opts, const Report &rep) {
  const OpCoverage &cov = rep.coverage;
  int64_t unsupportedNodes = 0;
  for (const auto &entry : cov.unsupported)
    unsupportedNodes += entry.second.size();
  llvm::raw_ostream &os = llvm::outs();
  os << opts.model.model << ": ";
  if (cov.opset)
    os << "opset " << cov.opset << ", ";
  os << cov.numNodes << " nodes, "
     << cov.supported.size() + cov.unsupported.size() << " op types\n";
  if (cov.unsupported.empty()) {
    os << "all op types are supported\n";
  } else {
    os << cov.unsupported.size() << " unsupported op type"
       << (cov.unsupported.size() > 1 ? "s" : "") << " (" << unsupportedNodes
       << " node" << (unsupportedNodes > 1 ? "s" : "") << "):\n";
    for (const auto &[type, nodes] : cov.unsupported) {
      os << "  " << type << ": " << nodes.size() << " node"
         << (nodes.size() > 1 ? "s" : "") << " (";
      for (size_t i = 0; i < nodes.size() && i < 5; ++i)
        os << (i ? ", " : "") << "'" << nodes[i] << "'";
      os << (nodes.size() > 5 ? ", ...)" : ")") << "\n";
    }
  }
  if (!rep.breaks.empty()) {
    os << rep.breaks.size() << " graph break" << (rep.breaks.size() > 1 ? "s" : "")
       << " (values known only at run time: dfa-run splits the graph there "
          "and runs "
       << rep.nodesAfterBreaks << " node" << (rep.nodesAfterBreaks == 1 ? "" : "s")
       << " after them in later segments):\n";
    // The first breaks; --json lists them all.
    const size_t shown = 20;
    for (size_t i = 0; i < rep.breaks.size() && i < shown; ++i) {
      const GraphBreak &b = rep.breaks[i];
      os << "  '" << b.node << "' (" << b.op << "): " << b.fallback;
      if (!b.specialize.empty())
        os << "; to compile it whole, pass --specialize "
           << llvm::join(b.specialize, " --specialize ");
      os << "\n";
    }
    if (rep.breaks.size() > shown)
      os << "  ... " << rep.breaks.size() - shown << " more (--json lists them all)\n";
  }
  for (const Step &s : rep.steps) {
    os << (s.name == "import"      ? "import"
           : s.name == "reference" ? "CPU reference"
                                   : "compile for " + s.name)
       << ": ";
    if (s.ok()) {
      os << "ok\n";
      continue;
    }
    os << "fails";
    if (!s.node.empty())
      os << " at node '" << s.node << "'";
    os << " (exit " << exitCode(s.status) << "): " << s.message << "\n";
  }
}

void printJson(const CompileOptions &opts, const Report &rep) {
  const OpCoverage &cov = rep.coverage;
  llvm::json::OStream j(llvm::outs(), 2);
  j.object([&] {
    j.attribute("schema", "dfa.check/1");
    j.attribute("model", opts.model.model);
    j.attribute("opset", cov.opset);
    j.attribute("nodes", cov.numNodes);
    j.attribute("ok", rep.status() == Status::Ok);
    j.attributeObject("supported", [&] {
      for (const auto &[type, n] : cov.supported)
        j.attribute(type, n);
    });
    j.attributeObject("unsupported", [&] {
      for (const auto &entry : cov.unsupported)
        j.attributeObject(entry.first, [&, &nodes = entry.second] {
          j.attribute("count", (int64_t)nodes.size());
          j.attributeArray("nodes", [&] {
            for (const auto &n : nodes)
              j.value(n);
          });
        });
    });
    j.attributeArray("breaks", [&] {
      for (const GraphBreak &b : rep.breaks)
        j.object([&] {
          j.attribute("node", b.node);
          j.attribute("op", b.op);
          j.attribute("message", b.reason);
          j.attribute("fallback", b.fallback);
          j.attributeArray("specialize", [&] {
            for (const std::string &n : b.specialize)
              j.value(n);
          });
        });
    });
    j.attribute("nodes_after_breaks", rep.nodesAfterBreaks);
    j.attributeArray("steps", [&] {
      for (const Step &s : rep.steps)
        j.object([&] {
          bool compile = s.name != "import" && s.name != "reference";
          j.attribute("step", compile ? std::string("compile") : s.name);
          if (compile)
            j.attribute("target", s.name);
          j.attribute("ok", s.ok());
          if (s.ok())
            return;
          j.attribute("exit", exitCode(s.status));
          if (!s.node.empty())
            j.attribute("node", s.node);
          j.attribute("message", s.message);
        });
    });
  });
  llvm::outs() << "\n";
}

} // namespace

int dfa::driver::checkMain(const CompileOptions &opts, MLIRContext &ctx,
                           DiagnosticPrinter &printer) {
  if (!isImported(modelKind(opts.model.model))) {
    printer.error("--check reads .onnx, .fx.json and .csv models");
    return exitCode(Status::Usage);
  }
  Report rep;
  ImportResult r = checkModel(opts.model.model, ctx, rep.coverage);
  if (r.status != Status::Ok && r.status != Status::Unsupported)
    return exitCode(r.status);
  rep.coverageStatus = r.status;
  if (r.status == Status::Ok)
    if (Status s = deepen(opts, ctx, printer, rep); s != Status::Ok)
      return exitCode(s);
  if (opts.json)
    printJson(opts, rep);
  else
    printText(opts, rep);
  return exitCode(rep.status());
}
