//===- ONNXImportFuzzer.cpp - libFuzzer harness: ONNX import --------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// Fuzzes the ONNX importer with model bytes (seeds: the ONNX node-test
/// models and the test suite's models; scripts/fuzz.sh onnx-import).
///
//===----------------------------------------------------------------------===//

#include "ImportFuzz.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  dfa::fuzz::importAndCheck(data, size, ".onnx", /*noWeights=*/false);
  return 0;
}
