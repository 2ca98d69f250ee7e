//===- CompileStats.h - what the compiler decided, declared once -*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// The statistics a `sched.program` carries as its `stats` attribute: the
/// lowering fills a CompileStats and writes it with `toAttr`; dfa-compile's
/// table and `dfa.compile/1` and dfa-roofline read it back with `fromAttr`.
/// The keys are declared here only.
///
//===----------------------------------------------------------------------===//

#ifndef DIALECTS_SCHED_COMPILESTATS_H
#define DIALECTS_SCHED_COMPILESTATS_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/MLIRContext.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace dfa::sched {

struct CompileStats {
  /// A fusion graph-fuse refused: the op, the kernel it would have joined.
  struct Refusal {
    std::string op, kernel, reason;
  };
  /// A kernel whose operands stream from off-chip memory, and why.
  struct Spill {
    std::string kernel, reason;
  };
  /// A kernel run as chunks along one dim of its output.
  struct Chunking {
    std::string kernel;
    int64_t dim = 0, chunks = 0, extent = 0;
  };

  int64_t kernels = 0;
  /// Graph ops in kernels (constants not counted).
  int64_t ops = 0;
  /// Ops that joined another op's kernel: ops - kernels.
  int64_t fusions = 0;
  std::vector<Refusal> fusionsRefused;
  int64_t padBytes = 0, padFlops = 0;
  int64_t relayouts = 0;
  std::vector<Spill> spills;
  std::vector<Chunking> chunked;
  int64_t dmas = 0, dmaBytes = 0;
  /// The most bytes live at once per memory level (by name).
  std::map<std::string, int64_t> peakBytes;
  int64_t chips = 1;
  bool weightStreaming = false;
  /// The makespan of a static plan; none for stream-ordered targets.
  std::optional<int64_t> cycles;

  /// The `stats` attribute.
  mlir::DictionaryAttr toAttr(mlir::MLIRContext *ctx) const;
  /// Reads a `stats` attribute; missing keys keep their defaults.
  static CompileStats fromAttr(mlir::DictionaryAttr stats);
  /// graph-fuse's `graph.fusions_refused` module attribute.
  static std::vector<Refusal> refusalsFrom(mlir::ArrayAttr refused);
  static mlir::ArrayAttr refusalsAttr(mlir::MLIRContext *ctx,
                                      const std::vector<Refusal> &refused);
};

} // namespace dfa::sched

#endif // DIALECTS_SCHED_COMPILESTATS_H
