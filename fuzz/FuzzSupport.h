//===- FuzzSupport.h - what every dfa fuzzer shares -------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// The importers and dfa-run read files, so a harness writes each input to
/// a private file and runs the real entry point on it. A documented exit
/// code is a good outcome; an internal error (70), a failure without a
/// diagnostic, or invalid IR from a successful import is a bug, and the
/// harness aborts so libFuzzer keeps the input.
///
//===----------------------------------------------------------------------===//

#ifndef DFA_FUZZ_FUZZSUPPORT_H
#define DFA_FUZZ_FUZZSUPPORT_H

#include "dfa/Support/Limits.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <unistd.h>

namespace dfa::fuzz {

/// The memory budget of every harness: well under libFuzzer's -rss_limit_mb
/// (4 GiB in scripts/fuzz.sh), so an input that asks for too much meets
/// dfa's limit (exit 14) before the fuzzer's.
constexpr int64_t kFuzzMaxMemory = int64_t(1) << 30;

/// Writes `data` to `<dir>/fuzz-<pid><suffix>` and returns its path. The
/// directory is $DFA_FUZZ_TMP, else /dev/shm when it exists, else /tmp.
inline std::string writeInput(const uint8_t *data, size_t size,
                              llvm::StringRef suffix) {
  static std::string dir = [] {
    limits::setMaxMemory(kFuzzMaxMemory);
    if (const char *d = std::getenv("DFA_FUZZ_TMP"))
      return std::string(d);
    return std::string(access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp");
  }();
  std::string path =
      dir + "/fuzz-" + std::to_string(getpid()) + suffix.str();
  FILE *f = std::fopen(path.c_str(), "wb");
  if (!f || std::fwrite(data, 1, size, f) != size || std::fclose(f) != 0) {
    llvm::errs() << "fuzz: cannot write " << path << "\n";
    std::abort();
  }
  return path;
}

/// Stops the run: `what` is a bug dfa must not have.
[[noreturn]] inline void bug(llvm::StringRef what) {
  llvm::errs() << "fuzz: bug: " << what << "\n";
  std::abort();
}

} // namespace dfa::fuzz

#endif // DFA_FUZZ_FUZZSUPPORT_H
