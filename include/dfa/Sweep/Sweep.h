//===- Sweep.h - design-space sweeps: specs, points, results ----*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// `dfa-sweep`'s library side, independent of how a point is run: the spec
/// (`dfa.sweep/1`, JSON or YAML) and the points it names, in one fixed
/// order; the results file (JSONL, one line a point, its index first) with
/// its CSV; resuming, merging shards, and the HTML report. The runner that
/// compiles and simulates points is lib/Driver/Sweep.cpp.
///
//===----------------------------------------------------------------------===//

#ifndef DFA_SWEEP_SWEEP_H
#define DFA_SWEEP_SWEEP_H

#include "dfa/Support/Status.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace dfa::sweep {

/// What a point reports: the simulated time, the compile's counts, and
/// the machine's and the schedule's on-chip bytes. docs/tools/dfa-sweep.md
/// defines each.
const std::vector<std::string> &knownMetrics();

/// A value as a --set VALUE and a table shows it: a string as itself,
/// anything else as its JSON.
std::string valueText(const llvm::json::Value &v);

/// One swept key: a --set key path, or `dims.NAME` for a model dim.
struct Axis {
  std::string key;
  std::vector<llvm::json::Value> values;
};

struct Spec {
  std::string file; // where it was read from
  std::string dir;  // its folder: models are found relative to it
  std::vector<std::string> models, targets, targetDirs;
  /// The swept keys in the spec's order: overrides, then dims.
  std::vector<Axis> overrides, dims;
  /// Fixed --set overrides applied to every point.
  std::vector<std::string> fixed;
  /// "product" (every combination) or "zip" (the i-th value of each).
  std::string combine = "product";
  std::vector<std::string> metrics;
};

/// Reads a spec; on failure `error` names the file and the key.
std::optional<Spec> parseSpec(llvm::StringRef file, llvm::StringRef text,
                              std::string &error);
std::optional<Spec> readSpec(llvm::StringRef file, std::string &error);

/// A YAML document as JSON (mappings, sequences, scalars: plain scalars
/// that are JSON numbers, booleans or null become those).
std::optional<llvm::json::Value> yamlToJson(llvm::StringRef text,
                                            std::string &error);

struct Point {
  int64_t index = 0;
  std::string model, target;
  /// KEY=VALUE --set strings, fixed ones first, and model dims NAME=N.
  std::vector<std::string> overrides, dims;
  /// The point as results record it: {"model", "target", "dims": {..},
  /// "overrides": {..}} (dims and overrides keyed by their names).
  llvm::json::Object describe() const;
};

/// Every point of the spec, in order: models, then targets, then the
/// swept combinations (the last key fastest).
std::vector<Point> points(const Spec &spec);

/// One line of a results file: the point, its index, and its metrics or
/// its error.
struct Result {
  int64_t index = -1;
  llvm::json::Object point;
  std::map<std::string, double> metrics;
  int exitCode = 0;
  std::string error;
  /// The line as stored (compact JSON, keys sorted).
  std::string line() const;
};

/// The columns a set of results has: the names of their dims, of their
/// overrides and of their metrics, each sorted.
struct Columns {
  std::vector<std::string> dims, overrides, metrics;
};
Columns columnsOf(const std::vector<Result> &results);

/// Parses one results line (nullopt: not a results line, e.g. the partial
/// last line of an interrupted run).
std::optional<Result> parseResult(llvm::StringRef line);

/// Reads a results file: its complete lines. `truncatedAt` is the byte
/// length of its complete lines (less than the file when its last line was
/// cut off by an interruption). A missing file is no results.
Status readResults(llvm::StringRef path, std::vector<Result> &out,
                   uint64_t &truncatedAt, std::string &error);

/// Writes `results` sorted by index (JSONL) to `path`, and the CSV beside
/// it (`csvPath`: one column per point field and metric), each through a
/// temporary file renamed into place.
Status writeResults(llvm::StringRef path, llvm::StringRef csvPath,
                    std::vector<Result> results, std::string &error);

/// The CSV file beside a results file: RESULTS.jsonl -> RESULTS.csv.
std::string csvPathFor(llvm::StringRef resultsPath);

/// Joins shard files: every line once (the same index twice with different
/// contents is an error), sorted by index.
Status merge(const std::vector<std::string> &files, std::vector<Result> &out,
             std::string &error);

struct ReportOptions {
  std::string x, y; // metrics or swept keys; empty: chosen from the results
  std::string title;
};
/// A self-contained HTML report of `results`: the Pareto front of y over x
/// (both minimized), the sensitivity of time to each swept key, and a
/// table that sorts and filters. Nothing is fetched when it opens.
Status writeReport(llvm::raw_ostream &os, const std::vector<Result> &results,
                   const ReportOptions &opts, std::string &error);

/// The indices of `results` on the Pareto front of (x, y), both minimized:
/// no other point is at most as large in both and smaller in one. Ties
/// keep the first. Points lacking either value are not on it.
std::vector<size_t> paretoFront(const std::vector<std::pair<double, double>> &xy,
                                const std::vector<bool> &valid);

} // namespace dfa::sweep

#endif // DFA_SWEEP_SWEEP_H
