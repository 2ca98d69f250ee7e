//===- Parallel.cpp - the CPU reference's threads -----------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "dfa/Support/Parallel.h"

#include <algorithm>
#include <cstdlib>
#include <thread>

#ifdef _OPENMP
#include <omp.h>
#endif

extern "C" void openblas_set_num_threads(int) __attribute__((weak));
extern "C" void *blas_memory_alloc(int) __attribute__((weak));
extern "C" void blas_memory_free(void *) __attribute__((weak));

using namespace dfa;

namespace {
int configured = 0; // 0: not yet decided

int defaultCount() {
  if (const char *env = std::getenv("DFA_THREADS")) {
    std::string error;
    // The tools validate DFA_THREADS before any work (driver::applyThreads);
    // a library user with a bad value gets the cores.
    if (std::optional<int> n = parseThreadCount(env, error))
      return *n;
  }
#ifdef _OPENMP
  return std::max(1, omp_get_num_procs());
#else
  return std::max(1u, std::thread::hardware_concurrency());
#endif
}
} // namespace

std::optional<int> dfa::parseThreadCount(llvm::StringRef text,
                                         std::string &error) {
  unsigned n = 0;
  if (text.trim().getAsInteger(10, n) || n < 1 || n > 1024) {
    error = "'" + text.str() + "' is not a thread count (an integer from 1 to 1024)";
    return std::nullopt;
  }
  return int(n);
}

void dfa::setThreadCount(int n) {
  configured = std::max(1, n);
  // Every library call runs on one thread; parallelFor asks for its team
  // explicitly. OpenBLAS's own threading splits k differently for each
  // count (its threaded driver blocks k unlike its serial one), so its
  // results would change with the count: the reference splits products
  // over output tiles itself (Gemm.cpp) and calls the BLAS serially.
  // OpenBLAS's OpenMP build follows omp_set_num_threads; its others keep
  // their own count.
#ifdef _OPENMP
  omp_set_num_threads(1);
#endif
  if (openblas_set_num_threads)
    openblas_set_num_threads(1);
}

int dfa::threadCount() {
  if (configured == 0)
    setThreadCount(defaultCount());
  return configured;
}

void dfa::parallelFor(int64_t n, int64_t grain,
                      llvm::function_ref<void(int64_t, int64_t)> body) {
  if (n <= 0)
    return;
  grain = std::max<int64_t>(1, grain);
  int64_t chunks = std::min<int64_t>(threadCount(), (n + grain - 1) / grain);
#ifdef _OPENMP
  if (chunks > 1 && !omp_in_parallel()) {
#pragma omp parallel for schedule(static, 1) num_threads(int(chunks))
    for (int64_t c = 0; c < chunks; ++c)
      body(n * c / chunks, n * (c + 1) / chunks);
    return;
  }
#endif
  body(0, n);
}

void dfa::reserveBlasBuffers() {
  // Each concurrent OpenBLAS call takes a work buffer from OpenBLAS's table
  // (128 MiB mapped, touched only as far as a product needs) and returns it
  // there afterwards; a buffer that cannot be mapped is retried forever.
  // Every thread of the team takes one at once and returns it, so the table
  // holds one per thread (and so does a thread-local table).
  if (!blas_memory_alloc || !blas_memory_free)
    return;
  int n = threadCount();
#ifdef _OPENMP
  if (n > 1 && !omp_in_parallel()) {
#pragma omp parallel num_threads(n)
    {
      void *buffer = blas_memory_alloc(0);
#pragma omp barrier
      blas_memory_free(buffer);
    }
    return;
  }
#endif
  blas_memory_free(blas_memory_alloc(0));
}
