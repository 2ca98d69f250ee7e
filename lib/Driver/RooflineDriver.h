//===- RooflineDriver.h - dfa-roofline's steps (private) --------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef LIB_DRIVER_ROOFLINEDRIVER_H
#define LIB_DRIVER_ROOFLINEDRIVER_H

#include "dfa/Driver/Driver.h"
#include "dfa/Driver/Tools.h"
#include "dfa/Roofline/Graph.h"
#include "dfa/Roofline/LLM.h"

namespace dfa::driver {

/// The accelerators `opts.target` names (`all`: every one but the CPU).
Status profileTargets(const RooflineOptions &opts, target::Registry &registry,
                      std::vector<target::Target> &targets,
                      DiagnosticPrinter &printer);

/// Simulates (unless analytic) and profiles one schedule into `reports`.
Status profile(sched::ProgramOp program, const target::Target &t,
               const RooflineOptions &opts, llvm::StringRef model,
               std::vector<roofline::Report> &reports,
               DiagnosticPrinter &printer);

/// The table or JSON on stdout and the files asked for; with `llm`, the
/// sweep first (the reports are its reference step's).
/// With `graph` (a model, not saved schedules), --graph, --dot and the
/// report's graph section draw it.
Status writeOutputs(const std::vector<roofline::Report> &reports,
                    const RooflineOptions &opts, llvm::StringRef title,
                    DiagnosticPrinter &printer,
                    const roofline::LLMSweep *llm = nullptr,
                    const roofline::SourceGraph *graph = nullptr);

/// LLM mode: the sweep over phases, batches and contexts.
int llmMain(const RooflineOptions &opts);

} // namespace dfa::driver

#endif // LIB_DRIVER_ROOFLINEDRIVER_H
