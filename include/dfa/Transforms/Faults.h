//===- Faults.h - compiler faults planted on purpose -------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef DFA_TRANSFORMS_FAULTS_H
#define DFA_TRANSFORMS_FAULTS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace dfa {

/// A compiler fault `--inject` can plant, for tests and teaching (and for
/// dfa-bisect's own tests: each is a known bug class to localize).
struct Fault {
  const char *name;
  const char *effect;
  /// Takes a source node: `NAME@NODE`.
  bool takesNode = false;
  /// The pass that plants it: "graph-decompose", kHostLinkFault (the run in
  /// segments) or (default) the lowering.
  const char *pass = "convert-graph-to-sched";
};
/// The `pass` of the faults a run in segments plants in its host link
/// (lib/Driver/Partition.cpp), not the compiler.
inline constexpr const char *kHostLinkFault = "host-link";
/// Every fault, in the order the help lists them.
llvm::ArrayRef<Fault> knownFaults();
/// The fault named `name` (without its node), or null.
const Fault *faultNamed(llvm::StringRef name);
/// Whether `name` is a fault the host link plants (kHostLinkFault).
bool isHostLinkFault(llvm::StringRef name);
/// "tail-drop (...); nan@NODE (...)": the faults for a help text.
std::string faultHelp();
/// The fault names, as written on the command line ("nan@NODE").
std::vector<std::string> faultNames();

/// An --inject value, parsed.
struct FaultSpec {
  std::string name; // "" for none
  std::string node; // nan@NODE's node
};
/// Parses `spec` into `out`; returns why it is not a fault ("" if it is).
std::string parseFault(llvm::StringRef spec, FaultSpec &out);

} // namespace dfa

#endif // DFA_TRANSFORMS_FAULTS_H
