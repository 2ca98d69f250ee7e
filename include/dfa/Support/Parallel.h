//===- Parallel.h - the CPU reference's threads -----------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// One thread count for the whole process. The CPU reference's loops and its
/// BLAS calls share one OpenMP runtime (Debian's OpenMP build of OpenBLAS),
/// so neither spins while the other works. Work is split over output
/// elements only, in ranges fixed by the problem (never by the count), and
/// every element is computed by the same code in the same order whatever
/// the count: results are bit-identical for any number of threads.
///
//===----------------------------------------------------------------------===//

#ifndef DFA_SUPPORT_PARALLEL_H
#define DFA_SUPPORT_PARALLEL_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>

namespace dfa {

/// Sets the number of threads (>= 1) the reference and the BLAS use.
void setThreadCount(int n);
/// The number in effect: the last setThreadCount, else DFA_THREADS, else
/// every core the process may run on.
int threadCount();
/// Parses a thread count as `--threads` and DFA_THREADS take it: a positive
/// integer up to 1024. On failure, `error` says why.
std::optional<int> parseThreadCount(llvm::StringRef text, std::string &error);

/// Has the BLAS map the work buffers of threadCount() concurrent calls now,
/// so that a later memory limit (limits::enforceMaxMemory) counts them
/// rather than failing them: OpenBLAS waits forever for a buffer it cannot
/// map. Without OpenBLAS, nothing.
void reserveBlasBuffers();

/// Calls `body(begin, end)` on contiguous ranges that cover [0, n), on up to
/// threadCount() threads. Each range holds at least `grain` items, so small
/// loops stay on the calling thread; `body` must write only the items of its
/// range. Nested calls run serially.
void parallelFor(int64_t n, int64_t grain,
                 llvm::function_ref<void(int64_t, int64_t)> body);

/// A grain for loops of `costPerItem` simple operations per item: ranges of
/// about 32k operations, below which a thread's start-up does not pay.
inline int64_t grainFor(int64_t costPerItem) {
  costPerItem = costPerItem < 1 ? 1 : costPerItem;
  return costPerItem >= (int64_t(1) << 15) ? 1 : (int64_t(1) << 15) / costPerItem;
}

} // namespace dfa

#endif // DFA_SUPPORT_PARALLEL_H
