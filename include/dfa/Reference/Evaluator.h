//===- Evaluator.h - CPU reference interpreter for graph ----------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// Evaluates a `graph` function on the host, op by op, through each op's
/// ReferenceOpInterface. Values are freed after their last use.
///
//===----------------------------------------------------------------------===//

#ifndef DFA_REFERENCE_EVALUATOR_H
#define DFA_REFERENCE_EVALUATOR_H

#include "dfa/Reference/Tensor.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectRegistry.h"
#include "llvm/ADT/DenseMap.h"

#include <unordered_map>

namespace dfa::ref {

struct EvalOptions {
  /// Accumulate float reductions, matmuls and convolutions in double.
  bool fp64Accumulate = false;
  /// Accumulate float matmuls, convolutions and attention products in a
  /// narrower float format, rounding after every addition, as a matrix unit
  /// with such an accumulator does (0: in float32).
  int accumulatorMantissaBits = 0, accumulatorExponentBits = 0;
  /// Compute every matrix op in IEEE arithmetic whatever its
  /// graph.fp32_matmul mode (the fp64 oracle: exact math, not a format).
  bool ieeeMatmul = false;
  /// Keep every value after the run, for get(); by default each is freed
  /// after its last use.
  bool keepValues = false;
  /// Keep each weight graph.weight reads for this Evaluator's later runs
  /// (dfa-run --repeat: warm runs, as an inference session holds its
  /// weights), rather than mapping its file again each run.
  bool keepWeights = false;
};

/// Bytes of a statically shaped tensor of an element type the reference
/// knows (0 for any other type), in double: hostile shapes overflow int64.
double staticTensorBytes(mlir::Type type);

/// The most bytes an Evaluator holds at once running `body`: its arguments
/// and each value until its last use (every value, with `keepValues`).
/// `at` is set to the op after which the peak is reached (null when the
/// arguments alone are the peak).
/// The first op of `body` (its terminator aside) that the reference cannot
/// evaluate, or null.
mlir::Operation *firstUnevaluable(mlir::Block &body);

double peakLiveBytes(mlir::Block &body, bool keepValues,
                     mlir::Operation **at = nullptr);

class Evaluator {
public:
  explicit Evaluator(EvalOptions options = {}) : opts(options) {}

  const EvalOptions &options() const { return opts; }

  /// The value of an operand; it must have been computed.
  const Tensor &get(mlir::Value v) const;
  void set(mlir::Value v, Tensor t);

  /// Runs `func` on `args` (one per function argument, in order). Checks the
  /// arguments against the signature and reports mismatches as errors at the
  /// function's location.
  mlir::FailureOr<llvm::SmallVector<Tensor>> run(mlir::func::FuncOp func,
                                                 llvm::ArrayRef<Tensor> args);

  /// Runs the ops of `body` (its arguments bound to `args` when given)
  /// up to its terminator, whose operands are the results.
  mlir::FailureOr<llvm::SmallVector<Tensor>>
  runBlock(mlir::Block &body, llvm::ArrayRef<Tensor> args = {});

  /// A weight kept from an earlier run (EvalOptions::keepWeights), or null;
  /// keepWeight() keeps one.
  const Tensor *keptWeight(mlir::Operation *op) const;
  void keepWeight(mlir::Operation *op, const Tensor &t);

  /// Evaluates one op whose operands are `operands`.
  static mlir::FailureOr<llvm::SmallVector<Tensor>>
  evaluateOp(mlir::Operation *op, llvm::ArrayRef<Tensor> operands,
             EvalOptions options = {});

private:
  struct ValueHash {
    size_t operator()(mlir::Value v) const { return mlir::hash_value(v); }
  };
  EvalOptions opts;
  /// Node-based, so that a reference from get() stays valid while an op
  /// with several results sets them one by one (a DenseMap would move its
  /// tensors when it grows).
  std::unordered_map<mlir::Value, Tensor, ValueHash> values;
  /// Weights kept between runs; tensors share their storage, and no kernel
  /// writes its operands.
  llvm::DenseMap<mlir::Operation *, Tensor> weights;
};

/// Reads a weight's bytes (zstd-compressed when `zstdBytes` is given) at
/// `offset` of `file` into `t`, which has the weight's type and shape; with
/// `rowPitch`, each row (the last dim) starts that many bytes after the
/// previous one (a window of columns). An uncompressed, packed weight may
/// instead become a copy-on-write mapping of the file (t's storage is
/// replaced): no copy, and no bytes until touched.
bool readWeight(llvm::StringRef file, uint64_t offset,
                std::optional<uint64_t> zstdBytes,
                std::optional<uint64_t> rowPitch, Tensor &t,
                std::string &error);

/// Attaches the reference implementation to every graph op.
void registerReferenceInterfaces(mlir::DialectRegistry &registry);

/// The host element type of an MLIR element type, if dfa supports it.
std::optional<DType> dtypeOf(mlir::Type elementType);
/// The MLIR element type of a host element type.
mlir::Type mlirTypeOf(DType t, mlir::MLIRContext *ctx);

/// Converts between tensors and elements attributes (dense or resource).
Tensor tensorFromAttr(mlir::ElementsAttr attr);
/// Dense elements for the builtin element types, a resource blob of codes
/// for the graph minifloats.
mlir::ElementsAttr tensorToAttr(const Tensor &t, mlir::MLIRContext *ctx);

/// Folds the ops of `block` from `from` on whose operands are all
/// `graph.constant`s into constants, evaluated by the reference, in order
/// (a folded result feeds the next): what an exporter's constant folding
/// does, for the importers (an FX graph's index arithmetic and masks built
/// from zeros and aranges, which would otherwise be kernels every step).
/// An op with a result of more than `limitElements` elements, one whose
/// evaluation fails, and a widening cast from a narrow type (a
/// dequantization, kept so that a product reads the narrow weight) stay.
/// `replaced`, when given, maps each folded result to its constant.
void foldConstantOps(mlir::Block &block, mlir::Block::iterator from,
                     int64_t limitElements,
                     llvm::DenseMap<mlir::Value, mlir::Value> *replaced = nullptr);

} // namespace dfa::ref

#endif // DFA_REFERENCE_EVALUATOR_H
