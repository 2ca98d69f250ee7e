//===- Faults.cpp - the compiler faults --inject can plant ------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "dfa/Transforms/Schedule.h"

using namespace dfa;

llvm::ArrayRef<Fault> dfa::knownFaults() {
  static const Fault faults[] = {
      {"tail-drop", "copies cover whole sticks, tiles or vectors only: the "
                    "partial last one is dropped"},
      {"accum-f16", "matrix kernels accumulate in f16 instead of the "
                    "target's accumulator"},
  };
  return faults;
}

std::string dfa::faultHelp() {
  std::string s;
  for (const Fault &f : knownFaults())
    s += std::string(s.empty() ? "" : "; ") + f.name + " (" + f.effect + ")";
  return s;
}

std::vector<std::string> dfa::faultNames() {
  std::vector<std::string> names;
  for (const Fault &f : knownFaults())
    names.push_back(f.name);
  return names;
}
