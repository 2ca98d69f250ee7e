//===- Import.h - what every importer returns -------------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef DFA_IMPORT_IMPORT_H
#define DFA_IMPORT_IMPORT_H

#include "dfa/Support/Status.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <map>
#include <string>
#include <vector>

namespace dfa {

/// The outcome of an import: the module, or the status that says why not
/// (diagnostics have been emitted through the context).
struct ImportResult {
  mlir::OwningOpRef<mlir::ModuleOp> module;
  Status status = Status::Ok;
  /// Graph inputs whose values the import needed at compile time (shape
  /// operands); `--specialize` on them lets the import go through.
  std::vector<std::string> wantSpecialized;
};

/// What `dfa-compile --check` reports: op types used, and those dfa does not
/// support, with their counts and the nodes that use them.
struct OpCoverage {
  int64_t opset = 0;
  int64_t numNodes = 0;
  std::map<std::string, int64_t> supported;
  std::map<std::string, std::vector<std::string>> unsupported;
};

} // namespace dfa

#endif // DFA_IMPORT_IMPORT_H
