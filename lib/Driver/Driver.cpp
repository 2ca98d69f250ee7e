//===- Driver.cpp - shared pieces of the dfa tools --------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "dfa/Support/Progress.h"
#include "dfa/Driver/Driver.h"

#include "dfa/Import/FX.h"
#include "dfa/Import/Topology.h"
#include "dfa/InitAllDialects.h"
#include "dfa/Reference/Evaluator.h"
#include "dfa/Reference/Npy.h"
#include "dfa/Support/Limits.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/Timing.h"
#include "llvm/Support/CommandLine.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>

using namespace mlir;
using namespace dfa;
using namespace dfa::driver;

static std::string locationPrefix(Location loc) {
  std::string out;
  loc->walk([&](Location l) {
    if (auto file = dyn_cast<FileLineColLoc>(l)) {
      out = file.getFilename().str();
      if (file.getLine() != 0)
        out += ":" + std::to_string(file.getLine()) + ":" +
               std::to_string(file.getColumn());
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return out;
}

/// "file:line:col: 'node': " for a diagnostic at `loc`, naming the source
/// node unless `message` does (the importer's errors do; a run-time check
/// of an op the node became does not); empty when there is neither.
static std::string diagnosticPrefix(Location loc, llvm::StringRef message) {
  std::string where = locationPrefix(loc);
  if (auto name = dyn_cast<NameLoc>(loc))
    if (std::string quoted = "'" + name.getName().str() + "'";
        !message.contains(quoted))
      where += (where.empty() ? "" : ": ") + quoted;
  return where.empty() ? "" : where + ": ";
}

DiagnosticPrinter::DiagnosticPrinter(MLIRContext &ctx, llvm::StringRef tool)
    : ctx(ctx), tool(tool.str()) {
  id = ctx.getDiagEngine().registerHandler([this](Diagnostic &diag) {
    const char *kind = "error";
    switch (diag.getSeverity()) {
    case DiagnosticSeverity::Warning: kind = "warning"; break;
    case DiagnosticSeverity::Note: kind = "note"; break;
    case DiagnosticSeverity::Remark: kind = "remark"; break;
    default: break;
    }
    progress::clear();
    std::string message = diag.str();
    llvm::errs() << this->tool << ": "
                 << diagnosticPrefix(diag.getLocation(), message) << kind
                 << ": " << message << "\n";
    for (Diagnostic &note : diag.getNotes()) {
      std::string text = note.str();
      llvm::errs() << this->tool << ": "
                   << diagnosticPrefix(note.getLocation(), text)
                   << "note: " << text << "\n";
    }
    return success();
  });
}

DiagnosticPrinter::~DiagnosticPrinter() {
  ctx.getDiagEngine().eraseHandler(id);
}

void DiagnosticPrinter::error(const llvm::Twine &message) {
  progress::clear();
  llvm::errs() << tool << ": error: " << message << "\n";
}

void DiagnosticPrinter::warning(const llvm::Twine &message) {
  progress::clear();
  llvm::errs() << tool << ": warning: " << message << "\n";
}

/// Whether parseMlirOptions registered MLIR's options (applying them
/// before is an error in MLIR).
static bool mlirOptionsRegistered = false;

Status dfa::driver::applyMlirOptions(mlir::PassManager &pm) {
  if (!mlirOptionsRegistered)
    return Status::Ok;
  if (failed(mlir::applyPassManagerCLOptions(pm)))
    return Status::Usage;
  mlir::applyDefaultTimingPassManagerCLOptions(pm);
  return Status::Ok;
}

Status dfa::driver::parseMlirOptions(llvm::StringRef tool,
                                    const std::vector<std::string> &args) {
  if (args.empty())
    return Status::Ok;
  if (!mlirOptionsRegistered) {
    mlir::registerAsmPrinterCLOptions();
    mlir::registerMLIRContextCLOptions();
    mlir::registerPassManagerCLOptions();
    mlir::registerDefaultTimingManagerCLOptions();
    mlirOptionsRegistered = true;
  }
  std::vector<const char *> argv = {tool.data()};
  for (const std::string &a : args)
    argv.push_back(a.c_str());
  std::string errors;
  llvm::raw_string_ostream os(errors);
  if (!llvm::cl::ParseCommandLineOptions(int(argv.size()), argv.data(), "",
                                         &os)) {
    // cl's message names the option; one line per problem, as ours.
    llvm::StringRef rest = llvm::StringRef(errors).trim();
    while (!rest.empty()) {
      auto [line, next] = rest.split('\n');
      line = line.trim();
      if (line.consume_front(tool) && line.consume_front(":"))
        line = line.ltrim();
      if (!line.empty())
        llvm::errs() << tool << ": error: " << line << "\n";
      rest = next;
    }
    return Status::Usage;
  }
  return Status::Ok;
}

std::unique_ptr<MLIRContext> dfa::driver::createContext() {
  DialectRegistry registry;
  registerAllDialects(registry);
  ref::registerReferenceInterfaces(registry);
  auto ctx = std::make_unique<MLIRContext>(registry);
  ctx->loadAllAvailableDialects();
  // Errors name the source node; a dump of the failing op is noise to a user.
  ctx->printOpOnDiagnostic(false);
  return ctx;
}

ModelKind dfa::driver::modelKind(llvm::StringRef path) {
  if (path.ends_with(".onnx"))
    return ModelKind::ONNX;
  if (path.ends_with(".fx.json"))
    return ModelKind::FX;
  if (path.ends_with(".csv"))
    return ModelKind::Topology;
  if (path.ends_with(".mlir"))
    return ModelKind::MLIR;
  return ModelKind::Unknown;
}

ImportResult dfa::driver::loadModel(llvm::StringRef path, MLIRContext &ctx,
                                    const ONNXImportOptions &options) {
  switch (modelKind(path)) {
  case ModelKind::ONNX:
    return importONNX(path, ctx, options);
  case ModelKind::FX: {
    FXImportOptions fx;
    fx.noWeights = options.noWeights;
    fx.dims = options.dims;
    return importFX(path, ctx, fx);
  }
  case ModelKind::Topology:
    return importTopology(path, ctx);
  case ModelKind::MLIR:
    break;
  case ModelKind::Unknown: {
    ImportResult result;
    emitError(UnknownLoc::get(&ctx))
        << "'" << path << "': unknown model type (expected "
        << kModelExtensions << ")";
    result.status = Status::Usage;
    return result;
  }
  }
  ImportResult result;
  std::string err;
  auto file = openInputFile(path, &err);
  if (!file) {
    emitError(UnknownLoc::get(&ctx)) << err;
    result.status = Status::IOError;
    return result;
  }
  std::string tooMuch = limits::checkMlirText(file->getBuffer());
  if (!tooMuch.empty()) {
    emitError(FileLineColLoc::get(&ctx, path, 0, 0)) << tooMuch;
    result.status = Status::LimitExceeded;
    return result;
  }
  llvm::SourceMgr sm;
  sm.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  result.module = parseSourceFile<ModuleOp>(sm, &ctx);
  if (!result.module)
    result.status = Status::InvalidModel;
  return result;
}

Status dfa::driver::modelInputSignatures(llvm::StringRef path,
                                         std::vector<GraphInputSignature> &inputs,
                                         std::string &error) {
  ModelKind kind = modelKind(path);
  if (kind == ModelKind::ONNX)
    return onnxInputSignatures(path, inputs, error);
  if (kind == ModelKind::FX)
    return fxInputSignatures(path, inputs, error);
  assert(!hasSymbolicDims(kind) && "a kind with symbolic dims has no reader");
  error = "'" + path.str() + "' has no symbolic dims: an ONNX model's dim_params "
          "or a torch.export graph's Dims (dfa-export-fx --method export "
          "--dynamic-dim) name them";
  return Status::Usage;
}

Status dfa::driver::modelInputNames(llvm::StringRef path, MLIRContext &ctx,
                                    std::vector<std::string> &names,
                                    std::string &error) {
  switch (modelKind(path)) {
  case ModelKind::ONNX:
    return onnxGraphInputs(path, names, error);
  case ModelKind::FX:
    return fxGraphInputs(path, names, error);
  case ModelKind::Topology:
    return topologyInputs(path, names, error);
  case ModelKind::MLIR:
  case ModelKind::Unknown:
    break;
  }
  ImportResult r = loadModel(path, ctx, {});
  if (r.status != Status::Ok)
    return r.status;
  auto func = r.module->lookupSymbol<func::FuncOp>("main");
  if (!func) {
    error = "'" + path.str() + "' has no function @main";
    return Status::InvalidModel;
  }
  for (unsigned i = 0; i < func.getNumArguments(); ++i) {
    auto name = func.getArgAttrOfType<StringAttr>(i, graph::kNameAttr);
    names.push_back(name ? name.str() : "arg" + std::to_string(i));
  }
  return Status::Ok;
}

ImportResult dfa::driver::checkModel(llvm::StringRef path, MLIRContext &ctx,
                                     OpCoverage &coverage) {
  switch (modelKind(path)) {
  case ModelKind::FX:
    return checkFX(path, ctx, coverage);
  case ModelKind::Topology:
    return checkTopology(path, ctx, coverage);
  default:
    return checkONNX(path, ctx, coverage);
  }
}

Status dfa::driver::readTensorFile(llvm::StringRef path, ref::Tensor &tensor,
                                   std::string &name, std::string &error) {
  if (path.ends_with(".npy")) {
    name.clear();
    if (!ref::readNpy(path, tensor, error))
      return llvm::sys::fs::exists(path) ? Status::BadInput : Status::IOError;
    return Status::Ok;
  }
  if (path.ends_with(".pb"))
    return readTensorProtoFile(path, tensor, name, error);
  error = "'" + path.str() + "': unknown tensor file type (expected .pb or .npy)";
  return Status::Usage;
}

bool dfa::driver::parseShapeArg(llvm::StringRef arg, std::string &name,
                                std::vector<int64_t> &dims) {
  auto [n, rest] = arg.split('=');
  if (n.empty() || !arg.contains('='))
    return false;
  name = n.str();
  dims.clear();
  if (rest.trim().empty()) // NAME=: a scalar
    return true;
  llvm::SmallVector<llvm::StringRef> parts;
  rest.split(parts, ',');
  for (llvm::StringRef p : parts) {
    int64_t d;
    if (p.trim().getAsInteger(10, d) || d < 0)
      return false;
    dims.push_back(d);
  }
  return true;
}

std::string dfa::driver::indexString(llvm::ArrayRef<int64_t> shape,
                                     int64_t i) {
  llvm::SmallVector<int64_t> idx(shape.size());
  for (int64_t d = (int64_t)shape.size() - 1; d >= 0; --d) {
    idx[d] = shape[d] ? i % shape[d] : 0;
    i = shape[d] ? i / shape[d] : 0;
  }
  std::string s = "[";
  for (size_t d = 0; d < idx.size(); ++d)
    s += (d ? ", " : "") + std::to_string(idx[d]);
  return s + "]";
}

std::string dfa::driver::incomparable(const ref::Tensor &actual,
                                      const ref::Tensor &expected) {
  if (actual.shape() != expected.shape())
    return "shape " + ref::shapeString(actual.shape()) + ", expected " +
           ref::shapeString(expected.shape());
  if (actual.dtype() != expected.dtype()) {
    std::string s = "element type " + ref::dtypeName(actual.dtype()).str() + ", expected " +
                    ref::dtypeName(expected.dtype()).str();
    // A float32 file stands for a narrower float only where it holds that
    // type's values exactly (as --outputs writes them).
    if (expected.dtype() == ref::DType::F32 &&
        (actual.dtype() == ref::DType::BF16 || ref::isMinifloat(actual.dtype())))
      s += " (not every value is a " + ref::dtypeName(actual.dtype()).str() + ")";
    return s;
  }
  return "";
}

Comparison dfa::driver::compare(const ref::Tensor &actual,
                                const ref::Tensor &expected, double rtol,
                                double atol) {
  Comparison c;
  c.problem = incomparable(actual, expected);
  if (!c.problem.empty()) {
    c.ok = false;
    return c;
  }
  bool exact = !ref::isFloat(expected.dtype());
  double worst = -1;
  for (int64_t i = 0, n = expected.numElements(); i < n; ++i) {
    double a = actual.getDouble(i), e = expected.getDouble(i);
    bool good;
    double err = 0;
    if (exact) {
      good = actual.getInt(i) == expected.getInt(i);
      err = good ? 0 : std::fabs(a - e);
    } else if (std::isnan(a) || std::isnan(e)) {
      good = std::isnan(a) && std::isnan(e);
      err = good ? 0 : INFINITY;
    } else if (std::isinf(a) || std::isinf(e)) {
      good = a == e;
      err = good ? 0 : INFINITY;
    } else {
      err = std::fabs(a - e);
      good = err <= atol + rtol * std::fabs(e);
      c.maxAbsError = std::max(c.maxAbsError, err);
      if (e != 0)
        c.maxRelError = std::max(c.maxRelError, err / std::fabs(e));
    }
    if (!good) {
      ++c.mismatches;
      if (err > worst) {
        worst = err;
        c.worstIndex = i;
        c.worstActual = a;
        c.worstExpected = e;
      }
    }
  }
  c.ok = c.mismatches == 0;
  return c;
}
