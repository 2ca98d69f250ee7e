//===- Compare.h - dfa-bisect's tolerance model and metrics ------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// How dfa-bisect decides that a value is wrong. Each element is judged
/// against a budget set by the op class that made it and the format the
/// target stores it in:
///
///   movement, integer, bool   bit-exact (NaN equal to NaN)
///   elementwise arithmetic    ULPs of the stored format
///   transcendentals           more ULPs
///   reductions, contractions  c sqrt(K) u_acc max(|y|, rms y) + ULPs
///                             (Sigma|a_i b_i| approximated by |y| with
///                             the output's rms as a floor)
///   composites (softmax, norms) as reductions over their axis
///
/// In accumulated mode (a value computed from device values all the way
/// from the inputs) the budget also admits a multiple of the reference's
/// own error against the fp64 oracle, and the storage round-trip floor.
/// When the reference is another implementation's values (dfa-run's
/// --expect), the device's carried error is estimated by the same-format
/// CPU reference instead, and the expected values' own distance from the
/// oracle is admitted up to the same scale.
/// Aggregates (RMSE, cosine) are reported, never used to pass: a single
/// dropped element hides in them.
///
//===----------------------------------------------------------------------===//

#ifndef DFA_BISECT_COMPARE_H
#define DFA_BISECT_COMPARE_H

#include "dfa/Reference/Tensor.h"

#include "mlir/IR/Operation.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace dfa::bisect {

/// The tolerance class of a value: how its producer rounds
/// (graph::numericsOf, the graph dialect's one table of op classes), and
/// Exact for integer and bool results whatever the op.
enum class OpClass {
  Movement,       // copy, reshape, transpose, slice, concat, gather, pad
  Exact,          // integer and bool results, comparisons, argmax
  Elementwise,    // + - * / sqrt, max, relu, ...
  Transcendental, // exp, log, tanh, erf, sigmoid, ...
  Reduction,      // sums, means, matmuls, convolutions
  Composite,      // softmax, layer and group norms
};
llvm::StringRef className(OpClass c);

/// The op that makes a value, where it is not the value's defining op (a
/// kernel body's argument: the kernel that wrote the buffer it reads).
using ProducerFn = llvm::function_ref<mlir::Operation *(mlir::Value)>;

/// The class of a graph op, and the length K it reduces over (1 if none).
/// A sum of products (their producers found by `producerOf`, else their
/// defining ops) is a reduction over all their K.
OpClass classOf(mlir::Operation *op, int64_t &reductionLength,
                ProducerFn producerOf = nullptr);

/// Budgets of one profile: `strict` for CI, `lenient` for bring-up.
struct Profile {
  std::string name;
  double elementwiseUlps = 1, transcendentalUlps = 4;
  /// c of the reduction budget.
  double reductionC = 4;
  /// m: accumulated error may be m times the reference's own.
  double referenceMultiple = 2;
};
Profile strictProfile();
Profile lenientProfile();
/// "strict" or "lenient"; nullopt for other names.
std::optional<Profile> profileNamed(llvm::StringRef name);

/// A float format by its bits (u = 2^-(mantissaBits + 1)).
struct Format {
  std::string name;
  int mantissaBits = 23, exponentBits = 8;
};
/// The spacing of `format`'s values at `x` (its unit in the last place).
double ulp(double x, const Format &format);

/// What one value is held to.
struct Budget {
  OpClass cls = OpClass::Elementwise;
  Format stored;        // the format the target stores the value in
  Format accumulator;   // the reference's accumulator (reductions)
  int64_t reductionLength = 1;
  double ulps = 1;      // of the stored format (not for bit-exact classes)
  double reductionC = 4;
  /// Accumulated mode: m x |reference - oracle| is admitted too.
  bool accumulated = false;
  double referenceMultiple = 2;
  /// ULPs of the stored format admitted for the reference's own rounding
  /// when it is another implementation's values (dfa-run's --expect: the
  /// profile's elementwise ulps times sqrt(sum u_i^2) / u for the
  /// rounding ops on the output's chain, each u_i the relative spacing of
  /// the format it stores in, which the device need not round alike);
  /// 0 in dfa-bisect, whose reference rounds as the device does.
  double referenceUlps = 0;
};

/// The budget of a value of class `cls` under `p`.
Budget budgetFor(OpClass cls, int64_t reductionLength, const Profile &p,
                 const Format &stored, const Format &accumulator,
                 bool accumulated);

/// Everything measured about one compared value.
struct Metrics {
  int64_t elements = 0;
  /// Elements over budget, in order (all of them).
  std::vector<int64_t> bad;
  bool bitExact = true;
  double maxAbs = 0;
  int64_t maxAbsIndex = -1;
  /// The values there: what the target computed and the reference.
  double worstGot = 0, worstWant = 0;
  double maxRel = 0;
  int64_t maxRelIndex = -1;
  double maxUlp = 0, ulpP50 = 0, ulpP99 = 0;
  /// ULP buckets: 0, 1, 2, 3-10, 11-100, >100.
  std::array<int64_t, 6> ulpHistogram{};
  double rmse = 0, cosine = 1;
  /// Against the fp64 oracle, when there is one.
  double rmseVsOracle = 0, referenceRmseVsOracle = 0;
  /// NaN or Inf where the reference has none (or the other way round).
  int64_t nanMismatches = 0, infMismatches = 0;
  int64_t signFlips = 0, zerosWhereNonzero = 0;
  /// Elements off by more than 5% of max(|reference|, rms): errors of the
  /// order of the values, which rounding does not make.
  int64_t grossErrors = 0;
  /// Every bad element holds this one value (0, NaN, a pad value).
  std::optional<double> constantFill;
  /// The smallest budget scale that passes everything: the largest
  /// error over the allowed (1 passes), at `worstRatioIndex`, where the
  /// error was `ulpsAtWorst` ulps of the stored format and the budget
  /// `allowedUlpsAtWorst`.
  double worstRatio = 0;
  int64_t worstRatioIndex = -1;
  double ulpsAtWorst = 0, allowedUlpsAtWorst = 0;
  bool failed() const { return !bad.empty(); }
};

/// "1.23e+04", "nan", "inf": three significant digits.
std::string shortNumber(double x);

/// Compares `got` with `reference` (same shape) under `b`. `oracle`, when
/// defined, is the fp64 oracle's value (any float dtype, same shape).
/// `sameFormat`, when defined, is the same-format CPU reference's value:
/// `reference` is then another implementation's, and the carried error
/// admitted is c = m x |sameFormat - oracle| (with its rms floor), plus
/// the expected values' own error min(|reference - oracle|, c).
Metrics compare(const ref::Tensor &got, const ref::Tensor &reference,
                const ref::Tensor &oracle, const Budget &b,
                const ref::Tensor &sameFormat = ref::Tensor());

} // namespace dfa::bisect

#endif // DFA_BISECT_COMPARE_H
