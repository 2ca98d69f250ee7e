//===- Compile.cpp - dfa-compile --------------------------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "dfa/Driver/Driver.h"
#include "dfa/Driver/Tools.h"
#include "ModelFlags.h"

#include "dfa/Target/Target.h"
#include "dfa/Transforms/Passes.h"

#include "mlir/Pass/PassManager.h"

#include "mlir/IR/AsmState.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace dfa;
using namespace dfa::driver;

static int printCoverage(const CompileOptions &opts, const OpCoverage &cov,
                         Status status) {
  int64_t unsupportedNodes = 0;
  for (const auto &entry : cov.unsupported)
    unsupportedNodes += entry.second.size();
  if (opts.json) {
    llvm::json::OStream j(llvm::outs(), 2);
    j.object([&] {
      j.attribute("schema", "dfa.check/1");
      j.attribute("model", opts.model.model);
      j.attribute("opset", cov.opset);
      j.attribute("nodes", cov.numNodes);
      j.attribute("ok", cov.unsupported.empty());
      j.attributeObject("supported", [&] {
        for (const auto &[type, n] : cov.supported)
          j.attribute(type, n);
      });
      j.attributeObject("unsupported", [&] {
        for (const auto &[type, nodes] : cov.unsupported)
          j.attributeObject(type, [&] {
            j.attribute("count", (int64_t)nodes.size());
            j.attributeArray("nodes", [&] {
              for (const auto &n : nodes)
                j.value(n);
            });
          });
      });
    });
    llvm::outs() << "\n";
  } else {
    llvm::outs() << opts.model.model << ": ";
    if (cov.opset)
      llvm::outs() << "opset " << cov.opset << ", ";
    llvm::outs() << cov.numNodes << " nodes, "
                 << cov.supported.size() + cov.unsupported.size()
                 << " op types\n";
    if (cov.unsupported.empty()) {
      llvm::outs() << "all op types are supported\n";
    } else {
      llvm::outs() << cov.unsupported.size() << " unsupported op type"
                   << (cov.unsupported.size() > 1 ? "s" : "") << " ("
                   << unsupportedNodes << " node"
                   << (unsupportedNodes > 1 ? "s" : "") << "):\n";
      for (const auto &[type, nodes] : cov.unsupported) {
        llvm::outs() << "  " << type << ": " << nodes.size() << " node"
                     << (nodes.size() > 1 ? "s" : "") << " (";
        for (size_t i = 0; i < nodes.size() && i < 5; ++i)
          llvm::outs() << (i ? ", " : "") << "'" << nodes[i] << "'";
        llvm::outs() << (nodes.size() > 5 ? ", ...)" : ")") << "\n";
      }
    }
  }
  return exitCode(status);
}

static int listTargets(const CompileOptions &opts, DiagnosticPrinter &printer) {
  target::Registry registry(opts.targetDirs);
  std::vector<target::Target> targets;
  std::string err;
  if (Status s = registry.list(targets, err); s != Status::Ok) {
    printer.error(err);
    return exitCode(s);
  }
  if (opts.json) {
    llvm::json::OStream j(llvm::outs(), 2);
    j.object([&] {
      j.attribute("schema", "dfa.targets/1");
      j.attributeArray("targets", [&] {
        for (const auto &t : targets)
          j.object([&] {
            j.attribute("name", t.name);
            j.attribute("family", t.family);
            j.attribute("description", t.description);
            j.attribute("file", t.file);
            j.attribute("clock_hz", t.clockHz.value);
            j.attribute("units", t.units.value);
            j.attributeObject("peak_flops", [&] {
              for (const auto &[dt, v] : t.peakFlops)
                j.attribute(dt, v.value);
            });
            j.attributeArray("memory", [&] {
              for (const auto &m : t.memory)
                j.object([&] {
                  j.attribute("name", m.name);
                  j.attribute("capacity_bytes", m.capacityBytes.value);
                  j.attribute("bandwidth_bytes_per_s", m.bandwidthBytesPerS.value);
                  j.attribute("scope", m.scope);
                });
            });
          });
      });
    });
    llvm::outs() << "\n";
    return 0;
  }
  for (const auto &t : targets)
    llvm::outs() << target::summary(t) << "\n";
  return 0;
}

int dfa::driver::compileMain(const CompileOptions &opts) {
  auto ctx = createContext();
  DiagnosticPrinter printer(*ctx, "dfa-compile");
  if (opts.listTargets)
    return listTargets(opts, printer);
  if (opts.model.model.empty()) {
    printer.error("no model given");
    return exitCode(Status::Usage);
  }
  if (opts.check) {
    llvm::StringRef m(opts.model.model);
    if (!m.ends_with(".onnx") && !m.ends_with(".fx.json")) {
      printer.error("--check reads .onnx and .fx.json models");
      return exitCode(Status::Usage);
    }
    OpCoverage cov;
    ImportResult r = checkModel(opts.model.model, *ctx, cov);
    if (r.status != Status::Ok && r.status != Status::Unsupported)
      return exitCode(r.status);
    return printCoverage(opts, cov, r.status);
  }
  if (opts.emit != "graph" && opts.emit != "decomposed") {
    printer.error("--emit=" + opts.emit +
                  " is not available yet; this version emits 'graph' and "
                  "'decomposed'");
    return exitCode(Status::Usage);
  }
  if (opts.emit == "decomposed" &&
      (opts.target.empty() || opts.target == "all" ||
       llvm::StringRef(opts.target).contains(','))) {
    printer.error("--emit=decomposed needs one --target");
    return exitCode(Status::Usage);
  }
  ONNXImportOptions importOpts;
  Status s = buildImportOptions(opts.model, {}, {}, importOpts, printer);
  if (s != Status::Ok)
    return exitCode(s);
  ImportResult r = loadModel(opts.model.model, *ctx, importOpts);
  if (r.status != Status::Ok)
    return exitCode(r.status);
  if (opts.emit == "decomposed") {
    target::Registry registry(opts.targetDirs);
    target::Target t;
    std::string err;
    if (Status s = registry.find(opts.target, t, err); s != Status::Ok) {
      printer.error(err);
      return exitCode(s);
    }
    PassManager pm(ctx.get());
    GraphDecomposePassOptions decompose;
    decompose.targetName = opts.target;
    decompose.targetDirs = opts.targetDirs;
    decompose.remarks = opts.remarks;
    pm.addPass(createGraphDecomposePass(decompose));
    if (failed(pm.run(*r.module)))
      return exitCode(Status::Internal);
    r.module->getOperation()->setAttr(
        "graph.target", StringAttr::get(ctx.get(), opts.target));
  }

  if (opts.output != "-" && llvm::sys::fs::equivalent(opts.output, opts.model.model)) {
    printer.error("refusing to overwrite the input model '" + opts.model.model + "'");
    return exitCode(Status::Usage);
  }
  std::string err;
  auto out = openOutputFile(opts.output, &err);
  if (!out) {
    printer.error(err);
    return exitCode(Status::IOError);
  }
  OpPrintingFlags flags;
  if (opts.printLocations)
    flags.enableDebugInfo(/*enable=*/true, /*prettyForm=*/false);
  r.module->print(out->os(), flags);
  out->keep();
  return exitCode(Status::Ok);
}
