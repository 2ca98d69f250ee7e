//===- Status.h - outcome codes shared by the dfa tools ---------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// The documented process exit codes of dfa-compile and dfa-run
/// (docs/cli.md). They are stable: scripts depend on them.
///
//===----------------------------------------------------------------------===//

#ifndef DFA_SUPPORT_STATUS_H
#define DFA_SUPPORT_STATUS_H

namespace dfa {

enum class Status : int {
  Ok = 0,
  /// Outputs differ from the expected values (`--expect`, `--test-data`).
  Mismatch = 1,
  /// Bad command line.
  Usage = 2,
  /// The model uses ops or features dfa does not support.
  Unsupported = 3,
  /// The model is malformed: unparsable, cyclic, dangling references,
  /// unresolved dynamic shapes, failed verification.
  InvalidModel = 4,
  /// A file could not be read or written.
  IOError = 5,
  /// An input tensor does not fit the model (shape, element type, count).
  BadInput = 6,
  /// Evaluation failed at run time (an out-of-range index, missing weights).
  RuntimeError = 7,
  /// A target description is malformed or incomplete.
  InvalidTarget = 8,
  /// The model fits no memory of the target (weights or activations).
  DoesNotFit = 9,
  /// A static plan breaks when simulated: two ops on one unit at once, or
  /// an op reading what another has not finished writing.
  ScheduleConflict = 12,
  /// A wait that can never complete (deadlock), or an op the watchdog
  /// stopped.
  Deadlock = 13,
  /// The input exceeds a limit of dfa: it would need more memory than
  /// `--max-memory`, or nests deeper than a parser may recurse.
  LimitExceeded = 14,
  /// A bug in dfa.
  Internal = 70,
};

inline int exitCode(Status s) { return static_cast<int>(s); }

} // namespace dfa

#endif // DFA_SUPPORT_STATUS_H
