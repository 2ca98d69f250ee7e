//===- dfa-roofline.cpp - profile schedules against their rooflines ---------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "dfa/Driver/ToolFlags.h"
#include "dfa/Driver/Tools.h"
#include "dfa/Support/Status.h"

#include <CLI/CLI.hpp>

int main(int argc, char **argv) {
  dfa::driver::RooflineOptions o;
  CLI::App app{"dfa-roofline: where each kernel sits against its target's "
               "compute, memory-level and scheduling bounds"};
  app.set_version_flag("--version", "dfa-roofline " DFA_VERSION);
  app.add_option("model", o.model.model,
                 "Model file (.onnx, .fx.json, a SCALE-Sim topology .csv, .mlir) or a saved .sched.mlir")
      ->required();
  app.add_option("schedules", o.schedules,
                 "More saved .sched.mlir files (for other targets)");
  app.add_option("--target", o.target,
                 "Targets: NAME[,NAME...] (a name, or a description file: .json or a SCALE-Sim .cfg) or all (every accelerator; default)");
  app.add_option("--target-dir", o.targetDirs,
                 "Directory of extra target descriptions (searched first)")
      ->take_all();
  dfa::driver::addSetOption(app, o.overrides);
  app.add_flag("--analytic", o.analytic,
               "The cost model's times, without simulating (a quick look)");
  app.add_flag("--json", o.json, "Print a dfa.roofline/1 JSON report on stdout");
  app.add_option("--csv", o.csv, "Write one row per kernel and level to FILE");
  app.add_option("--svg", o.svg,
                 "Write the chart to FILE (FILE-TARGET.svg for several targets)");
  app.add_option("--html", o.html,
                 "Write the self-contained landscape report to FILE");
  app.add_option("--top", o.top, "Kernels per target in the table (0: all)");
  app.add_flag("--by-node", o.byNode,
               "The table by source node: each node's part of the kernels "
               "it was fused into (time and bytes split by FLOPs)");
  app.add_flag("--critical-path", o.criticalPath,
               "After each table, the critical path: the chain of ops and "
               "waits that sets the makespan, and its shares (simulated)")
      ->excludes("--analytic");
  app.add_option("--graph", o.graph,
                 "Draw the source graph to FILE.svg: nodes with FLOPs, bytes "
                 "per level and intensity, coloured by bound; fused kernels "
                 "as clusters; the critical path bold (two targets: side by "
                 "side, the partition shift marked)");
  app.add_option("--dot", o.dot, "Write the graph's Graphviz DOT source to FILE");
  app.add_option("--expand", o.expand,
                 "Keep a module group open in the drawing (repeatable): "
                 "large graphs fold their biggest groups");
  dfa::driver::addShapeFlags(app, o.model);
  dfa::driver::addBucketsFlag(app, o.model);
  dfa::driver::addMaxDimFlag(app, o.model);
  dfa::driver::addMaxMemoryFlag(app, o.model);
  dfa::driver::addThreadsFlag(app, o.model);
  dfa::driver::addQuietFlag(app, o.model.quiet);
  app.add_option("--llm", o.llm,
                 "LLM mode for a decoder with a KV cache: sweep prefill "
                 "and/or decode (comma-separated) over --batch and --context")
      ->delimiter(',')
      ->check(CLI::IsMember({"prefill", "decode"}));
  app.add_option("--batch", o.batches, "LLM mode: batch sizes (default 1,8,32)")
      ->delimiter(',')
      ->check(CLI::PositiveNumber);
  app.add_option("--context", o.contexts,
                 "LLM mode: context lengths in tokens (default 512)")
      ->delimiter(',')
      ->check(CLI::PositiveNumber);
  app.add_option("--llm-dims", o.llmDims,
                 "LLM mode: the model's symbolic dims by role, when their "
                 "names do not say: batch=NAME,seq=NAME,past=NAME,total=NAME (total: the cache plus the new tokens)")
      ->delimiter(',');
  app.add_option("--measured", o.measured,
                 "A PyTorch Profiler trace of the same model (Chrome JSON, "
                 "from torch.profiler's export_chrome_trace, with or without "
                 "CUDA kernels): its ops mapped to dfa's nodes and compared, "
                 "predicted against measured, the largest gaps first");
  app.add_option("--kv-block", o.kvBlock,
                 "LLM mode: a paged KV cache of blocks of N tokens (as vLLM): "
                 "each sequence rounds up to whole blocks and keeps a block "
                 "table (default: one contiguous cache per sequence)")
      ->check(CLI::PositiveNumber);
  app.add_option("--prefix-tokens", o.prefixTokens,
                 "LLM mode: the first N tokens of every prompt are a shared "
                 "prefix: cached once for the batch (whole blocks of it with "
                 "--kv-block) and not recomputed by prefill")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--prefill-chunk", o.prefillChunk,
                 "LLM mode: chunked prefill: a prompt runs as steps of N new "
                 "tokens each against the cache so far; a decode step waits "
                 "behind one chunk instead of a whole prefill")
      ->check(CLI::PositiveNumber);
  dfa::driver::addInjectOption(app, o.inject);
  dfa::driver::addFp32MatmulOption(app, o.fp32Matmul);
  dfa::driver::addTensorParallelOption(app, o.tensorParallel);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError &e) {
    int code = app.exit(e);
    return code == 0 ? 0 : dfa::exitCode(dfa::Status::Usage);
  }
  if (!dfa::driver::applyThreads(o.model, "dfa-roofline"))
    return dfa::exitCode(dfa::Status::Usage);
  dfa::driver::applyMaxMemory(o.model, "dfa-roofline");
  dfa::progress::init("dfa-roofline", o.model.quiet);
  return dfa::driver::rooflineMain(o);
}
