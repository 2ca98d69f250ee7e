//===- ImportFuzz.h - one importer run on fuzzed bytes ----------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// The body of the ONNX and FX import fuzzers: the model is imported as
/// `dfa-compile` imports it (a fresh context each time, so uniqued
/// attributes do not pile up), then read again as `--check` reads it.
///
//===----------------------------------------------------------------------===//

#ifndef DFA_FUZZ_IMPORTFUZZ_H
#define DFA_FUZZ_IMPORTFUZZ_H

#include "FuzzSupport.h"

#include "dfa/Driver/Driver.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Verifier.h"

namespace dfa::fuzz {

inline void importAndCheck(const uint8_t *data, size_t size,
                           llvm::StringRef suffix, bool noWeights) {
  std::string path = writeInput(data, size, suffix);
  auto ctx = driver::createContext();
  int errors = 0;
  ctx->getDiagEngine().registerHandler([&](mlir::Diagnostic &d) {
    errors += d.getSeverity() == mlir::DiagnosticSeverity::Error;
    return mlir::success();
  });
  ONNXImportOptions options;
  options.noWeights = noWeights;
  ImportResult r = driver::loadModel(path, *ctx, options);
  if (r.status == Status::Internal)
    bug("internal error on import");
  if (r.status != Status::Ok && errors == 0)
    bug("import failed without a diagnostic");
  if (r.status == Status::Ok && mlir::failed(mlir::verify(*r.module)))
    bug("import succeeded with invalid IR");
  r.module = nullptr;

  OpCoverage coverage;
  errors = 0;
  ImportResult c = driver::checkModel(path, *ctx, coverage);
  if (c.status == Status::Internal)
    bug("internal error in --check");
  // Unsupported ops are --check's answer, a report rather than an error.
  bool report = c.status == Status::Unsupported && !coverage.unsupported.empty();
  if (c.status != Status::Ok && !report && errors == 0)
    bug("--check failed without a diagnostic");
}

} // namespace dfa::fuzz

#endif // DFA_FUZZ_IMPORTFUZZ_H
