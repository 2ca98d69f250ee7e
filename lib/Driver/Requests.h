//===- Requests.h - request streams through a compile cache ----*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// Private to lib/Driver. `dfa-run --requests FILE` replays a stream of
/// requests (JSONL, one a line: `{"shapes": {"x": [1, 37, 64]}}`, or
/// `"inputs": {"x": "a.npy"}` whose files give the shapes) through a
/// compile cache keyed by the guards each compile records (the symbolic
/// dims it bound, rounded up to a bucket where `--buckets` names one), as
/// TorchDynamo's cache keys its graphs by their guards. It replays the
/// stream three ways: exact shapes, the given buckets, and buckets chosen
/// from the stream (`--suggest-buckets K`). dfa-bisect reads the same
/// replay for a recompile storm.
///
//===----------------------------------------------------------------------===//

#ifndef LIB_DRIVER_REQUESTS_H
#define LIB_DRIVER_REQUESTS_H

#include "dfa/Driver/Driver.h"
#include "dfa/Driver/Tools.h"
#include "dfa/Import/ONNX.h"

#include "llvm/Support/JSON.h"

#include <map>
#include <optional>

namespace dfa::driver {

/// A dim's value for every guard: symbolic names (and `input[d]` for an
/// unnamed dim) to sizes.
using GuardKey = std::map<std::string, int64_t>;

struct Request {
  int64_t line = 0;
  /// The sizes the request binds, checked against the model's inputs.
  GuardKey dims;
};

/// Reads FILE and binds each request's shapes to the model's symbolic
/// dims (`inputs`, the model's signatures; `fixed`, the dims --dim binds).
/// A malformed line, an input the model lacks, a shape of the wrong rank,
/// a static dim it contradicts or two sizes for one dim: BadInput (6),
/// naming FILE:LINE.
Status readRequests(llvm::StringRef path,
                    llvm::ArrayRef<GraphInputSignature> inputs,
                    const std::map<std::string, int64_t> &fixed,
                    std::vector<Request> &out, DiagnosticPrinter &printer);

/// The same for the text of FILE (the fuzz harness's entry): `error`
/// gets the message. Files named by "inputs" are read relative to FILE's
/// folder. More than a million requests: LimitExceeded (14).
Status parseRequests(llvm::StringRef path, llvm::StringRef text,
                     llvm::ArrayRef<GraphInputSignature> inputs,
                     const std::map<std::string, int64_t> &fixed,
                     std::vector<Request> &out, std::string &error);

/// Sizes per dim: `NAME=S1,S2,...` (`--buckets`), each list sorted.
Status parseBuckets(llvm::ArrayRef<std::string> specs,
                    std::map<std::string, std::vector<int64_t>> &out,
                    DiagnosticPrinter &printer);

/// One schedule of `--buckets` on dfa-compile, dfa-run and dfa-roofline:
/// each bucketed dim at one of its sizes (the product over dims), and the
/// smallest size each of them serves (the bucket below plus one; 1 for the
/// first): the worst case its padding is for.
struct BucketVariant {
  GuardKey dims, smallest;
  std::string label() const; // "seq=128" ("seq=128,batch=4")
};
std::vector<BucketVariant>
bucketVariants(const std::map<std::string, std::vector<int64_t>> &buckets);
/// --buckets as dfa-compile and dfa-roofline take it: parsed, and no dim
/// that --dim (`io`) binds too (Usage).
Status parseBucketFlags(const ModelFlags &flags, const ONNXImportOptions &io,
                        std::map<std::string, std::vector<int64_t>> &out,
                        DiagnosticPrinter &printer);
/// Whether `module`'s graph.guards bound each dim of `want` to its size
/// (not a --shape's); Usage otherwise.
Status checkGuards(mlir::ModuleOp module, const GuardKey &want,
                   DiagnosticPrinter &printer);
/// Imports `path` with `io` and the variant's sizes into `out`, checks
/// that each bucketed dim is a symbolic input dim (its graph.guards), and
/// the padding at the variant's smallest sizes: FLOPs and bytes of the
/// graph, padded against exact (NaN when the model does not import at
/// that size).
Status importBucket(llvm::StringRef path, mlir::MLIRContext &ctx,
                    const ONNXImportOptions &io, const BucketVariant &v,
                    ImportResult &out, double &flopsWaste, double &bytesWaste,
                    DiagnosticPrinter &printer);

/// A single run's bucket (`dfa-run --buckets` without --requests): the
/// sizes the run binds, the bucket's, the bucket schedule's simulated time
/// (time only) and the work of both graphs.
struct BucketRun {
  GuardKey exact, dims;
  double seconds = 0;
  double flops = 0, exactFlops = 0, bytes = 0, exactBytes = 0;
  std::string label() const;
};
/// Fills `out` for the exact import `exact` (its graph.guards name the
/// sizes) on target `t`: compiles and simulates the bucket's schedule.
/// A bucketed dim the model does not have: Usage.
Status runBucket(const RunOptions &opts, mlir::MLIRContext &ctx,
                 mlir::ModuleOp exact, const target::Target &t, BucketRun &out,
                 DiagnosticPrinter &printer);
void bucketRunJson(llvm::json::OStream &j, const BucketRun &b);
/// The stderr line: "bucket seq=64 for seq=37: ...".
void printBucketRun(const BucketRun &b, llvm::raw_ostream &os);

/// The K sizes that minimise the padded elements of `values` (each size
/// occurs as often as given) when each is rounded up to the next one:
/// the largest value is always one. Fewer when there are fewer values.
std::vector<int64_t> suggestBuckets(const std::map<int64_t, int64_t> &counts,
                                    int64_t k);

/// The key a compile for `dims` specializes: each bucketed dim rounded up
/// to its bucket (left as it is past the largest).
GuardKey bucketed(const GuardKey &dims,
                  const std::map<std::string, std::vector<int64_t>> &buckets);

/// One compile's outcome, kept by the cache.
struct CompiledEntry {
  Status status = Status::Ok;
  std::string error;
  double compileSeconds = 0; // measured: dfa's own import and compile
  double runSeconds = 0;     // simulated step time
  double flops = 0, bytes = 0; // the graph's work at these sizes
};

/// One request as a way replayed it.
struct RequestOutcome {
  int64_t line = 0;
  GuardKey key;
  bool compiled = false;
  double compileSeconds = 0, runSeconds = 0;
  /// FLOPs and bytes of the compiled sizes against the request's own.
  double flops = 0, exactFlops = 0, bytes = 0, exactBytes = 0;
  Status status = Status::Ok;
  std::string error;
};

struct Way {
  std::string name; // "exact", "buckets", "suggested"
  std::map<std::string, std::vector<int64_t>> buckets;
  std::vector<RequestOutcome> requests;
  int64_t compiles = 0, warmupCompiles = 0, cacheHits = 0, failed = 0;
  double compileSeconds = 0, runSeconds = 0;
  double flops = 0, exactFlops = 0, bytes = 0, exactBytes = 0;
  /// Compiles past the recompile limit: the storm, and the guard that
  /// missed most (the dim whose size was new), how often, and the request
  /// of the last compile.
  bool storm = false;
  std::string failingGuard;
  int64_t guardMisses = 0, lastCompile = -1;
  double paddingWaste() const {
    return flops > 0 ? (flops - exactFlops) / flops : 0;
  }
  double paddingWasteBytes() const {
    return bytes > 0 ? (bytes - exactBytes) / bytes : 0;
  }
};

struct StreamReport {
  std::string file;
  int64_t count = 0, recompileLimit = 8;
  /// Per dim the requests bind: distinct sizes, smallest, largest.
  struct DimRange {
    int64_t distinct = 0, min = 0, max = 0;
  };
  std::map<std::string, DimRange> dims;
  std::vector<Way> ways;
  /// The way the top-level summary reports: the given buckets when there
  /// are any, else the exact shapes.
  const Way &primary() const;
};

/// Replays the stream on target `t` every way the options ask for.
Status replayRequests(const RunOptions &opts, mlir::MLIRContext &ctx,
                      StreamReport &report, DiagnosticPrinter &printer);

void printStream(const StreamReport &r, llvm::raw_ostream &os);
void writeStreamJson(llvm::json::OStream &j, const StreamReport &r);

/// dfa-run --requests.

} // namespace dfa::driver

#endif // LIB_DRIVER_REQUESTS_H
