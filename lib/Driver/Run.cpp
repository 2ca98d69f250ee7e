//===- Run.cpp - dfa-run ----------------------------------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// Runs a model on the cpu target (the CPU reference) or, compiled, on any
/// other target through the schedule simulator (RunTarget.cpp); or runs a
/// saved .sched.mlir. Inputs come from files or seeded random values;
/// outputs are written as .npy and compared with expected values.
///
//===----------------------------------------------------------------------===//

#include "ModelFlags.h"
#include "RunCheck.h"
#include "Partition.h"
#include "Requests.h"
#include "RunTarget.h"

#include "dfa/Reference/Evaluator.h"
#include "dialects/Graph/GraphOps.h"
#include "dfa/Reference/Npy.h"
#include "dfa/Support/Limits.h"
#include "dfa/Support/SourceName.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cstring>
#include <cmath>
#include <random>

using namespace mlir;
using namespace dfa;
using namespace dfa::driver;

namespace {
using Named = NamedTensor;
} // namespace

/// input_N.pb and output_N.pb of an ONNX test-data folder, in N order.
Status dfa::driver::listTestData(llvm::StringRef dir, std::vector<std::string> &inputs,
                    std::vector<std::string> &outputs,
                    DiagnosticPrinter &printer) {
  if (!llvm::sys::fs::is_directory(dir)) {
    printer.error("--test-data: '" + dir.str() + "' is not a directory");
    return Status::IOError;
  }
  for (int i = 0;; ++i) {
    llvm::SmallString<128> p(dir);
    llvm::sys::path::append(p, "input_" + std::to_string(i) + ".pb");
    if (!llvm::sys::fs::exists(p))
      break;
    inputs.push_back(p.str().str());
  }
  for (int i = 0;; ++i) {
    llvm::SmallString<128> p(dir);
    llvm::sys::path::append(p, "output_" + std::to_string(i) + ".pb");
    if (!llvm::sys::fs::exists(p))
      break;
    outputs.push_back(p.str().str());
  }
  if (outputs.empty()) {
    printer.error("--test-data: '" + dir.str() + "' holds no output_0.pb");
    return Status::IOError;
  }
  return Status::Ok;
}

