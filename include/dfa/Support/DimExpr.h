//===- DimExpr.h - sizes of symbolic dims -----------------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// A symbolic dim as models write it: an ONNX `dim_param` ("batch",
/// "past_sequence_length + 1") or a torch.export size expression
/// ("2*batch", "seq + 1"). Both importers evaluate it here against the
/// user's `--dim NAME=N` bindings.
///
//===----------------------------------------------------------------------===//

#ifndef DFA_SUPPORT_DIMEXPR_H
#define DFA_SUPPORT_DIMEXPR_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace dfa {

struct DimValue {
  enum Kind { Value, Unbound, Malformed };
  Kind kind = Unbound;
  int64_t value = 0;
  /// For Unbound, the first unbound name; for Malformed, why.
  std::string detail;
};

/// Sizes of dims as text, by name: "batch=1,seq=64" (`sep` between them).
std::string formatDims(const std::map<std::string, int64_t> &dims,
                       llvm::StringRef sep = ",");

/// Whether an ONNX dim_param is a plain name ("seq", "past_len") rather
/// than an expression ("past + seq") or a number.
bool isDimName(llvm::StringRef dimParam);

/// Evaluates a bound name as it is ("seq-len"), else terms separated by
/// `+` or `-`, each a product of integers and names separated by `*`.
/// A negative or overflowing result is Malformed.
DimValue evalDimExpr(llvm::StringRef expr,
                     const std::map<std::string, int64_t> &dims);

} // namespace dfa

#endif // DFA_SUPPORT_DIMEXPR_H
