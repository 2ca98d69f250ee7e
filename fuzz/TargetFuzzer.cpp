//===- TargetFuzzer.cpp - libFuzzer harness: target descriptions ----------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// Fuzzes the target-description loader (seeds: targets/*.json;
/// scripts/fuzz.sh target). A rejected description must say why; an
/// accepted one is compiled for and timed (TargetFuzz.h).
///
//===----------------------------------------------------------------------===//

#include "TargetFuzz.h"

#include "llvm/Support/JSON.h"

using namespace dfa;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  limits::setMaxMemory(fuzz::kFuzzMaxMemory);
  std::string error;
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  // A description must be named after its file: name the file after the
  // description, so that the loader goes past that check.
  std::string file = "fuzz.json";
  if (limits::nestingDepth(text, false, limits::kMaxNesting) <= limits::kMaxNesting) {
    if (llvm::Expected<llvm::json::Value> v = llvm::json::parse(text)) {
      if (const llvm::json::Object *o = v->getAsObject())
        if (std::optional<llvm::StringRef> name = o->getString("name"))
          file = name->str() + ".json";
    } else {
      llvm::consumeError(v.takeError());
    }
  }
  std::optional<target::Target> t = target::parseTarget(file, text, error);
  if (!t) {
    if (error.empty())
      fuzz::bug("a description was rejected without a reason");
    return 0;
  }
  fuzz::compileAndTime(*t);
  return 0;
}
