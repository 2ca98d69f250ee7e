//===- DimExpr.cpp - sizes of symbolic dims -------------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "dfa/Support/DimExpr.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MathExtras.h"

using namespace dfa;

std::string dfa::formatDims(const std::map<std::string, int64_t> &dims,
                            llvm::StringRef sep) {
  std::string s;
  for (const auto &[name, v] : dims)
    s += (s.empty() ? "" : sep.str()) + name + "=" + std::to_string(v);
  return s;
}

bool dfa::isDimName(llvm::StringRef d) {
  return !d.empty() && !llvm::isDigit(d.front()) &&
         llvm::all_of(d, [](char c) {
           return llvm::isAlnum(c) || c == '_' || c == '.';
         });
}

DimValue dfa::evalDimExpr(llvm::StringRef expr,
                          const std::map<std::string, int64_t> &dims) {
  DimValue r;
  if (auto it = dims.find(expr.trim().str()); it != dims.end()) {
    r.kind = DimValue::Value;
    r.value = it->second;
    return r;
  }
  auto bad = [&](llvm::StringRef why) {
    r.kind = DimValue::Malformed;
    r.detail = why.str();
    return r;
  };
  int64_t sum = 0;
  int sign = 1;
  llvm::StringRef rest = expr;
  std::string unbound;
  while (true) {
    size_t end = rest.find_first_of("+-");
    llvm::StringRef term = rest.substr(0, end);
    int64_t product = 1;
    llvm::SmallVector<llvm::StringRef> factors;
    term.split(factors, '*');
    for (llvm::StringRef f : factors) {
      f = f.trim();
      int64_t v = 1;
      if (f.empty())
        return bad("not NAME or a sum of products of names and integers");
      if (f.getAsInteger(10, v)) {
        auto it = dims.find(f.str());
        if (it == dims.end()) {
          if (unbound.empty())
            unbound = f.str();
          continue;
        }
        v = it->second;
      }
      if (llvm::MulOverflow(product, v, product))
        return bad("overflows");
    }
    if (llvm::AddOverflow(sum, sign * product, sum))
      return bad("overflows");
    if (end == llvm::StringRef::npos)
      break;
    sign = rest[end] == '-' ? -1 : 1;
    rest = rest.substr(end + 1);
  }
  if (!unbound.empty()) {
    r.kind = DimValue::Unbound;
    r.detail = unbound;
    return r;
  }
  if (sum < 0)
    return bad("is negative (" + std::to_string(sum) + ")");
  r.kind = DimValue::Value;
  r.value = sum;
  return r;
}
