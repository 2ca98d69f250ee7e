//===- ToolFlags.h - command-line flags the tools share ----------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// For the tools' mains only (CLI11 throws; the libraries are built without
/// exceptions): the flags several tools take, declared once.
///
//===----------------------------------------------------------------------===//

#ifndef DFA_DRIVER_TOOLFLAGS_H
#define DFA_DRIVER_TOOLFLAGS_H

#include "dfa/Driver/Tools.h"
#include "dfa/Reference/Cpu.h"
#include "dfa/Support/Limits.h"
#include "dfa/Support/Parallel.h"
#include "dfa/Support/Progress.h"
#include "dfa/Transforms/Faults.h"

#include <CLI/CLI.hpp>

#include <cstdlib>

namespace dfa::driver {

/// --shape NAME=D0,D1,... and --dim NAME=N.
inline void addShapeFlags(CLI::App &app, ModelFlags &flags) {
  app.add_option("--shape", flags.shapes,
                 "Static shape for a dynamic input: NAME=D0,D1,...")
      ->take_all();
  app.add_option("--dim", flags.dims,
                 "Size of a symbolic input dim (an ONNX dim_param): NAME=N")
      ->take_all();
}

/// --max-dim NAME=N: bound a data-dependent dim (a run in segments).
inline void addMaxDimFlag(CLI::App &app, ModelFlags &flags) {
  app.add_option("--max-dim", flags.maxDims,
                 "Bound the data-dependent size of a NonZero, "
                 "NonMaxSuppression or Unique node (or output) NAME at N: the "
                 "segment after it is compiled for N, padded, and the report "
                 "shows the padding waste; a count past N is exit 7")
      ->take_all();
}

/// --buckets NAME=S1,S2,...: shape buckets of a symbolic dim.
inline void addBucketsFlag(CLI::App &app, ModelFlags &flags) {
  app.add_option("--buckets", flags.buckets,
                 "Shape buckets for a symbolic dim, NAME=S1,S2,...: a size is "
                 "padded up to the next bucket and each bucket compiled once "
                 "(its schedule's graph.guards record it); the report shows "
                 "the padding waste")
      ->take_all();
}

/// --recompile-limit N: a request stream's storm threshold.
inline void addRecompileLimitFlag(CLI::App &app, int64_t &limit) {
  app.add_option("--recompile-limit", limit,
                 "With --requests: compiles past this many are a recompile "
                 "storm (TorchDynamo's recompile_limit, default 8)")
      ->check(CLI::PositiveNumber);
}

/// --quiet: no progress lines (dfa/Support/Progress.h). The mains call
/// progress::init after parsing.
inline void addQuietFlag(CLI::App &app, bool &quiet) {
  app.add_flag("--quiet", quiet,
               "No progress line on a terminal (pipes and files never get one)");
}

/// --max-memory SIZE: the memory budget (dfa/Support/Limits.h).
inline void addMaxMemoryFlag(CLI::App &app, ModelFlags &flags) {
  app.add_option("--max-memory", flags.maxMemory,
                 "Memory budget: bytes, or a number with K, M, G or T; 0 for "
                 "none (default: 3/4 of physical memory). Past it: exit 14")
      ->check([](const std::string &v) {
        int64_t bytes;
        return limits::parseSize(v, bytes);
      });
}

/// Sets and enforces the budget of --max-memory (or the default) for this
/// process; the mains call it once, after parsing and applyThreads.
inline void applyMaxMemory(const ModelFlags &flags, llvm::StringRef tool) {
  int64_t bytes = limits::defaultMaxMemory();
  if (!flags.maxMemory.empty())
    (void)limits::parseSize(flags.maxMemory, bytes);
  limits::setMaxMemory(bytes);
  limits::enforceMaxMemory(tool);
}

/// --threads N: the CPU reference's threads (dfa/Support/Parallel.h).
inline void addThreadsFlag(CLI::App &app, ModelFlags &flags) {
  app.add_option("--threads", flags.threads,
                 "Threads of the CPU reference (its BLAS and its loops; "
                 "default: DFA_THREADS, else every core). Results are "
                 "bit-identical for any count")
      ->check(CLI::Range(1, 1024));
}

/// Sets the thread count of --threads, else a valid DFA_THREADS; a
/// malformed DFA_THREADS is a usage error (false, after a message), as is
/// a CPU the build cannot run on (ref::checkCpu).
inline bool applyThreads(const ModelFlags &flags, llvm::StringRef tool) {
  if (!ref::checkCpu(tool))
    return false;
  if (flags.threads > 0) {
    setThreadCount(flags.threads);
    return true;
  }
  if (const char *env = std::getenv("DFA_THREADS")) {
    std::string error;
    std::optional<int> n = parseThreadCount(env, error);
    if (!n) {
      llvm::errs() << tool << ": error: DFA_THREADS=" << error << "\n";
      return false;
    }
    setThreadCount(*n);
  }
  return true;
}

/// --set KEY=VALUE (repeatable): what-if changes to the target's
/// description, checked as KEY=VALUE here and against the description as it
/// loads (target::applyOverrides).
inline void addSetOption(CLI::App &app, std::vector<std::string> &overrides) {
  app.add_option("--set", overrides,
                 "Change a key of the target's description, KEY=VALUE "
                 "(repeatable): memory.HBM.bandwidth_bytes_per_s=6e12, "
                 "compute.units=64, compute.matrix_unit.n=256; recorded in "
                 "every output and schedule")
      ->take_all()
      ->check([](const std::string &v) {
        std::string error;
        return target::parseOverride(v, error) ? std::string() : error;
      });
}

/// --inject FAULT, checked against knownFaults().
inline void addInjectOption(CLI::App &app, std::string &inject) {
  app.add_option("--inject", inject,
                 "Plant a compiler fault, for tests and teaching: " + faultHelp())
      ->check([](const std::string &v) {
        FaultSpec f;
        return parseFault(v, f);
      });
}

/// --fp32-matmul MODE: how f32 matrix ops compute (graph::Fp32Matmul).
inline void addFp32MatmulOption(CLI::App &app, std::string &mode) {
  app.add_option("--fp32-matmul", mode,
                 "How matmuls, convolutions and attention with f32 operands "
                 "compute: ieee (default, as torch), tf32 (operands rounded to "
                 "10 mantissa bits, at the TF32 peak), bf16, or bf16x3 (three "
                 "bf16 products); changes both the values and the time")
      ->check(CLI::IsMember({"ieee", "tf32", "bf16", "bf16x3"}));
}

/// --tensor-parallel N: the chips of a tensor-parallel group (graph-shard).
inline void addTensorParallelOption(CLI::App &app, int64_t &chips) {
  app.add_option("--tensor-parallel", chips,
                 "Split the model over N chips of the target as tensor "
                 "parallelism (Megatron-style column- and row-parallel "
                 "products, attention heads, KV cache; all-reduces over the "
                 "chip-to-chip links): the schedule is one chip's program "
                 "(time only; default 1, none)")
      ->check(CLI::Range(int64_t(1), int64_t(1) << 20));
}

} // namespace dfa::driver

#endif // DFA_DRIVER_TOOLFLAGS_H
