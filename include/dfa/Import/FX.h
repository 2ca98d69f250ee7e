//===- FX.h - PyTorch FX graph importer -------------------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// Imports a `dfa.fx/1` graph (written by dfa-export-fx, see
/// docs/fx-format.md) into a `graph` module. Parameters stay in the sidecar
/// weights file, referenced by offset.
///
//===----------------------------------------------------------------------===//

#ifndef DFA_IMPORT_FX_H
#define DFA_IMPORT_FX_H

#include "dfa/Import/Import.h"

#include <map>
#include <string>

namespace dfa {

struct FXImportOptions {
  /// Import shapes only: weights carry no file.
  bool noWeights = false;
  /// Sizes of the graph's symbolic dims (torch.export Dims) by name
  /// (`--dim`); each must lie in the range the export recorded.
  std::map<std::string, int64_t> dims;
  /// Ops whose operands are all constants are evaluated at import when
  /// their results have at most this many elements (as the ONNX import's).
  int64_t foldLimitElements = 1 << 16;
};

ImportResult importFX(llvm::StringRef path, mlir::MLIRContext &ctx,
                      const FXImportOptions &options);

/// Lists the FX targets the graph uses that dfa does not support.
ImportResult checkFX(llvm::StringRef path, mlir::MLIRContext &ctx,
                     OpCoverage &coverage);

/// Names of the graph's placeholders, in order.
Status fxGraphInputs(llvm::StringRef path, std::vector<std::string> &names,
                     std::string &error);

/// The placeholders' signatures, in order: their recorded dtypes and shapes,
/// a torch.export Dim by its name.
Status fxInputSignatures(llvm::StringRef path,
                         std::vector<GraphInputSignature> &inputs,
                         std::string &error);

} // namespace dfa

#endif // DFA_IMPORT_FX_H
