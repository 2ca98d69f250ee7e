//===- Limits.h - how much dfa lets one input take --------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// A hostile or simply enormous model must end with a clear error and exit
/// code 14 (docs/cli.md), not with the machine swapping or the process
/// killed. Two guards:
///  - estimates, checked before the work starts: a model file's parse, the
///    import per node, the compile per op, the CPU reference's peak live
///    set, the simulator's buffers; each names what it measured;
///  - the budget itself (`--max-memory`, default 3/4 of physical memory),
///    enforced on the process with RLIMIT_DATA: an allocation past it ends
///    the process with the same exit code and a one-line message.
/// Text inputs (FX JSON, .mlir) nested deeper than kMaxNesting are refused
/// before a recursive parser can overflow the stack.
///
//===----------------------------------------------------------------------===//

#ifndef DFA_SUPPORT_LIMITS_H
#define DFA_SUPPORT_LIMITS_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>

namespace dfa::limits {

/// Brackets a JSON or MLIR text may nest (real models nest under 20).
constexpr int kMaxNesting = 256;

/// Bytes one ONNX or FX node takes to import (protobuf or JSON, the graph
/// op, its attributes and location), rounded up from a million-node chain
/// (1.5 kB per node, docs/reliability.md).
constexpr double kImportBytesPerNode = 2048;
/// Bytes one graph op takes to compile for a target (every stage's IR and
/// the schedule), rounded up from generated transformers of 1k to 130k ops
/// (bench/scale_bench.sh: 1.8 to 4.7 kB per op past start-up).
constexpr double kCompileBytesPerOp = 8192;

/// The budget in bytes; 0 means none. Until setMaxMemory, the default.
int64_t maxMemory();
void setMaxMemory(int64_t bytes);
/// Three quarters of the machine's physical memory.
int64_t defaultMaxMemory();

/// Parses a --max-memory value: a byte count with an optional K, M, G or T
/// suffix (powers of 1024, optional "iB"/"B"), possibly fractional
/// ("1.5G"); "0" or "none" for no limit. Returns "" or the problem.
std::string parseSize(llvm::StringRef text, int64_t &bytes);
/// "512 MiB", "1.5 GiB", "3.6 TiB".
std::string formatSize(double bytes);

/// Whether `bytes` fits the budget.
bool fits(double bytes);
/// "more than --max-memory 512 MiB" (or "more than this machine has" when
/// no limit is set).
std::string overBudget();

/// Gives the pages of freed heap blocks back to the system now (glibc keeps
/// freed memory for reuse); for a phase that frees much at once.
void returnFreedMemory();

/// Enforces the budget on this process (RLIMIT_DATA above what is mapped
/// now, plus a thread-stack allowance; the BLAS's work buffers are mapped
/// first, for threadCount() threads, so set the count before) and installs the handlers that turn
/// a failed allocation into `<tool>: error: out of memory ...` and exit 14.
/// A no-op under AddressSanitizer, which maps its shadow memory as data.
void enforceMaxMemory(llvm::StringRef tool);

/// The deepest nesting of (), [], {} and <> in `text`, outside string
/// literals and `//` comments (when `lineComments`), stopping once it
/// passes `stopAt`.
int nestingDepth(llvm::StringRef text, bool lineComments, int stopAt);

/// Why MLIR text cannot be parsed within the limits, or "": nested deeper
/// than kMaxNesting (MLIR's parser recurses into types, attributes and
/// regions), or a parse (several times the text; dense constants about
/// once) estimated past the budget.
std::string checkMlirText(llvm::StringRef text);

} // namespace dfa::limits

#endif // DFA_SUPPORT_LIMITS_H
