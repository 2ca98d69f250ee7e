//===- RunTarget.cpp - dfa-run on a compiled target -----------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "RunTarget.h"

#include "Format.h"
#include "Pipeline.h"

#include "dialects/Graph/GraphInterfaces.h"
#include "dfa/Transforms/TargetModel.h"

#include "llvm/ADT/StringExtras.h"

#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/ToolOutputFile.h"

#include <map>

#include <cmath>

using namespace mlir;
using namespace dfa;
using namespace dfa::driver;

std::unique_ptr<ScopedDiagnosticHandler>
HeldDiagnostics::hold(MLIRContext *ctx) {
  return std::make_unique<ScopedDiagnosticHandler>(ctx, [this](Diagnostic &d) {
    Held h{d.getLocation(), d.getSeverity(), d.str(), {}};
    for (Diagnostic &note : d.getNotes())
      h.notes.emplace_back(note.getLocation(), note.str());
    held.push_back(std::move(h));
    return success();
  });
}

void HeldDiagnostics::release() {
  for (Held &h : held) {
    InFlightDiagnostic diag =
        h.severity == DiagnosticSeverity::Warning ? emitWarning(h.loc)
        : h.severity == DiagnosticSeverity::Remark ? emitRemark(h.loc)
                                                    : emitError(h.loc);
    diag << h.message;
    for (auto &[loc, msg] : h.notes)
      diag.attachNote(loc) << msg;
  }
  held.clear();
}

sched::ProgramOp dfa::driver::findProgram(ModuleOp module) {
  sched::ProgramOp found;
  for (auto p : module.getOps<sched::ProgramOp>())
    if (!found || p.getSymName() == "main")
      found = p;
  return found;
}

Status dfa::driver::scheduleTarget(sched::ProgramOp program,
                                   const std::vector<std::string> &targetDirs,
                                   const std::vector<std::string> &given,
                                   target::Target &t, std::string &error) {
  auto module = program->getParentOfType<ModuleOp>();
  std::vector<std::string> recorded =
      module ? moduleTargetOverrides(module) : std::vector<std::string>();
  // The same machine: each key's last value equal, in any order.
  auto effective = [](const std::vector<std::string> &list) {
    std::map<std::string, llvm::json::Value> out;
    std::string ignored;
    for (const std::string &kv : list)
      if (std::optional<target::Override> o = target::parseOverride(kv, ignored))
        out.insert_or_assign(o->key, o->value);
      else
        out.insert_or_assign(kv, nullptr);
    return out;
  };
  if (!given.empty() && effective(given) != effective(recorded)) {
    error = "the schedule was compiled for '" +
            program.getTarget().getName().str() + "'" +
            (recorded.empty() ? std::string(" without --set")
                              : " with --set " + llvm::join(recorded, " --set ")) +
            ": it runs on that machine; recompile the model for another";
    return Status::Usage;
  }
  target::Registry registry(targetDirs, recorded);
  return registry.find(program.getTarget().getName(), t, error);
}

Status dfa::driver::loadTarget(llvm::StringRef name, const RunOptions &opts,
                               target::Target &t, DiagnosticPrinter &printer) {
  target::Registry registry(opts.targetDirs, opts.overrides);
  std::string err;
  Status s = registry.find(name.str(), t, err);
  if (s != Status::Ok)
    printer.error(err);
  return s;
}

Status dfa::driver::compileForRun(ModuleOp module, const target::Target &t,
                                  const RunOptions &opts,
                                  DiagnosticPrinter &printer) {
  CompileOptions co;
  co.targetDirs = opts.targetDirs;
  co.overrides = opts.overrides;
  co.inject = opts.inject;
  co.fp32Matmul = opts.fp32Matmul;
  co.tensorParallel = opts.tensorParallel;
  return runPipeline(module, t, 0, kSchedStage, co, printer);
}

