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
  /// Sizes of symbolic dims by name (`--dim`): an input dim whose
  /// `dim_param` is a bound name, or a sum of products of names and
  /// integers ("past_sequence_length + sequence_length"), takes its value.
  std::map<std::string, int64_t> dims;
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
  /// Past a node that needs a value known only at run time (a graph break),
  /// go on: record it, skip what depends on it, and report them all in
  /// ImportResult::breaks instead of a module (`dfa-compile --check`).
  bool collectBreaks = false;
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

/// A graph input as the model declares it.
struct GraphInputSignature {
  std::string name;
  /// Bytes per element; 0 for a type without a fixed size.
  int64_t elementBytes = 0;
  /// Each dim as written: its size in decimal, its symbolic name (the
  /// `dim_param`, possibly an expression such as "past + seq"), or "" when
  /// it is neither. Empty when the input declares no shape.
  std::vector<std::string> dims;
};

/// The signatures of the graph inputs a caller must feed, in order.
Status onnxInputSignatures(llvm::StringRef path,
                           std::vector<GraphInputSignature> &inputs,
                           std::string &error);

/// The ONNX op types dfa imports.
std::vector<std::string> supportedONNXOps();

/// Reads an ONNX TensorProto file (`input_0.pb`). Sets `name` to the
/// tensor's name when it has one.
Status readTensorProtoFile(llvm::StringRef path, ref::Tensor &tensor,
                           std::string &name, std::string &error);

} // namespace dfa

#endif // DFA_IMPORT_ONNX_H
