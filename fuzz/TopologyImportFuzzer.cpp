//===- TopologyImportFuzzer.cpp - libFuzzer harness: SCALE-Sim topologies -===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// Fuzzes the SCALE-Sim topology CSV importer (seeds: the topologies of the
/// test suite and bench/scalesim_bench.py's; scripts/fuzz.sh
/// topology-import).
///
//===----------------------------------------------------------------------===//

#include "ImportFuzz.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  dfa::fuzz::importAndCheck(data, size, ".csv", /*noWeights=*/false);
  return 0;
}
