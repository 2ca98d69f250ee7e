//===- Limits.cpp - how much dfa lets one input take ----------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "dfa/Support/Limits.h"
#include "dfa/Support/Parallel.h"
#include "dfa/Support/Status.h"

#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/Threading.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <malloc.h>
#include <new>
#include <sys/resource.h>
#include <unistd.h>

using namespace dfa;

namespace {
int64_t budget = -1; // -1: not set yet (the default applies)
char oomMessage[512];
size_t oomLength = 0;

[[noreturn]] void outOfMemory() {
  // Nothing here may allocate: the message was formatted beforehand.
  if (oomLength && ::write(2, oomMessage, oomLength) < 0) {
  }
  ::_exit(exitCode(Status::LimitExceeded));
}

void onBadAlloc(void *, const char *, bool) { outOfMemory(); }

/// Bytes of private writable memory mapped now (VmData), or -1.
int64_t mappedDataBytes() {
  FILE *f = std::fopen("/proc/self/status", "r");
  if (!f)
    return -1;
  char line[256];
  int64_t kb = -1;
  while (std::fgets(line, sizeof line, f))
    if (std::strncmp(line, "VmData:", 7) == 0) {
      kb = std::atoll(line + 7);
      break;
    }
  std::fclose(f);
  return kb < 0 ? -1 : kb * 1024;
}
} // namespace

int64_t limits::defaultMaxMemory() {
  long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page <= 0)
    return 0;
  return (int64_t)((double)pages * (double)page * 0.75);
}

int64_t limits::maxMemory() {
  if (budget < 0)
    budget = defaultMaxMemory();
  return budget;
}

void limits::setMaxMemory(int64_t bytes) { budget = bytes < 0 ? 0 : bytes; }

std::string limits::parseSize(llvm::StringRef text, int64_t &bytes) {
  llvm::StringRef s = text.trim();
  if (s == "none" || s == "0") {
    bytes = 0;
    return "";
  }
  double scale = 1;
  llvm::StringRef num = s;
  for (llvm::StringRef suffix : {"iB", "B"})
    if (num.ends_with(suffix) && num.size() > suffix.size()) {
      num = num.drop_back(suffix.size());
      break;
    }
  if (!num.empty()) {
    switch (num.back()) {
    case 'K': case 'k': scale = 1024.0; break;
    case 'M': case 'm': scale = 1024.0 * 1024; break;
    case 'G': case 'g': scale = 1024.0 * 1024 * 1024; break;
    case 'T': case 't': scale = 1024.0 * 1024 * 1024 * 1024; break;
    default: break;
    }
    if (scale != 1)
      num = num.drop_back();
  }
  double v;
  if (num.empty() || num.getAsDouble(v) || !std::isfinite(v) || v < 0 ||
      v * scale > 9.0e18)
    return "'" + text.str() +
           "' is not a size (bytes, or a number with K, M, G or T; 0 or "
           "none for no limit)";
  bytes = (int64_t)(v * scale);
  if (bytes == 0 && v > 0)
    bytes = 1;
  return "";
}

std::string limits::formatSize(double bytes) {
  const char *units[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  int u = 0;
  while (bytes >= 1024 && u < 6) {
    bytes /= 1024;
    ++u;
  }
  char buf[64];
  if (u == 0)
    std::snprintf(buf, sizeof buf, "%.0f bytes", bytes);
  else
    std::snprintf(buf, sizeof buf, bytes < 10 ? "%.1f %s" : "%.0f %s", bytes,
                  units[u]);
  return buf;
}

bool limits::fits(double bytes) {
  int64_t b = maxMemory();
  return b == 0 || bytes <= (double)b;
}

std::string limits::overBudget() {
  int64_t b = maxMemory();
  if (b == 0)
    return "more than this machine can address";
  return "more than --max-memory " + formatSize((double)b) +
         " (pass a larger --max-memory; 0: no limit)";
}

void limits::returnFreedMemory() {
#ifdef __GLIBC__
  malloc_trim(0);
#endif
}

void limits::enforceMaxMemory(llvm::StringRef tool) {
  int64_t b = maxMemory();
  std::string msg =
      tool.str() + ": error: out of memory: " +
      (b ? "the run needed more than --max-memory " + formatSize((double)b) +
               " (pass a larger --max-memory; 0: no limit)\n"
         : std::string("the machine could not provide what the run "
                       "needed\n"));
  oomLength = std::min(msg.size(), sizeof oomMessage);
  std::memcpy(oomMessage, msg.data(), oomLength);
  std::set_new_handler(outOfMemory);
  llvm::install_bad_alloc_error_handler(onBadAlloc);
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
  return;
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
  return;
#endif
  if (b == 0)
    return;
  reserveBlasBuffers(); // counted in `now`, not failed by the limit
  int64_t now = mappedDataBytes();
  if (now < 0)
    return;
  // Each thread maps a stack, of the size RLIMIT_STACK gives (glibc's
  // default for new threads; 8 MiB by default; counted up to 64 MiB, so
  // that a huge `ulimit -s` does not lift the limit), and the two pools can be
  // alive at once: MLIR's for parallel passes (up to one thread a core,
  // started as tasks queue, so more of them on a loaded machine) and the
  // reference's OpenMP threads.
  int64_t stack = 8 << 20;
  rlimit st;
  if (getrlimit(RLIMIT_STACK, &st) == 0 && st.rlim_cur != RLIM_INFINITY)
    stack = std::clamp<int64_t>((int64_t)st.rlim_cur, stack, 64 << 20);
  int64_t stacks =
      (int64_t)(llvm::hardware_concurrency().compute_thread_count() +
                threadCount()) *
      stack;
  rlimit r;
  if (getrlimit(RLIMIT_DATA, &r) != 0)
    return;
  rlim_t want = (rlim_t)(now + b + stacks + (64 << 20));
  if (r.rlim_max != RLIM_INFINITY && want > r.rlim_max)
    want = r.rlim_max;
  if (r.rlim_cur != RLIM_INFINITY && r.rlim_cur < want)
    return; // a tighter limit is already in force
  r.rlim_cur = want;
  setrlimit(RLIMIT_DATA, &r);
}

int limits::nestingDepth(llvm::StringRef text, bool lineComments, int stopAt) {
  int depth = 0, deepest = 0;
  for (size_t i = 0, n = text.size(); i < n; ++i) {
    char c = text[i];
    if (c == '"') {
      for (++i; i < n && text[i] != '"'; ++i)
        if (text[i] == '\\')
          ++i;
      continue;
    }
    if (lineComments && c == '/' && i + 1 < n && text[i + 1] == '/') {
      while (i < n && text[i] != '\n')
        ++i;
      continue;
    }
    if (c == '(' || c == '[' || c == '{' || c == '<') {
      deepest = std::max(deepest, ++depth);
      if (deepest > stopAt)
        return deepest;
    } else if ((c == ')' || c == ']' || c == '}' ||
                (c == '>' && (i == 0 || text[i - 1] != '-'))) &&
               depth > 0) {
      --depth;
    }
  }
  return deepest;
}

std::string limits::checkMlirText(llvm::StringRef text) {
  if (nestingDepth(text, /*lineComments=*/true, kMaxNesting) > kMaxNesting)
    return "nests deeper than " + std::to_string(kMaxNesting) + " levels";
  double need = 8.0 * (double)text.size();
  if (!fits(need))
    return "is " + formatSize((double)text.size()) + "; parsing it needs about " +
           formatSize(need) + ", " + overBudget();
  return "";
}