namespace {


Status readAll(const std::vector<std::string> &files, std::vector<Named> &out,
               DiagnosticPrinter &printer) {
  for (const std::string &f : files) {
    Named n;
    n.file = f;
    std::string err;
    Status s = readTensorFile(f, n.tensor, n.name, err);
    if (s != Status::Ok) {
      printer.error(err);
      return s;
    }
    out.push_back(std::move(n));
  }
  return Status::Ok;
}

/// The tensors of --inputs and of --expect.
Status readBoth(const std::vector<std::string> &inputFiles,
                const std::vector<std::string> &expectFiles,
                std::vector<Named> &inputs, std::vector<Named> &expected,
                DiagnosticPrinter &printer) {
  if (Status s = readAll(inputFiles, inputs, printer); s != Status::Ok)
    return s;
  return readAll(expectFiles, expected, printer);
}

/// Deterministic pseudo-random values: floats in [-1, 1), integers in
/// [0, 8), booleans at random.
ref::Tensor randomTensor(RankedTensorType type, std::mt19937_64 &rng) {
  ref::DType dt = *ref::dtypeOf(type.getElementType());
  ref::Tensor t(dt, type.getShape());
  for (int64_t i = 0, n = t.numElements(); i < n; ++i) {
    uint64_t r = rng();
    if (ref::isFloat(dt))
      t.setDouble(i, (double)(r >> 11) * 0x1.0p-52 - 1.0);
    else if (dt == ref::DType::Bool)
      t.setInt(i, r & 1);
    else
      t.setInt(i, r % 8);
  }
  return t;
}

/// numpy has no bfloat16 or float8: ONNX test data stores bfloat16 tensors
/// as uint16 bit patterns, and --outputs writes both widened to float32,
/// exactly. Where such a type is wanted, a tensor in either form is read
/// as it (a float32 one only where it holds that type's values exactly:
/// others stay float32, and the comparison names the type).
void adoptNumpyForm(ref::Tensor &t, std::optional<ref::DType> want) {
  if (want == ref::DType::BF16 && t.dtype() == ref::DType::U16) {
    ref::Tensor b(ref::DType::BF16, t.shape());
    std::memcpy(b.bytes(), t.bytes(), t.byteSize());
    t = b;
    return;
  }
  if (!want || t.dtype() != ref::DType::F32 ||
      !(*want == ref::DType::BF16 || ref::isMinifloat(*want)))
    return;
  std::vector<float> wide = t.toFloats();
  ref::Tensor narrow = ref::Tensor::fromFloats(*want, t.shape(), wide);
  std::vector<float> back = narrow.toFloats();
  for (size_t i = 0; i < wide.size(); ++i)
    if (!(back[i] == wide[i] || (std::isnan(back[i]) && std::isnan(wide[i]))))
      return;
  t = narrow;
}

/// Refuses work that would need more than --max-memory.
Status checkFits(double bytes, const std::string &what,
                 DiagnosticPrinter &printer) {
  if (limits::fits(bytes))
    return Status::Ok;
  printer.error(what + " needs about " + limits::formatSize(bytes) + ", " +
                limits::overBudget());
  return Status::LimitExceeded;
}

/// Bytes of the values a run makes for `types` (its inputs).
double inputBytes(TypeRange types) {
  double total = 0;
  for (Type t : types) {
    if (auto b = dyn_cast<sched::BufferType>(t))
      t = b.getTensor();
    total += ref::staticTensorBytes(t);
  }
  return total;
}

std::string describe(const ref::Tensor &t) {
  return ref::dtypeName(t.dtype()).str() + "[" + ref::shapeString(t.shape()) + "]";
}
/// --fp32-matmul on the CPU reference: its matrix ops round their f32
/// operands as the mode says (the compiled targets get it from
/// graph-decompose).
void setFp32MatmulMode(func::FuncOp func, const RunOptions &opts) {
  if (std::optional<graph::Fp32Matmul> mode = graph::fp32MatmulNamed(opts.fp32Matmul);
      mode && *mode != graph::Fp32Matmul::IEEE)
    graph::setFp32Matmul(func, *mode);
}

/// Writes the outputs, compares them with the expected values and prints
/// the text or JSON summary; `t` and `timing` for a compiled target.
int report(llvm::ArrayRef<ref::Tensor> results,
           llvm::ArrayRef<std::string> outNames, const RunOptions &opts,
           std::vector<Named> &expected, const OutputJudge &judge,
           const target::Target *t, const sim::Result *timing,
           DiagnosticPrinter &printer, llvm::function_ref<void()> footer,
           const SegmentedRun *segmented = nullptr,
           const BucketRun *bucket = nullptr) {
  if (!opts.outputs.empty()) {
    if (auto ec = llvm::sys::fs::create_directories(opts.outputs)) {
      printer.error("cannot create '" + opts.outputs + "': " + ec.message());
      return exitCode(Status::IOError);
    }
  }
  if (!expected.empty() && expected.size() != results.size()) {
    printer.error("the model has " + std::to_string(results.size()) +
                  " outputs, " + std::to_string(expected.size()) +
                  " expected values were given");
    return exitCode(Status::BadInput);
  }

  bool allOk = true;
  std::vector<Comparison> checks;
  std::vector<std::string> outFiles;
  std::string err;
  for (size_t i = 0; i < results.size(); ++i) {
    if (!opts.outputs.empty()) {
      llvm::SmallString<128> p(opts.outputs);
      llvm::sys::path::append(p, "output_" + std::to_string(i) + ".npy");
      if (!ref::writeNpy(p, results[i], err)) {
        printer.error(err);
        return exitCode(Status::IOError);
      }
      outFiles.push_back(p.str().str());
    }
  }
  if (!expected.empty()) {
    std::vector<ref::Tensor> want;
    for (size_t i = 0; i < results.size(); ++i) {
      adoptNumpyForm(expected[i].tensor, results[i].dtype());
      want.push_back(expected[i].tensor);
    }
    checks = checkOutputs(results, want, opts, judge);
    allOk = llvm::all_of(checks, [](const Comparison &c) { return c.ok; });
  }

  if (opts.json) {
    llvm::json::OStream j(llvm::outs(), 2);
    j.object([&] {
      j.attribute("schema", "dfa.run/1");
      j.attribute("model", opts.model.model);
      j.attribute("target", t ? t->name : opts.target);
      target::writeOverrides(j, t ? llvm::ArrayRef<target::Override>(t->overrides)
                                  : llvm::ArrayRef<target::Override>());
      j.attribute("status", expected.empty() ? "ran" : (allOk ? "match" : "mismatch"));
      j.attributeArray("outputs", [&] {
        for (size_t i = 0; i < results.size(); ++i)
          j.object([&] {
            const ref::Tensor &out = results[i];
            j.attribute("name", outNames[i]);
            j.attribute("dtype", ref::dtypeName(out.dtype()));
            j.attributeArray("shape", [&] {
              for (int64_t d : out.shape())
                j.value(d);
            });
            if (!outFiles.empty())
              j.attribute("file", outFiles[i]);
            if (!checks.empty())
              checkJson(j, checks[i], out.shape());
          });
      });
      if (timing)
        timeJson(j, *timing, *t);
      if (segmented)
        segmentsJson(j, *segmented);
      if (bucket)
        bucketRunJson(j, *bucket);
    });
    llvm::outs() << "\n";
  } else {
    for (size_t i = 0; i < results.size(); ++i) {
      const ref::Tensor &t = results[i];
      llvm::outs() << "output " << i << " '" << outNames[i] << "': " << describe(t);
      if (!outFiles.empty())
        llvm::outs() << " -> " << outFiles[i];
      if (!checks.empty())
        llvm::outs() << checkText(checks[i], t.shape());
      llvm::outs() << "\n";
    }
    llvm::outs().flush();
    footer();
  }
  return exitCode(allOk ? Status::Ok : Status::Mismatch);
}

/// Simulates a schedule and reports its values and time.
int simulateAndReport(sched::ProgramOp program, const target::Target &t,
                      llvm::ArrayRef<ref::Tensor> args,
                      llvm::ArrayRef<std::string> outNames,
                      const RunOptions &opts, std::vector<Named> &expected,
                      const OutputJudge &judge, DiagnosticPrinter &printer,
                      const BucketRun *bucket = nullptr) {
  if (opts.timeOnly && !expected.empty()) {
    printer.error("--time-only computes no values to compare with --expect");
    return exitCode(Status::Usage);
  }
  auto start = std::chrono::steady_clock::now();
  sim::Result result;
  Status s = simulateForRun(program, t, args, opts, result, printer);
  double ms = std::chrono::duration<double, std::milli>(
                  std::chrono::steady_clock::now() - start)
                  .count();
  if (s != Status::Ok)
    return exitCode(s);
  return report(result.outputs, outNames, opts, expected, judge, &t, &result,
                printer, [&] {
                  printTime(result, t, opts, ms);
                  if (bucket)
                    printBucketRun(*bucket, llvm::errs());
                }, nullptr, bucket);
}

/// Runs a model whose graph breaks in segments (Partition.h).
int runSegmented(const RunOptions &opts, PreparedRun &prepared,
                 MLIRContext &ctx, DiagnosticPrinter &printer) {
  target::Target t;
  const target::Target *compiled = nullptr;
  if (opts.target != target::kReferenceTarget) {
    if (Status s = loadTarget(opts.target, opts, t, printer); s != Status::Ok)
      return exitCode(s);
    if (!t.caps.reference)
      compiled = &t;
  }
  if (opts.timeOnly && !prepared.expected.empty()) {
    printer.error("--time-only computes no values to compare with --expect");
    return exitCode(Status::Usage);
  }
  SegmentedRun run;
  if (Status s = runInSegments(opts, prepared.inputsByName, compiled, ctx,
                               printer, run);
      s != Status::Ok)
    return exitCode(s);
  if (!opts.trace.empty() && run.timed) {
    std::string err;
    auto out = openOutputFile(opts.trace, &err);
    if (!out) {
      printer.error(err);
      return exitCode(Status::IOError);
    }
    sim::writeTrace(run.timeline, t, out->os());
    out->keep();
  }
  // The judge of a run in segments: --rtol/--atol (no single graph holds
  // the ops whose tolerance classes would budget each output).
  return report(run.outputs, run.outNames, opts, prepared.expected,
                OutputJudge{}, compiled ? &t : nullptr,
                run.timed ? &run.timeline : nullptr, printer,
                [&] { printSegments(run, compiled ? t.name : opts.target); },
                &run);
}

/// Runs a saved schedule on the target it names.
int runSchedule(sched::ProgramOp program, const RunOptions &opts,
                const std::vector<std::string> &inputFiles,
                const std::vector<std::string> &expectFiles,
                DiagnosticPrinter &printer) {
  std::string name = program.getTarget().getName().str();
  if (opts.target != target::kReferenceTarget && opts.target != name) {
    printer.error("the schedule was compiled for '" + name + "', not '" +
                  opts.target + "'");
    return exitCode(Status::Usage);
  }
  target::Target t;
  std::string err;
  if (Status s = scheduleTarget(program, opts.targetDirs, opts.overrides, t, err);
      s != Status::Ok) {
    printer.error(err);
    return exitCode(s);
  }
  std::vector<Named> inputs, expected;
  if (Status s = readBoth(inputFiles, expectFiles, inputs, expected, printer);
      s != Status::Ok)
    return exitCode(s);
  Block &body = program.getBlock();
  if (!inputs.empty() && inputs.size() != body.getNumArguments()) {
    printer.error("the schedule takes " + std::to_string(body.getNumArguments()) +
                  " inputs, " + std::to_string(inputs.size()) + " were given");
    return exitCode(Status::BadInput);
  }
  if (Status s = checkFits(inputBytes(body.getArgumentTypes()),
                           "making the schedule's inputs", printer);
      s != Status::Ok)
    return exitCode(s);
  std::mt19937_64 rng(opts.seed);
  SmallVector<ref::Tensor> args;
  for (BlockArgument arg : body.getArguments()) {
    auto type = cast<sched::BufferType>(arg.getType()).getTensor();
    if (!ref::dtypeOf(type.getElementType())) {
      std::string s;
      llvm::raw_string_ostream os(s);
      os << type;
      printer.error("the schedule takes " + s + ", which dfa cannot simulate");
      return exitCode(Status::InvalidModel);
    }
    if (inputs.empty()) {
      args.push_back(randomTensor(type, rng));
      continue;
    }
    ref::Tensor &given = inputs[arg.getArgNumber()].tensor;
    adoptNumpyForm(given, ref::dtypeOf(type.getElementType()));
    if (*ref::dtypeOf(type.getElementType()) != given.dtype() ||
        given.shape() != type.getShape()) {
      std::string want;
      llvm::raw_string_ostream os(want);
      os << type;
      printer.error("input " + std::to_string(arg.getArgNumber()) + " is " +
                    describe(given) + ", the schedule expects " + want);
      return exitCode(Status::BadInput);
    }
    args.push_back(given);
  }
  std::vector<std::string> outNames;
  for (unsigned i = 0; i < program.getBlock().getTerminator()->getNumOperands(); ++i)
    outNames.push_back("output" + std::to_string(i));
  return simulateAndReport(program, t, args, outNames, opts, expected,
                           scheduleJudge(opts, t, program, args), printer);
}
} // namespace

