//===- FXImportFuzzer.cpp - libFuzzer harness: FX JSON import -------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// Fuzzes the `dfa.fx/1` JSON importer (seeds: the FX graphs the test
/// suite exports; scripts/fuzz.sh fx-import). The sidecar weights file a
/// graph names does not exist next to a fuzzed input, so the graph is
/// imported as `--no-weights` imports it.
///
//===----------------------------------------------------------------------===//

#include "ImportFuzz.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  dfa::fuzz::importAndCheck(data, size, ".fx.json", /*noWeights=*/true);
  return 0;
}
