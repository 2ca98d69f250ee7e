//===- Npy.h - numpy .npy files ---------------------------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef DFA_REFERENCE_NPY_H
#define DFA_REFERENCE_NPY_H

#include "dfa/Reference/Tensor.h"

#include <string>

namespace dfa::ref {

/// Reads a C-order little-endian .npy file (format versions 1 to 3). On
/// failure returns false and sets `error`.
bool readNpy(llvm::StringRef path, Tensor &out, std::string &error);

/// Writes `t` as a version 1.0 .npy file. bfloat16 has no numpy type and is
/// written as float32.
bool writeNpy(llvm::StringRef path, const Tensor &t, std::string &error);

} // namespace dfa::ref

#endif // DFA_REFERENCE_NPY_H
