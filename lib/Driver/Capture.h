//===- Capture.h - diagnostics kept instead of printed ----------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// Private to lib/Driver. Work whose failure is an answer rather than a
/// message (a bisection's many runs, --check's steps) runs with its
/// diagnostics kept: the first error, the source node it names, and the
/// warnings.
///
//===----------------------------------------------------------------------===//

#ifndef LIB_DRIVER_CAPTURE_H
#define LIB_DRIVER_CAPTURE_H

#include "dfa/Support/SourceName.h"

#include "mlir/IR/Diagnostics.h"

#include <string>
#include <vector>

namespace dfa::driver {

/// What a piece of work reported.
struct Captured {
  std::string node, message; // the first error and the node it names
  std::vector<std::string> warnings;
  /// "'NODE': message", or the message where it names no node.
  std::string located() const {
    return (node.empty() ? "" : "'" + node + "': ") + message;
  }
};

/// Runs `body` with the context's diagnostics kept in `c` (printed
/// nowhere; a first error stays first); returns what `body` returns.
template <typename F>
auto capturing(mlir::MLIRContext &ctx, Captured &c, F body) {
  mlir::ScopedDiagnosticHandler capture(&ctx, [&](mlir::Diagnostic &d) {
    if (d.getSeverity() == mlir::DiagnosticSeverity::Error && c.message.empty()) {
      c.node = sourceName(d.getLocation());
      c.message = d.str();
    }
    if (d.getSeverity() == mlir::DiagnosticSeverity::Warning)
      c.warnings.push_back(d.str());
    return mlir::success();
  });
  return body();
}

} // namespace dfa::driver

#endif // LIB_DRIVER_CAPTURE_H
