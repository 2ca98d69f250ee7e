//===- SweepSpecFuzzer.cpp - libFuzzer harness: dfa-sweep specs -----------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// Fuzzes the `dfa.sweep/1` reader (scripts/fuzz.sh sweep-spec): the
/// input's first byte picks JSON or YAML, the rest is the spec. A refused
/// spec must say why; an accepted one must name at most the limit of
/// points, each with a describable point, and every results line a point
/// makes must read back as itself.
///
//===----------------------------------------------------------------------===//

#include "FuzzSupport.h"

#include "dfa/Sweep/Sweep.h"

using namespace dfa;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  limits::setMaxMemory(fuzz::kFuzzMaxMemory);
  if (size == 0)
    return 0;
  const char *file = (data[0] & 1) ? "fuzz.yaml" : "fuzz.json";
  llvm::StringRef text(reinterpret_cast<const char *>(data) + 1, size - 1);
  std::string error;
  std::optional<sweep::Spec> spec = sweep::parseSpec(file, text, error);
  if (!spec) {
    if (error.empty())
      fuzz::bug("a spec was refused without a reason");
    return 0;
  }
  std::vector<sweep::Point> points = sweep::points(*spec);
  if (points.size() > 1000000)
    fuzz::bug("a spec names more points than its limit");
  for (size_t i = 0; i < points.size() && i < 64; ++i) {
    sweep::Result r;
    r.index = points[i].index;
    r.point = points[i].describe();
    r.metrics["seconds"] = 1;
    std::optional<sweep::Result> back = sweep::parseResult(r.line());
    if (!back || back->line() != r.line())
      fuzz::bug("a results line does not read back as itself");
  }
  return 0;
}
