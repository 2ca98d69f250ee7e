//===- TensorTypes.h - MLIR type text for the reference's unit tests -------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef TEST_UNIT_REFERENCE_TENSORTYPES_H
#define TEST_UNIT_REFERENCE_TENSORTYPES_H

#include <cstdint>
#include <string>
#include <vector>

namespace dfa::test {
/// "tensor<4x6xf32>" for {4, 6}: the type text of a test's one-op function.
inline std::string tensorType(const std::vector<int64_t> &shape,
                              const std::string &element = "f32") {
  std::string s = "tensor<";
  for (int64_t d : shape)
    s += std::to_string(d) + "x";
  return s + element + ">";
}
} // namespace dfa::test

#endif // TEST_UNIT_REFERENCE_TENSORTYPES_H
