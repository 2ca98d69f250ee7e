//===- ONNX.h - ONNX model importer -----------------------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// Imports an ONNX model (opsets 7 to 17) into a `graph` module. This is the
/// only library that links protobuf and libonnx.
///
//===----------------------------------------------------------------------===//

#ifndef DFA_IMPORT_ONNX_H
#define DFA_IMPORT_ONNX_H

#include "dfa/Import/Import.h"
#include "dfa/Reference/Tensor.h"

#include <map>
#include <string>
#include <vector>

namespace dfa {

struct ONNXImportOptions {
  /// Static shapes for graph inputs, overriding the model's (`--shape`).
  std::map<std::string, std::vector<int64_t>> shapes;
  /// Graph inputs whose values are fixed at compile time (`--specialize`):
  /// they become constants, and shape computations on them fold.
  std::map<std::string, ref::Tensor> specialized;
  /// Import shapes only: weights carry no file (`--no-weights`).
  bool noWeights = false;
  /// Initializers of at most this many bytes are held inline as constants;
  /// larger ones become `graph.weight` references into the file.
  int64_t inlineLimitBytes = 1024;
  /// Nodes whose inputs are all constants are evaluated at import when their
  /// results have at most this many elements.
  int64_t foldLimitElements = 1 << 16;
};

ImportResult importONNX(llvm::StringRef path, mlir::MLIRContext &ctx,
                        const ONNXImportOptions &options);

/// Reads the model's nodes without importing them.
ImportResult checkONNX(llvm::StringRef path, mlir::MLIRContext &ctx,
                       OpCoverage &coverage);

/// Names of the graph inputs a caller must feed (initializers excluded), in
/// order.
Status onnxGraphInputs(llvm::StringRef path, std::vector<std::string> &names,
                       std::string &error);

/// The ONNX op types dfa imports.
std::vector<std::string> supportedONNXOps();

/// Reads an ONNX TensorProto file (`input_0.pb`). Sets `name` to the
/// tensor's name when it has one.
Status readTensorProtoFile(llvm::StringRef path, ref::Tensor &tensor,
                           std::string &name, std::string &error);

} // namespace dfa

#endif // DFA_IMPORT_ONNX_H
