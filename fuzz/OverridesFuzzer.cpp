//===- OverridesFuzzer.cpp - libFuzzer harness: --set overrides -----------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// Fuzzes `--set KEY=VALUE` (scripts/fuzz.sh overrides). An input is text:
/// its first line names a shipped target, each further line is one
/// override. A malformed, unknown or ill-typed override, or one the loader
/// then refuses, must say why (exit 2's message); an accepted machine is
/// compiled for and timed (TargetFuzz.h), as every description is.
///
//===----------------------------------------------------------------------===//

#include "TargetFuzz.h"

#include "llvm/ADT/StringExtras.h"

using namespace dfa;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  limits::setMaxMemory(fuzz::kFuzzMaxMemory);
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  llvm::SmallVector<llvm::StringRef> lines;
  text.split(lines, '\n', /*MaxSplit=*/64, /*KeepEmpty=*/false);
  if (lines.empty())
    return 0;
  std::string name = lines.front().trim().str();
  static const char *const kShipped[] = {"cpu",     "gpu-h100", "gpu-h200",
                                         "groq-tsp", "spyre",   "tpu-v4",
                                         "tpu-v5e",  "wse-2",   "wse-3"};
  if (!llvm::is_contained(kShipped, name))
    name = "tpu-v5e";
  std::vector<std::string> overrides;
  for (llvm::StringRef line : llvm::drop_begin(lines)) {
    std::string error;
    if (!target::parseOverride(line, error)) {
      if (error.empty())
        fuzz::bug("an override was refused without a reason");
      return 0;
    }
    overrides.push_back(line.str());
  }
  target::Registry registry({}, overrides);
  target::Target t;
  std::string error;
  Status s = registry.find(name, t, error);
  if (s != Status::Ok) {
    if (error.empty())
      fuzz::bug("overrides were refused without a reason");
    if (s != Status::Usage)
      fuzz::bug("a shipped description with overrides failed other than as "
                "a usage error: " + error);
    return 0;
  }
  if (t.overrides.size() != overrides.size())
    fuzz::bug("an accepted override was not recorded");
  fuzz::compileAndTime(t);
  return 0;
}
