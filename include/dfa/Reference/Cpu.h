//===- Cpu.h - whether this CPU runs the reference as built -----*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef DFA_REFERENCE_CPU_H
#define DFA_REFERENCE_CPU_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

namespace dfa::ref {

/// Whether this CPU runs the reference as built: a build vectorized for
/// x86-64-v3 (lib/Reference/CMakeLists.txt, DFA_X86_64_V3) on a CPU without
/// AVX2 and FMA would fault at its first kernel; this says so instead
/// (false, after a message naming `tool`). Inline, so that it compiles into
/// the caller, which is built for the baseline; the tools call it first.
inline bool checkCpu(llvm::StringRef tool) {
#if defined(DFA_REFERENCE_X86_64_V3) && (defined(__x86_64__) || defined(__i386__))
  if (!__builtin_cpu_supports("x86-64-v3")) {
    llvm::errs() << tool
                 << ": error: this build of dfa's CPU reference needs AVX2 and "
                    "FMA (x86-64-v3), which this CPU lacks; rebuild with "
                    "-DDFA_X86_64_V3=OFF\n";
    return false;
  }
#else
  (void)tool;
#endif
  return true;
}

} // namespace dfa::ref

#endif // DFA_REFERENCE_CPU_H