Status dfa::driver::simulateForRun(sched::ProgramOp program,
                                   const target::Target &t,
                                   ArrayRef<ref::Tensor> args,
                                   const RunOptions &opts, sim::Result &result,
                                   DiagnosticPrinter &printer) {
  sim::Options so;
  so.values = !opts.timeOnly;
  if (so.values)
    for (auto w : program.getBlock().getOps<sched::WeightOp>())
      if (w.getFile().empty()) {
        printer.error("weight '" + w.getSymName().str() +
                      "' has no data (imported without weights): run with "
                      "--time-only");
        return Status::RuntimeError;
      }
  if (Status s = sim::simulate(program, t, args, so, result); s != Status::Ok)
    return s;
  if (opts.trace.empty())
    return Status::Ok;
  std::string err;
  auto out = openOutputFile(opts.trace, &err);
  if (!out) {
    printer.error(err);
    return Status::IOError;
  }
  sim::writeTrace(result, t, out->os());
  out->keep();
  return Status::Ok;
}

void dfa::driver::printTime(const sim::Result &r, const target::Target &t,
                            const RunOptions &opts, double wallMs) {
  llvm::errs() << "dfa-run: " << t.name;
  if (!t.overrides.empty())
    llvm::errs() << " [--set " << target::overridesText(t.overrides) << "]";
  llvm::errs() << ": " << humanSeconds(r.seconds);
  if (r.plannedSeconds > 0)
    llvm::errs() << " (plan " << humanSeconds(r.plannedSeconds) << ")";
  llvm::errs() << ", " << r.ops.size() << " ops, " << r.events
               << " events, simulated in " << llvm::format("%.1f", wallMs)
               << " ms";
  if (r.eventLoopSeconds > 0 && r.events > 0)
    llvm::errs() << " (event loop "
                 << llvm::format("%.2f", r.events / r.eventLoopSeconds / 1e6)
                 << " M events/s)";
  if (!opts.trace.empty())
    llvm::errs() << "; trace: " << opts.trace;
  llvm::errs() << "\n";
}

void dfa::driver::timeJson(llvm::json::OStream &j, const sim::Result &r,
                           const target::Target &t) {
  j.attributeObject("time", [&] {
    j.attribute("seconds", r.seconds);
    j.attribute("cycles", int64_t(std::llround(r.seconds * t.clockHz.value)));
    if (r.plannedSeconds > 0)
      j.attribute("planned_seconds", r.plannedSeconds);
    else
      j.attribute("planned_seconds", nullptr);
    j.attribute("events", int64_t(r.events));
    j.attributeArray("utilization", [&] {
      for (const sim::Utilization &u : r.utilization)
        j.object([&] {
          j.attribute("resource", u.resource);
          j.attribute("busy_seconds", u.busySeconds);
          j.attribute("fraction", r.seconds > 0 ? u.busySeconds / r.seconds : 0.0);
        });
    });
    j.attributeArray("memory", [&] {
      for (const sim::Occupancy &m : r.memory)
        j.object([&] {
          j.attribute("level", m.level);
          j.attribute("peak_bytes", m.peakBytes);
          j.attributeArray("steps", [&] {
            for (auto &[time, bytes] : m.steps)
              j.array([&] {
                j.value(time);
                j.value(bytes);
              });
          });
        });
    });
    j.attributeArray("ops", [&] {
      for (const sim::OpRecord &op : r.ops)
        j.object([&] {
          j.attribute("name", op.name);
          j.attribute("kind", op.kind);
          j.attribute("resource", op.resource);
          j.attribute("chip", op.chip);
          j.attribute("start", op.start);
          j.attribute("end", op.end);
          if (op.bytes)
            j.attribute("bytes", op.bytes);
          if (!op.kernel.empty())
            j.attribute("kernel", op.kernel);
          j.attribute("source", op.source);
        });
    });
  });
}

std::pair<double, double> dfa::driver::graphWork(func::FuncOp func) {
  double flops = 0, bytes = 0;
  func.walk([&](graph::CostOpInterface op) {
    flops += double(op.getFlops());
    for (unsigned i = 0; i < op->getNumOperands(); ++i)
      bytes += double(op.getBytesRead(i));
    for (unsigned i = 0; i < op->getNumResults(); ++i)
      bytes += double(op.getBytesWritten(i));
  });
  return {flops, bytes};
}
