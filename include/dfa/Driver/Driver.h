//===- Driver.h - shared pieces of the dfa tools ----------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// What every dfa tool does the same way: one-line diagnostics, loading a
/// model by its file type, reading input tensors, comparing results.
///
//===----------------------------------------------------------------------===//

#ifndef DFA_DRIVER_DRIVER_H
#define DFA_DRIVER_DRIVER_H

#include "dfa/Import/ONNX.h"
#include "dfa/Reference/Tensor.h"
#include "dfa/Support/Status.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"

#include <string>
#include <vector>

namespace mlir {
class PassManager;
} // namespace mlir

namespace dfa::driver {

/// Prints every diagnostic as one line on stderr:
/// `<tool>: <file>[:line:col]: error: <message>`.
class DiagnosticPrinter {
public:
  DiagnosticPrinter(mlir::MLIRContext &ctx, llvm::StringRef tool);
  ~DiagnosticPrinter();
  /// Prints an error that has no IR location.
  void error(const llvm::Twine &message);
  /// Prints a warning that has no IR location.
  void warning(const llvm::Twine &message);

private:
  mlir::MLIRContext &ctx;
  mlir::DiagnosticEngine::HandlerID id;
  std::string tool;
};

/// Parses MLIR's own options (`--mlir-timing`, `--mlir-print-ir-after-all`,
/// `--mlir-pass-statistics`, `--mlir-pass-pipeline-crash-reproducer=FILE`,
/// the IR printing and context options): every pass manager and context
/// made afterwards applies them. An unknown one is printed and is Usage.
Status parseMlirOptions(llvm::StringRef tool,
                        const std::vector<std::string> &args);

/// Applies what parseMlirOptions read to a pass manager (nothing when it
/// read nothing).
Status applyMlirOptions(mlir::PassManager &pm);

/// Creates a context with every dfa dialect and the reference interfaces.
std::unique_ptr<mlir::MLIRContext> createContext();

/// What a model file is, by its extension.
enum class ModelKind {
  ONNX,     // .onnx
  FX,       // .fx.json (dfa-export-fx)
  Topology, // .csv: a SCALE-Sim topology (docs/scalesim.md)
  MLIR,     // .mlir: a graph module, or a saved schedule (.sched.mlir)
  Unknown,
};
ModelKind modelKind(llvm::StringRef path);

/// Whether a model of this kind can carry symbolic dims (an ONNX model's
/// dim_params, a torch.export graph's Dims): what --buckets, --requests and
/// LLM mode bind.
inline bool hasSymbolicDims(ModelKind kind) {
  return kind == ModelKind::ONNX || kind == ModelKind::FX;
}
/// Models that are imported from a source format (not parsed as MLIR).
inline bool isImported(ModelKind k) {
  return k == ModelKind::ONNX || k == ModelKind::FX || k == ModelKind::Topology;
}
/// The extensions modelKind knows, for messages.
constexpr const char *kModelExtensions = ".onnx, .fx.json, .csv or .mlir";

/// Loads `path` by its kind: `.onnx`, `.fx.json` and `.csv` are imported,
/// `.mlir` parsed.
ImportResult loadModel(llvm::StringRef path, mlir::MLIRContext &ctx,
                       const ONNXImportOptions &options);

/// The op coverage of an imported model (`--check`).
ImportResult checkModel(llvm::StringRef path, mlir::MLIRContext &ctx,
                        OpCoverage &coverage);

/// The names of the inputs the model takes, in order.
Status modelInputNames(llvm::StringRef path, mlir::MLIRContext &ctx,
                       std::vector<std::string> &names, std::string &error);

/// The signatures of the inputs an ONNX model or an FX export takes, in
/// order, with their symbolic dims by name, read without importing the
/// graph; Status::Usage for another kind of model (its shapes are static).
Status modelInputSignatures(llvm::StringRef path,
                            std::vector<GraphInputSignature> &inputs,
                            std::string &error);

/// Reads a tensor from an ONNX TensorProto `.pb` or a numpy `.npy` file.
Status readTensorFile(llvm::StringRef path, ref::Tensor &tensor,
                      std::string &name, std::string &error);

/// Parses `name=d0,d1,...` (a --shape value).
bool parseShapeArg(llvm::StringRef arg, std::string &name,
                   std::vector<int64_t> &dims);

/// One output checked against its expected value: by a budget of the
/// tolerance model (dfa-run's default), or numpy.allclose-style.
struct Comparison {
  bool ok = true;
  std::string problem; // shape or dtype mismatch, when any
  int64_t mismatches = 0;
  double maxAbsError = 0, maxRelError = 0;
  /// The element furthest over its allowance (over rtol/atol: the one
  /// with the largest error among the mismatches).
  int64_t worstIndex = -1;
  double worstActual = 0, worstExpected = 0;
  /// By the tolerance model: the budget's class, reduction length, stored
  /// format and profile; the error at the worst element in ulps of the
  /// stored format and the budget there; whether the same-format
  /// reference and the fp64 oracle were run (only when needed).
  bool budgeted = false;
  std::string opClass, storedFormat, profile;
  int64_t reductionLength = 1;
  double worstUlps = 0, budgetUlps = 0;
  bool references = false;
};

/// Why `actual` cannot be compared with `expected` (their shapes or
/// element types differ), or "".
std::string incomparable(const ref::Tensor &actual, const ref::Tensor &expected);

/// numpy.allclose-style: |actual - expected| <= atol + rtol * |expected|,
/// NaN equal to NaN; integer and bool tensors compare exactly.
Comparison compare(const ref::Tensor &actual, const ref::Tensor &expected,
                   double rtol, double atol);

/// Row-major index of element `i` of `shape`, as "[a, b, c]".
std::string indexString(llvm::ArrayRef<int64_t> shape, int64_t i);

} // namespace dfa::driver

#endif // DFA_DRIVER_DRIVER_H
