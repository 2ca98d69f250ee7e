//===- Format.cpp - numbers for people ------------------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Format.h"

#include "llvm/Support/FormatVariadic.h"

#include <cstdio>

std::string dfa::driver::humanSeconds(double seconds) {
  char buf[32];
  if (seconds >= 1)
    std::snprintf(buf, sizeof buf, "%.3g s", seconds);
  else if (seconds >= 1e-3)
    std::snprintf(buf, sizeof buf, "%.3g ms", seconds * 1e3);
  else
    std::snprintf(buf, sizeof buf, "%.3g us", seconds * 1e6);
  return buf;
}

std::string dfa::driver::humanBytes(int64_t b) {
  const char *units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double v = double(b);
  int u = 0;
  while (v >= 1024 && u < 4) {
    v /= 1024;
    ++u;
  }
  return u == 0 ? llvm::formatv("{0} B", b).str()
                : llvm::formatv("{0:f1} {1}", v, units[u]).str();
}
