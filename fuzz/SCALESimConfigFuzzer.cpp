//===- SCALESimConfigFuzzer.cpp - libFuzzer harness: SCALE-Sim .cfg -------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// Fuzzes the SCALE-Sim config reader (seeds: the configs of the test
/// suite and bench/scalesim_bench.py's; scripts/fuzz.sh scalesim-config).
/// A refused config must say why; the description an accepted one
/// translates into must pass the loader's checks, and is then compiled for
/// and timed (TargetFuzz.h).
///
//===----------------------------------------------------------------------===//

#include "TargetFuzz.h"

#include "dfa/Target/SCALESim.h"

using namespace dfa;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  limits::setMaxMemory(fuzz::kFuzzMaxMemory);
  std::string error;
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  std::optional<llvm::json::Value> d =
      target::scalesimDescription("fuzz.cfg", text, error);
  if (!d) {
    if (error.empty())
      fuzz::bug("a config was refused without a reason");
    return 0;
  }
  std::optional<target::Target> t = target::parseTargetValue("fuzz.cfg", *d, error);
  if (!t)
    fuzz::bug(("an accepted config translated into a description the "
               "loader refuses: " + error).c_str());
  fuzz::compileAndTime(*t);
  return 0;
}
