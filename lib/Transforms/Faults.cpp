//===- Faults.cpp - the compiler faults --inject can plant ------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "dfa/Transforms/Faults.h"

using namespace dfa;

llvm::ArrayRef<Fault> dfa::knownFaults() {
  static const Fault faults[] = {
      {"tail-drop", "copies cover whole sticks, tiles or vectors only: the "
                    "partial last one is dropped"},
      {"nan", "the kernel computing NODE writes a NaN into its first "
              "element", /*takesNode=*/true},
      {"swap-strides", "the first kernel reading a matrix reads it with its "
                       "two minor strides swapped"},
      {"drop-dep", "the first op that waits on others loses its "
                   "dependencies: it runs before its operands are ready"},
      {"dma-hang", "the first copy never completes"},
      {"accum-f16", "matrix kernels accumulate in f16 instead of the "
                    "target's accumulator"},
      {"ulp1", "the first kernel's float result moves by at most one unit "
               "in the last place"},
      {"var-unbiased", "layer norms, decomposed, divide their variance by "
                       "N - 1 instead of N", false, "graph-decompose"},
      {"host-layout", "in a run in segments, the first matrix the host sends "
                      "the device lands with its two minor dims' strides "
                      "swapped", false, kHostLinkFault},
      {"host-stale", "in a run in segments, the device reads the first value "
                     "the host sends before the copy lands: its buffer still "
                     "holds an earlier value of that size, or zeros",
       false, kHostLinkFault},
  };
  return faults;
}

const Fault *dfa::faultNamed(llvm::StringRef name) {
  for (const Fault &f : knownFaults())
    if (name == f.name)
      return &f;
  return nullptr;
}

bool dfa::isHostLinkFault(llvm::StringRef name) {
  const Fault *f = faultNamed(name);
  return f && llvm::StringRef(f->pass) == kHostLinkFault;
}

std::string dfa::faultHelp() {
  std::string s;
  for (const Fault &f : knownFaults())
    s += std::string(s.empty() ? "" : "; ") + f.name +
         (f.takesNode ? "@NODE" : "") + " (" + f.effect + ")";
  return s;
}

std::vector<std::string> dfa::faultNames() {
  std::vector<std::string> names;
  for (const Fault &f : knownFaults())
    names.push_back(std::string(f.name) + (f.takesNode ? "@NODE" : ""));
  return names;
}

std::string dfa::parseFault(llvm::StringRef spec, FaultSpec &out) {
  out = {};
  if (spec.empty())
    return "";
  auto [name, node] = spec.split('@');
  for (const Fault &f : knownFaults()) {
    if (name != f.name)
      continue;
    if (f.takesNode && node.empty())
      return "fault '" + name.str() + "' needs a node: " + name.str() + "@NODE";
    if (!f.takesNode && spec.contains('@'))
      return "fault '" + name.str() + "' takes no node";
    out.name = name.str();
    out.node = node.str();
    return "";
  }
  std::string known;
  for (const std::string &n : faultNames())
    known += (known.empty() ? "" : ", ") + n;
  return "unknown fault '" + spec.str() + "' (known: " + known + ")";
}