Status dfa::driver::prepareModelRun(const RunOptions &opts,
                                    const std::vector<std::string> &inputFiles,
                                    const std::vector<std::string> &expectFiles,
                                    MLIRContext &context,
                                    DiagnosticPrinter &printer,
                                    PreparedRun &out, bool segments) {
  MLIRContext *ctx = &context;
  llvm::StringRef modelPath(opts.model.model);
  // The model's own problems (unsupported ops, non-tensor inputs) come
  // before any complaint about the data given for it.
  std::vector<std::string> names;
  std::string err;
  if (isImported(modelKind(modelPath))) {
    OpCoverage cov;
    ImportResult check = checkModel(opts.model.model, *ctx, cov);
    if (check.status == Status::Unsupported && !cov.unsupported.empty()) {
      ImportResult full = loadModel(opts.model.model, *ctx, {});
      return full.status;
    }
    if (check.status != Status::Ok)
      return check.status;
  }
  if (Status s = modelInputNames(opts.model.model, *ctx, names, err);
      s != Status::Ok) {
    if (!err.empty())
      printer.error(err);
    return s;
  }

  std::vector<Named> inputs, expected;
  if (Status s = readBoth(inputFiles, expectFiles, inputs, expected, printer);
      s != Status::Ok)
    return s;

  // Match input files to the model's inputs: by the names TensorProto files
  // carry when they all match, else by position.
  if (!inputs.empty() && inputs.size() != names.size()) {
    printer.error("the model takes " + std::to_string(names.size()) +
                  " inputs, " + std::to_string(inputs.size()) + " were given");
    return Status::BadInput;
  }
  std::map<std::string, ref::Tensor> byName;
  bool useNames = llvm::all_of(inputs, [&](const Named &n) {
    return llvm::is_contained(names, n.name);
  });
  for (size_t i = 0; i < inputs.size(); ++i)
    byName[useNames ? inputs[i].name : names[i]] = inputs[i].tensor;

  // Import, specializing shape inputs as needed when asked to.
  ImportResult r;
  std::vector<std::string> extra;
  for (int attempt = 0;; ++attempt) {
    ONNXImportOptions importOpts;
    if (Status s = buildImportOptions(opts.model, byName, extra, importOpts,
                                      printer);
        s != Status::Ok)
      return s;
    bool retryable = opts.specializeAsNeeded && attempt < 16;
    // Hold back the errors of an attempt that a retry, or a run in
    // segments, may get past.
    bool segmentable = segments && modelKind(modelPath) == ModelKind::ONNX;
    HeldDiagnostics held;
    {
      std::unique_ptr<ScopedDiagnosticHandler> hold;
      if (retryable || segmentable)
        hold = held.hold(ctx);
      r = loadModel(opts.model.model, *ctx, importOpts);
    }
    auto release = [&] { held.release(); };

    if (r.status == Status::Ok || !retryable || r.wantSpecialized.empty()) {
      // (A success's warnings too; a break's error is the segments' work.)
      if (r.status == Status::Ok || !(segmentable && r.graphBreak))
        release();
      break;
    }
    bool added = false;
    for (const std::string &n : r.wantSpecialized)
      if (byName.count(n) && !llvm::is_contained(extra, n)) {
        extra.push_back(n);
        added = true;
      }
    if (!added) {
      if (!(segmentable && r.graphBreak))
        release();
      break;
    }
  }
  if (r.status != Status::Ok && r.graphBreak && segments &&
      modelKind(modelPath) == ModelKind::ONNX) {
    // A graph break: the model runs in segments, from the values given or,
    // without any, from seeded random ones; --specialize's files are
    // values too.
    if (opts.model.noWeights) {
      printer.error("the graph breaks at a value known only at run time: "
                    "its segments need the weights' values (drop --no-weights)");
      return Status::Usage;
    }
    ONNXImportOptions given;
    if (Status s = buildImportOptions(opts.model, byName, extra, given, printer);
        s != Status::Ok)
      return s;
    for (auto &[name, t] : given.specialized)
      byName.emplace(name, t);
    std::mt19937_64 rng(opts.seed);
    double bytes = 0;
    for (auto &[name, type] : r.inputTypes) {
      auto rt = cast<RankedTensorType>(type);
      bytes += ref::staticTensorBytes(rt);
      auto it = byName.find(name);
      if (it != byName.end()) {
        adoptNumpyForm(it->second, ref::dtypeOf(rt.getElementType()));
        continue;
      }
      if (!inputs.empty()) {
        printer.error("no value for input '" + name + "'");
        return Status::BadInput;
      }
      byName[name] = randomTensor(rt, rng);
    }
    if (Status s = checkFits(bytes, "making the model's inputs", printer);
        s != Status::Ok)
      return s;
    out.segmented = true;
    out.inputsByName = std::move(byName);
    out.expected = std::move(expected);
    return Status::Ok;
  }
  if (r.status != Status::Ok)
    return r.status;

  auto func = r.module->lookupSymbol<func::FuncOp>("main");
  if (!func) {
    printer.error("the model has no function @main");
    return Status::InvalidModel;
  }
  // A parsed .mlir function may take anything; dfa runs statically shaped
  // tensors of the element types it knows.
  for (Type t : llvm::concat<const Type>(func.getArgumentTypes(),
                                         func.getResultTypes())) {
    auto rt = dyn_cast<RankedTensorType>(t);
    double elems = 1;
    if (rt && rt.hasStaticShape())
      for (int64_t d : rt.getShape())
        elems *= (double)d;
    if (!rt || !rt.hasStaticShape() || !ref::dtypeOf(rt.getElementType()) ||
        elems > 1099511627776.0) {
      std::string s;
      llvm::raw_string_ostream os(s);
      os << t;
      printer.error("@main takes or returns " + s +
                    "; dfa runs statically shaped tensors of f64, f32, f16, "
                    "bf16, 8-bit float (e4m3fn, e4m3fnuz, e5m2, e5m2fnuz), 2-, 4-, 8-, 16-, 32- and 64-bit integer and bool elements");
      return Status::InvalidModel;
    }
  }
  if (Status s = checkFits(inputBytes(func.getArgumentTypes()),
                           "making the model's inputs", printer);
      s != Status::Ok)
    return s;
  std::mt19937_64 rng(opts.seed);
  SmallVector<ref::Tensor> args;
  for (unsigned i = 0; i < func.getNumArguments(); ++i) {
    auto type = cast<RankedTensorType>(func.getArgument(i).getType());
    auto nameAttr = func.getArgAttrOfType<StringAttr>(i, graph::kNameAttr);
    std::string name = nameAttr ? nameAttr.str() : "arg" + std::to_string(i);
    if (inputs.empty()) {
      args.push_back(randomTensor(type, rng));
      continue;
    }
    auto it = byName.find(name);
    if (it == byName.end()) {
      printer.error("no value for input '" + name + "'");
      return Status::BadInput;
    }
    auto dt = ref::dtypeOf(type.getElementType());
    adoptNumpyForm(it->second, dt);
    if (!dt || *dt != it->second.dtype() ||
        it->second.shape() != type.getShape()) {
      std::string expect;
      llvm::raw_string_ostream os(expect);
      os << type;
      printer.error("input '" + name + "' is " + describe(it->second) +
                    ", the model expects " + expect);
      return Status::BadInput;
    }
    args.push_back(it->second);
  }

  std::vector<std::string> outNames;
  for (unsigned i = 0; i < func.getNumResults(); ++i) {
    auto nameAttr = func.getResultAttrOfType<StringAttr>(i, graph::kNameAttr);
    outNames.push_back(nameAttr ? nameAttr.str() : "output" + std::to_string(i));
  }
  out.model = std::move(r);
  out.func = func;
  out.args = std::move(args);
  out.outNames = std::move(outNames);
  out.expected = std::move(expected);
  return Status::Ok;
}

int dfa::driver::runMain(const RunOptions &opts) {
  auto ctx = createContext();
  DiagnosticPrinter printer(*ctx, "dfa-run");
  std::vector<std::string> inputFiles = opts.inputs, expectFiles = opts.expect;
  if (!opts.testData.empty()) {
    if (!inputFiles.empty() || !expectFiles.empty()) {
      printer.error("--test-data cannot be combined with --inputs or --expect");
      return exitCode(Status::Usage);
    }
    Status s = listTestData(opts.testData, inputFiles, expectFiles, printer);
    if (s != Status::Ok)
      return exitCode(s);
  }
  if (!opts.model.buckets.empty() &&
      (opts.target == target::kReferenceTarget ||
       !hasSymbolicDims(modelKind(opts.model.model)))) {
    printer.error("--buckets compiles a bucket's schedule for a model's symbolic "
                  "dims (an ONNX model or a torch.export graph): give the model "
                  "and a --target to compile for");
    return exitCode(Status::Usage);
  }
  if (opts.repeat > 1 && (opts.target != target::kReferenceTarget ||
                          !opts.requests.empty())) {
    printer.error("--repeat times the CPU reference's evaluation: it takes "
                  "--target cpu (a simulated target's time is simulated, "
                  "not measured)");
    return exitCode(Status::Usage);
  }
  // A saved schedule runs on the target it was compiled for.
  llvm::StringRef modelPath(opts.model.model);
  if (modelPath.ends_with(".mlir")) {
    ImportResult parsed = loadModel(opts.model.model, *ctx, {});
    if (parsed.status != Status::Ok)
      return exitCode(parsed.status);
    if (sched::ProgramOp program = findProgram(*parsed.module)) {
      if (opts.tensorParallel > 1) {
        printer.error(kSavedScheduleTensorParallel);
        return exitCode(Status::Usage);
      }
      if (opts.repeat > 1) {
        printer.error("--repeat times the CPU reference's evaluation of a "
                      "model; a saved schedule's time is simulated");
        return exitCode(Status::Usage);
      }
      return runSchedule(program, opts, inputFiles, expectFiles, printer);
    }
  }
  if (opts.tensorParallel > 1 &&
      (opts.target == target::kReferenceTarget || !opts.timeOnly)) {
    printer.error(
        "--tensor-parallel compiles one chip's program of a compiled target "
        "(its weights hold no data): give a --target and --time-only");
    return exitCode(Status::Usage);
  }
  PreparedRun prepared;
  if (Status s = prepareModelRun(opts, inputFiles, expectFiles, *ctx, printer,
                                 prepared, /*segments=*/true);
      s != Status::Ok)
    return exitCode(s);
  if (prepared.segmented) {
    if (opts.repeat > 1) {
      printer.error("--repeat: the graph breaks and runs in segments, host "
                    "and device in turn; --repeat times one evaluation of a "
                    "whole graph");
      return exitCode(Status::Usage);
    }
    if (!opts.model.buckets.empty()) {
      printer.error("--buckets: the graph breaks and runs in segments; bound "
                    "its data-dependent sizes with --max-dim instead");
      return exitCode(Status::Usage);
    }
    return runSegmented(opts, prepared, *ctx, printer);
  }
  ImportResult &r = prepared.model;
  func::FuncOp func = prepared.func;
  SmallVector<ref::Tensor> &args = prepared.args;
  std::vector<std::string> &outNames = prepared.outNames;
  std::vector<Named> &expected = prepared.expected;
  // The CPU reference keeps every type as it is; its judge reads the
  // formats from the element types.
  target::Target t;
  if (opts.target != target::kReferenceTarget) {
    if (Status s = loadTarget(opts.target, opts, t, printer); s != Status::Ok)
      return exitCode(s);
    // A description that stands for the host (compiler.reference) runs the
    // graph on the CPU reference, as `cpu` does.
    if (!t.caps.reference) {
      // The graph as imported, for the judge's references (the module
      // itself becomes the schedule).
      OwningOpRef<ModuleOp> graph;
      OutputJudge judge;
      if (!expected.empty()) {
        graph = cast<ModuleOp>(r.module->getOperation()->clone());
        func::FuncOp main = graph->lookupSymbol<func::FuncOp>("main");
        setFp32MatmulMode(main, opts);
        judge = modelJudge(opts, t, main, args);
      }
      // --buckets: the bucket's schedule beside this run's own (its values
      // and time stay the exact shapes').
      std::optional<BucketRun> bucket;
      if (!opts.model.buckets.empty()) {
        bucket.emplace();
        if (Status s = runBucket(opts, *ctx, *r.module, t, *bucket, printer);
            s != Status::Ok)
          return exitCode(s);
      }
      if (Status s = compileForRun(*r.module, t, opts, printer); s != Status::Ok)
        return exitCode(s);
      return simulateAndReport(findProgram(*r.module), t, args, outNames, opts,
                               expected, judge, printer,
                               bucket ? &*bucket : nullptr);
    }
  }

  Operation *peakAt = nullptr;
  double peak = ref::peakLiveBytes(func.getBody().front(), false, &peakAt);
  if (Status s = checkFits(peak,
                           "running the model on the CPU reference" +
                               (peakAt ? " (its live values peak at node '" +
                                             sourceName(peakAt) + "')"
                                       : std::string()),
                           printer);
      s != Status::Ok)
    return exitCode(s);
  setFp32MatmulMode(func, opts);
  ref::EvalOptions evalOpts;
  evalOpts.fp64Accumulate = opts.fp64Accumulate;
  // --repeat: the same evaluation again in this process (warm caches, heap
  // and weights, as a benchmark's later runs); the last run's values are
  // reported.
  // Weights are kept from the first run for the later ones.
  std::vector<double> times;
  FailureOr<SmallVector<ref::Tensor>> results = failure();
  evalOpts.keepWeights = opts.repeat > 1;
  ref::Evaluator evaluator(evalOpts);
  for (int64_t i = 0; i < opts.repeat; ++i) {
    auto start = std::chrono::steady_clock::now();
    results = evaluator.run(func, args);
    times.push_back(std::chrono::duration<double, std::milli>(
                        std::chrono::steady_clock::now() - start)
                        .count());
    if (failed(results))
      return exitCode(Status::RuntimeError);
  }
  return report(*results, outNames, opts, expected,
                modelJudge(opts, t, func, args), nullptr, nullptr, printer, [&] {
    std::vector<double> sorted = times;
    std::sort(sorted.begin(), sorted.end());
    llvm::errs() << "dfa-run: evaluated in " << llvm::format("%.1f", sorted[0])
                 << " ms";
    if (times.size() > 1)
      llvm::errs() << " (best of " << times.size() << "; median "
                   << llvm::format("%.1f", sorted[sorted.size() / 2]) << " ms)";
    llvm::errs() << "\n";
  });
}


