//===- Requests.cpp - dfa-run --requests: a stream through a compile cache -===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Requests.h"

#include "Format.h"
#include "ModelFlags.h"
#include "Pipeline.h"
#include "RunTarget.h"

#include "dfa/Bisect/Bisect.h"
#include "dialects/Graph/GraphDialect.h"
#include "dfa/Support/DimExpr.h"
#include "dfa/Support/Limits.h"
#include "dfa/Support/Progress.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <chrono>
#include <limits>
#include <set>

using namespace mlir;
using namespace dfa;
using namespace dfa::driver;

namespace {


/// The largest size a request may give a dim: past it the import's own
/// memory check has nothing sensible to say.
constexpr int64_t kMaxRequestDim = int64_t(1) << 40;
/// Requests a stream may hold: each is replayed three ways.
constexpr size_t kMaxRequests = 1000000;

std::string keyString(const GuardKey &k) {
  return k.empty() ? "-" : formatDims(k, ", ");
}

std::string bucketsString(const std::map<std::string, std::vector<int64_t>> &b) {
  std::string s;
  for (auto &[name, sizes] : b) {
    s += (s.empty() ? "" : " ") + name + "=";
    for (auto [i, v] : llvm::enumerate(sizes))
      s += (i ? "," : "") + std::to_string(v);
  }
  return s.empty() ? "-" : s;
}

} // namespace

Status dfa::driver::readRequests(llvm::StringRef path,
                                 llvm::ArrayRef<GraphInputSignature> inputs,
                                 const std::map<std::string, int64_t> &fixed,
                                 std::vector<Request> &out,
                                 DiagnosticPrinter &printer) {
  auto buf = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buf) {
    printer.error("cannot read requests '" + path.str() +
                  "': " + buf.getError().message());
    return Status::IOError;
  }
  std::string error;
  Status s = parseRequests(path, (*buf)->getBuffer(), inputs, fixed, out, error);
  if (s != Status::Ok)
    printer.error(error);
  return s;
}

Status dfa::driver::parseRequests(llvm::StringRef path, llvm::StringRef text,
                                  llvm::ArrayRef<GraphInputSignature> inputs,
                                  const std::map<std::string, int64_t> &fixed,
                                  std::vector<Request> &out,
                                  std::string &error) {
  // The lines, then each request's maps: several times the text.
  if (double need = double(text.size()) * 8; !limits::fits(need)) {
    error = "reading requests '" + path.str() + "' needs about " +
            limits::formatSize(need) + ", " + limits::overBudget() +
            " (pass a larger --max-memory; 0: no limit)";
    return Status::LimitExceeded;
  }
  llvm::StringRef dir = llvm::sys::path::parent_path(path);
  llvm::SmallVector<llvm::StringRef> lines;
  text.split(lines, '\n');
  int64_t lineNo = 0;
  for (llvm::StringRef raw : lines) {
    ++lineNo;
    llvm::StringRef line = raw.trim();
    if (line.empty())
      continue;
    if (out.size() >= kMaxRequests) {
      error = path.str() + ": more than " + std::to_string(kMaxRequests) +
              " requests; a stream holds at most that many";
      return Status::LimitExceeded;
    }
    std::string at = path.str() + ":" + std::to_string(lineNo) + ": ";
    auto bad = [&](const std::string &why) {
      error = at + why;
      return Status::BadInput;
    };
    if (limits::nestingDepth(line, /*lineComments=*/false, limits::kMaxNesting) >
        limits::kMaxNesting) {
      error = at + "nests deeper than " + std::to_string(limits::kMaxNesting) +
              " levels";
      return Status::LimitExceeded;
    }
    llvm::Expected<llvm::json::Value> v = llvm::json::parse(line);
    if (!v)
      return bad("not JSON: " + llvm::toString(v.takeError()));
    const llvm::json::Object *obj = v->getAsObject();
    if (!obj)
      return bad("a request is a JSON object with \"shapes\" and/or \"inputs\"");
    std::map<std::string, std::vector<int64_t>> shapes;
    for (const auto &[key, value] : *obj) {
      if (key != "shapes" && key != "inputs")
        return bad("unknown key '" + key.str() +
                   "' (a request has \"shapes\" and \"inputs\")");
      const llvm::json::Object *m = value.getAsObject();
      if (!m)
        return bad("\"" + key.str() + "\" must be an object of input names");
      // Sorted by name: the same file binds the same way whatever its
      // key order.
      std::vector<std::pair<std::string, const llvm::json::Value *>> entries;
      for (const auto &[name, x] : *m)
        entries.push_back({name.str(), &x});
      llvm::sort(entries, [](auto &a, auto &b) { return a.first < b.first; });
      for (auto &[name, x] : entries) {
        std::vector<int64_t> shape;
        if (key == "shapes") {
          const llvm::json::Array *dims = x->getAsArray();
          if (!dims)
            return bad("shape of '" + name + "' must be an array of sizes");
          for (const llvm::json::Value &d : *dims) {
            std::optional<int64_t> n = d.getAsInteger();
            if (!n || *n < 0 || *n > kMaxRequestDim)
              return bad("shape of '" + name + "' holds " +
                         llvm::formatv("{0}", d).str() +
                         "; sizes are integers from 0 to 2^40");
            shape.push_back(*n);
          }
        } else {
          std::optional<llvm::StringRef> file = x->getAsString();
          if (!file)
            return bad("input '" + name + "' must name a file (.npy or .pb)");
          llvm::SmallString<256> full(*file);
          if (llvm::sys::path::is_relative(full))
            full = (dir.empty() ? llvm::StringRef(".") : dir).str() + "/" + file->str();
          ref::Tensor t;
          std::string tname, err;
          if (readTensorFile(full, t, tname, err) != Status::Ok)
            return bad("input '" + name + "': " + err);
          shape.assign(t.shape().begin(), t.shape().end());
        }
        auto [it, inserted] = shapes.try_emplace(name, shape);
        if (!inserted && it->second != shape)
          return bad("'" + name + "' is given two shapes, [" +
                     ref::shapeString(it->second) + "] and [" +
                     ref::shapeString(shape) + "]");
      }
    }
    if (shapes.empty())
      return bad("the request gives no shape");
    Request r;
    r.line = lineNo;
    std::map<std::string, int64_t> all = fixed;
    std::map<std::string, std::string> from; // dim -> input that set it
    std::vector<std::tuple<std::string, std::string, int64_t>> exprs;
    for (auto &[name, shape] : shapes) {
      const GraphInputSignature *sig = nullptr;
      for (const GraphInputSignature &in : inputs)
        if (in.name == name)
          sig = &in;
      if (!sig) {
        std::string names;
        for (const GraphInputSignature &in : inputs)
          names += (names.empty() ? "'" : ", '") + in.name + "'";
        return bad("the model has no input '" + name + "' (its inputs: " +
                   names + ")");
      }
      if (!sig->dims.empty() && sig->dims.size() != shape.size())
        return bad("'" + name + "' has " + std::to_string(shape.size()) +
                   " dims; the model's input has " +
                   std::to_string(sig->dims.size()));
      for (auto [d, size] : llvm::enumerate(shape)) {
        llvm::StringRef dim = sig->dims.empty() ? "" : llvm::StringRef(sig->dims[d]);
        int64_t stat;
        if (!dim.empty() && !dim.getAsInteger(10, stat)) {
          if (stat != size)
            return bad("'" + name + "' dim " + std::to_string(d) + " is " +
                       std::to_string(size) + "; the model fixes it at " +
                       std::to_string(stat));
          continue;
        }
        if (!dim.empty() && !isDimName(dim)) {
          exprs.push_back({name, dim.str(), size});
          continue;
        }
        std::string key = dim.empty() ? name + "[" + std::to_string(d) + "]"
                                      : dim.str();
        auto [it, inserted] = all.try_emplace(key, size);
        if (!inserted && it->second != size)
          return bad("dim '" + key + "' is " + std::to_string(size) + " in '" +
                     name + "' and " + std::to_string(it->second) +
                     (from.count(key) ? " in '" + from[key] + "'"
                                      : std::string(" by --dim")));
        from.try_emplace(key, name);
        if (!fixed.count(key))
          r.dims[key] = size;
      }
    }
    for (auto &[name, expr, size] : exprs) {
      DimValue dv = evalDimExpr(expr, all);
      if (dv.kind == DimValue::Value && dv.value != size)
        return bad("'" + name + "' has " + std::to_string(size) + " for '" +
                   expr + "', which the other sizes make " +
                   std::to_string(dv.value));
      // A dim_param the other sizes do not give ("seq-len", "batch size"):
      // bound as it is written, as --dim binds it (evalDimExpr reads a
      // bound param whole first).
      if (dv.kind != DimValue::Value) {
        all[expr] = size;
        if (!fixed.count(expr))
          r.dims[expr] = size;
      }
    }
    // Every dim the model leaves open must be bound now: names and
    // unnamed dims first, then the params they do not give.
    for (bool names : {true, false})
      for (const GraphInputSignature &in : inputs)
        for (auto [d, dim] : llvm::enumerate(in.dims)) {
          int64_t stat;
          if (!llvm::StringRef(dim).getAsInteger(10, stat))
            continue;
          bool plain = dim.empty() || isDimName(dim);
          if (plain != names ||
              (!plain && evalDimExpr(dim, all).kind == DimValue::Value))
            continue;
          std::string key = dim.empty() ? in.name + "[" + std::to_string(d) + "]" : dim;
          if (!all.count(key))
            return bad("no shape gives " +
                       (dim.empty() ? "dim " + std::to_string(d) + " of '" + in.name + "'"
                                    : "dim '" + dim + "' (of input '" + in.name + "')") +
                       "; give the input's shape" +
                       (isDimName(dim) ? " or pass --dim " + dim + "=N" : std::string()));
        }
    out.push_back(std::move(r));
  }
  if (out.empty()) {
    error = path.str() + ": no requests (one JSON object a line)";
    return Status::BadInput;
  }
  return Status::Ok;
}

Status dfa::driver::parseBuckets(
    llvm::ArrayRef<std::string> specs,
    std::map<std::string, std::vector<int64_t>> &out,
    DiagnosticPrinter &printer) {
  for (const std::string &spec : specs) {
    auto [name, list] = llvm::StringRef(spec).split('=');
    llvm::SmallVector<llvm::StringRef> parts;
    list.split(parts, ',');
    std::vector<int64_t> sizes;
    bool ok = !name.empty() && !list.empty();
    for (llvm::StringRef p : parts) {
      int64_t v;
      if (p.trim().getAsInteger(10, v) || v < 1 || v > kMaxRequestDim)
        ok = false;
      else
        sizes.push_back(v);
    }
    if (!ok) {
      printer.error("--buckets expects NAME=S1,S2,... with sizes >= 1, got '" +
                    spec + "'");
      return Status::Usage;
    }
    if (out.count(name.str())) {
      printer.error("--buckets names '" + name.str() + "' twice");
      return Status::Usage;
    }
    llvm::sort(sizes);
    sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
    out[name.str()] = sizes;
  }
  return Status::Ok;
}

std::vector<int64_t>
dfa::driver::suggestBuckets(const std::map<int64_t, int64_t> &counts,
                            int64_t k) {
  std::vector<int64_t> v, c;
  for (auto [value, n] : counts) {
    v.push_back(value);
    c.push_back(n);
  }
  size_t n = v.size();
  if (k <= 0 || n == 0)
    return {};
  if (size_t(k) >= n)
    return v;
  // Prefix sums of counts and of count x value: the padding of rounding
  // values i..j up to v[j] is v[j] (C[j+1] - C[i]) - (S[j+1] - S[i]).
  std::vector<double> C(n + 1, 0), S(n + 1, 0);
  for (size_t i = 0; i < n; ++i) {
    C[i + 1] = C[i] + double(c[i]);
    S[i + 1] = S[i] + double(c[i]) * double(v[i]);
  }
  auto cost = [&](size_t i, size_t j) {
    return double(v[j]) * (C[j + 1] - C[i]) - (S[j + 1] - S[i]);
  };
  const double inf = std::numeric_limits<double>::infinity();
  // best[b][j]: least padding of values 0..j in b + 1 buckets, the last
  // at v[j]; from[b][j]: where that bucket's values start.
  size_t K = size_t(k);
  std::vector<std::vector<double>> best(K, std::vector<double>(n, inf));
  std::vector<std::vector<size_t>> from(K, std::vector<size_t>(n, 0));
  for (size_t j = 0; j < n; ++j)
    best[0][j] = cost(0, j);
  for (size_t b = 1; b < K; ++b)
    for (size_t j = b; j < n; ++j)
      for (size_t i = b; i <= j; ++i) {
        double x = best[b - 1][i - 1] + cost(i, j);
        if (x < best[b][j]) { // strict: the earliest split on ties
          best[b][j] = x;
          from[b][j] = i;
        }
      }
  std::vector<int64_t> out;
  size_t j = n - 1;
  for (size_t b = K; b-- > 0;) {
    out.push_back(v[j]);
    if (b == 0)
      break;
    j = from[b][j] - 1;
  }
  llvm::sort(out);
  return out;
}

std::string BucketVariant::label() const { return formatDims(dims); }

std::vector<BucketVariant> dfa::driver::bucketVariants(
    const std::map<std::string, std::vector<int64_t>> &buckets) {
  std::vector<BucketVariant> out{BucketVariant()};
  for (auto &[name, sizes] : buckets) {
    std::vector<BucketVariant> next;
    for (const BucketVariant &v : out)
      for (auto [i, s] : llvm::enumerate(sizes)) {
        BucketVariant x = v;
        x.dims[name] = s;
        x.smallest[name] = i ? sizes[i - 1] + 1 : 1;
        next.push_back(std::move(x));
      }
    out = std::move(next);
  }
  return out;
}

Status dfa::driver::parseBucketFlags(
    const ModelFlags &flags, const ONNXImportOptions &io,
    std::map<std::string, std::vector<int64_t>> &out, DiagnosticPrinter &printer) {
  if (Status s = parseBuckets(flags.buckets, out, printer); s != Status::Ok)
    return s;
  if (!out.empty() && !hasSymbolicDims(modelKind(flags.model))) {
    printer.error("--buckets binds a model's symbolic dims (an ONNX model's "
                  "dim_params, a torch.export graph's Dims); '" +
                  flags.model + "' has none");
    return Status::Usage;
  }
  for (auto &[name, sizes] : out)
    if (io.dims.count(name)) {
      printer.error("--buckets " + name + " and --dim " + name +
                    " both set the dim; give one");
      return Status::Usage;
    }
  return Status::Ok;
}

Status dfa::driver::checkGuards(ModuleOp module, const GuardKey &want,
                                DiagnosticPrinter &printer) {
  auto guards = module->getAttrOfType<DictionaryAttr>(graph::kGuardsAttr);
  for (auto &[name, size] : want) {
    auto got = guards ? dyn_cast_or_null<IntegerAttr>(guards.get(name)) : IntegerAttr();
    if (!got) {
      printer.error("--buckets " + name + ": the model has no symbolic input dim '" +
                    name + "'");
      return Status::Usage;
    }
    if (got.getInt() != size) {
      printer.error("dim '" + name + "' was imported as " +
                    std::to_string(got.getInt()) + ", not " + std::to_string(size) +
                    ": a --shape fixes it; bucket or request it, or fix it, not both");
      return Status::Usage;
    }
  }
  return Status::Ok;
}

Status dfa::driver::importBucket(llvm::StringRef path, MLIRContext &ctx,
                                 const ONNXImportOptions &io,
                                 const BucketVariant &v, ImportResult &out,
                                 double &flopsWaste, double &bytesWaste,
                                 DiagnosticPrinter &printer) {
  auto importFor = [&](const GuardKey &dims) {
    ONNXImportOptions x = io;
    for (auto &[name, size] : dims)
      x.dims[name] = size;
    return loadModel(path, ctx, x);
  };
  out = importFor(v.dims);
  if (out.status != Status::Ok)
    return out.status;
  if (Status s = checkGuards(*out.module, v.dims, printer); s != Status::Ok)
    return s;
  // The padding at the smallest size the bucket serves; a model that does
  // not import there (a size its reshapes cannot take) has none to say.
  flopsWaste = bytesWaste = std::numeric_limits<double>::quiet_NaN();
  ImportResult low;
  {
    ScopedDiagnosticHandler quiet(&ctx, [](Diagnostic &) { return success(); });
    low = importFor(v.smallest);
  }
  if (low.status != Status::Ok)
    return Status::Ok;
  auto [flops, bytes] = graphWork(out.module->lookupSymbol<func::FuncOp>("main"));
  auto [lowFlops, lowBytes] = graphWork(low.module->lookupSymbol<func::FuncOp>("main"));
  flopsWaste = flops > 0 ? (flops - lowFlops) / flops : 0;
  bytesWaste = bytes > 0 ? (bytes - lowBytes) / bytes : 0;
  return Status::Ok;
}

GuardKey dfa::driver::bucketed(
    const GuardKey &dims,
    const std::map<std::string, std::vector<int64_t>> &buckets) {
  GuardKey key = dims;
  for (auto &[name, v] : key) {
    auto it = buckets.find(name);
    if (it == buckets.end())
      continue;
    auto b = llvm::lower_bound(it->second, v);
    if (b != it->second.end())
      v = *b;
  }
  return key;
}

std::string BucketRun::label() const { return formatDims(dims); }

Status dfa::driver::runBucket(const RunOptions &opts, MLIRContext &ctx,
                              ModuleOp exact, const target::Target &t,
                              BucketRun &out, DiagnosticPrinter &printer) {
  std::map<std::string, std::vector<int64_t>> buckets;
  if (Status s = parseBuckets(opts.model.buckets, buckets, printer); s != Status::Ok)
    return s;
  auto guards = exact->getAttrOfType<DictionaryAttr>(graph::kGuardsAttr);
  for (auto &[name, sizes] : buckets) {
    auto v = guards ? dyn_cast_or_null<IntegerAttr>(guards.get(name)) : IntegerAttr();
    if (!v) {
      printer.error("--buckets " + name + ": the model has no symbolic input dim '" +
                    name + "'");
      return Status::Usage;
    }
    out.exact[name] = v.getInt();
  }
  out.dims = bucketed(out.exact, buckets);
  std::tie(out.exactFlops, out.exactBytes) =
      graphWork(exact.lookupSymbol<func::FuncOp>("main"));
  ModelFlags flags = opts.model;
  flags.noWeights = true;
  ONNXImportOptions io;
  if (Status s = buildImportOptions(flags, {}, {}, io, printer); s != Status::Ok)
    return s;
  for (NamedAttribute g : guards)
    if (auto i = dyn_cast<IntegerAttr>(g.getValue()))
      if (g.getName().strref().find('[') == llvm::StringRef::npos)
        io.dims[g.getName().str()] = i.getInt();
  for (auto &[name, v] : out.dims)
    io.dims[name] = v;
  ImportResult r = loadModel(opts.model.model, ctx, io);
  if (r.status != Status::Ok)
    return r.status;
  std::tie(out.flops, out.bytes) =
      graphWork(r.module->lookupSymbol<func::FuncOp>("main"));
  RunOptions timeOnly = opts;
  timeOnly.timeOnly = true;
  timeOnly.trace.clear();
  if (Status s = compileForRun(*r.module, t, timeOnly, printer); s != Status::Ok)
    return s;
  sim::Result result;
  if (Status s = simulateForRun(findProgram(*r.module), t, {}, timeOnly, result, printer);
      s != Status::Ok)
    return s;
  out.seconds = result.seconds;
  return Status::Ok;
}

void dfa::driver::bucketRunJson(llvm::json::OStream &j, const BucketRun &b) {
  j.attributeObject("bucket", [&] {
    j.attributeObject("dims", [&] {
      for (auto &[name, v] : b.dims)
        j.attribute(name, v);
    });
    j.attributeObject("exact", [&] {
      for (auto &[name, v] : b.exact)
        j.attribute(name, v);
    });
    j.attribute("seconds", b.seconds);
    j.attribute("padding_waste", b.flops > 0 ? (b.flops - b.exactFlops) / b.flops : 0.0);
    j.attribute("padding_waste_bytes",
                b.bytes > 0 ? (b.bytes - b.exactBytes) / b.bytes : 0.0);
  });
}

void dfa::driver::printBucketRun(const BucketRun &b, llvm::raw_ostream &os) {
  os << "dfa-run: bucket " << b.label() << " for " << formatDims(b.exact)
     << ": its schedule " << humanSeconds(b.seconds)
     << llvm::formatv("; padding {0:f1}% of FLOPs, {1:f1}% of bytes\n",
                      b.flops > 0 ? 100 * (b.flops - b.exactFlops) / b.flops : 0.0,
                      b.bytes > 0 ? 100 * (b.bytes - b.exactBytes) / b.bytes : 0.0);
}

const Way &StreamReport::primary() const {
  for (const Way &w : ways)
    if (w.name == "buckets")
      return w;
  return ways.front();
}

namespace {

/// Compiles and simulates the model at each key once, whichever way asks.
class Compiler {
public:
  Compiler(const RunOptions &opts, const target::Target &t,
           llvm::ArrayRef<GraphInputSignature> sigs, ONNXImportOptions base,
           MLIRContext &ctx, DiagnosticPrinter &printer)
      : opts(opts), t(t), sigs(sigs), base(std::move(base)), ctx(ctx),
        printer(printer) {
    runOpts = opts;
    runOpts.timeOnly = true;
    runOpts.trace.clear();
  }

  const CompiledEntry &compiled(const GuardKey &key) {
    auto it = entries.find(key);
    if (it != entries.end())
      return it->second;
    CompiledEntry e;
    std::string captured;
    ScopedDiagnosticHandler capture(&ctx, [&](Diagnostic &d) {
      if (d.getSeverity() == DiagnosticSeverity::Error && captured.empty())
        captured = d.str();
      return success();
    });
    auto start = std::chrono::steady_clock::now();
    ImportResult r = loadModel(opts.model.model, ctx, optionsFor(key));
    e.status = r.status;
    if (e.status == Status::Ok) {
      GuardKey named;
      for (auto &[name, v] : key)
        if (name.find('[') == std::string::npos)
          named[name] = v;
      e.status = checkGuards(*r.module, named, printer);
    }
    if (e.status == Status::Ok) {
      auto func = (*r.module).lookupSymbol<func::FuncOp>("main");
      std::tie(e.flops, e.bytes) = graphWork(func);
      e.status = compileForRun(*r.module, t, runOpts, printer);
    }
    e.compileSeconds = std::chrono::duration<double>(
                           std::chrono::steady_clock::now() - start)
                           .count();
    if (e.status == Status::Ok) {
      sched::ProgramOp program = findProgram(*r.module);
      sim::Result result;
      e.status = program ? simulateForRun(program, t, {}, runOpts, result, printer)
                         : Status::Internal;
      e.runSeconds = result.seconds;
    }
    if (e.status != Status::Ok)
      e.error = captured.empty() ? "failed (exit " +
                                       std::to_string(exitCode(e.status)) + ")"
                                 : captured;
    return entries[key] = e;
  }

  /// The request's own work (no compile): FLOPs and bytes at its sizes.
  std::pair<double, double> work(const GuardKey &key) {
    auto it = exactWork.find(key);
    if (it != exactWork.end())
      return it->second;
    ScopedDiagnosticHandler quiet(&ctx, [](Diagnostic &) { return success(); });
    ImportResult r = loadModel(opts.model.model, ctx, optionsFor(key));
    std::pair<double, double> w{0, 0};
    if (r.status == Status::Ok)
      w = graphWork((*r.module).lookupSymbol<func::FuncOp>("main"));
    return exactWork[key] = w;
  }

private:
  /// The import binding `key`: names as --dim, unnamed dims as --shape.
  ONNXImportOptions optionsFor(const GuardKey &key) const {
    ONNXImportOptions io = base;
    for (auto &[name, v] : key)
      if (name.find('[') == std::string::npos)
        io.dims[name] = v;
    for (const GraphInputSignature &in : sigs) {
      // An input that declares no shape: the request's, dim by dim (a
      // scalar declares none either, and keeps it).
      if (in.dims.empty()) {
        std::vector<int64_t> shape;
        for (size_t d = 0;; ++d) {
          auto it = key.find(in.name + "[" + std::to_string(d) + "]");
          if (it == key.end())
            break;
          shape.push_back(it->second);
        }
        if (!shape.empty())
          io.shapes[in.name] = shape;
        continue;
      }
      bool unnamed = llvm::any_of(in.dims, [](const std::string &d) { return d.empty(); });
      if (!unnamed)
        continue;
      std::vector<int64_t> shape;
      for (auto [d, dim] : llvm::enumerate(in.dims)) {
        int64_t v = 0;
        if (!llvm::StringRef(dim).getAsInteger(10, v)) {
        } else if (dim.empty()) {
          auto it = key.find(in.name + "[" + std::to_string(d) + "]");
          v = it != key.end() ? it->second : 0;
        } else {
          DimValue dv = evalDimExpr(dim, io.dims);
          v = dv.kind == DimValue::Value ? dv.value : 0;
        }
        shape.push_back(v);
      }
      io.shapes[in.name] = shape;
    }
    return io;
  }

  const RunOptions &opts;
  RunOptions runOpts;
  const target::Target &t;
  llvm::ArrayRef<GraphInputSignature> sigs;
  ONNXImportOptions base;
  MLIRContext &ctx;
  DiagnosticPrinter &printer;
  std::map<GuardKey, CompiledEntry> entries;
  std::map<GuardKey, std::pair<double, double>> exactWork;
};

void replay(Way &w, const std::vector<Request> &requests, Compiler &compiler,
            bool warmup, int64_t limit, progress::Task &task) {
  std::set<GuardKey> cache;
  std::map<std::string, int64_t> misses;
  auto compile = [&](const GuardKey &key, int64_t index) {
    // A miss: the guards of each new dim size failed against every entry.
    if (!cache.empty())
      for (auto &[name, v] : key)
        if (llvm::none_of(cache, [&](const GuardKey &k) {
              auto it = k.find(name);
              return it != k.end() && it->second == v;
            }))
          ++misses[name];
    cache.insert(key);
    ++w.compiles;
    w.lastCompile = index;
  };
  if (warmup && !w.buckets.empty()) {
    // Every bucket, the other dims as the first request has them.
    std::vector<GuardKey> keys{requests.front().dims};
    for (auto &[name, sizes] : w.buckets) {
      if (!keys.front().count(name))
        continue;
      std::vector<GuardKey> next;
      for (const GuardKey &k : keys)
        for (int64_t s : sizes) {
          GuardKey x = k;
          x[name] = s;
          next.push_back(x);
        }
      keys = std::move(next);
    }
    for (const GuardKey &k : keys) {
      GuardKey key = bucketed(k, w.buckets);
      if (cache.count(key))
        continue;
      const CompiledEntry &e = compiler.compiled(key);
      compile(key, -1);
      ++w.warmupCompiles;
      w.compileSeconds += e.compileSeconds;
    }
  }
  for (auto [i, r] : llvm::enumerate(requests)) {
    task.advance(w.name + " request " + std::to_string(i + 1));
    RequestOutcome o;
    o.line = r.line;
    o.key = bucketed(r.dims, w.buckets);
    const CompiledEntry &e = compiler.compiled(o.key);
    if (!cache.count(o.key)) {
      compile(o.key, int64_t(i));
      o.compiled = true;
      o.compileSeconds = e.compileSeconds;
    } else {
      ++w.cacheHits;
    }
    o.error = e.error;
    o.status = e.status;
    if (e.status == Status::Ok) {
      o.runSeconds = e.runSeconds;
      o.flops = e.flops;
      o.bytes = e.bytes;
      std::tie(o.exactFlops, o.exactBytes) =
          o.key == r.dims ? std::make_pair(e.flops, e.bytes) : compiler.work(r.dims);
      w.flops += o.flops;
      w.bytes += o.bytes;
      w.exactFlops += o.exactFlops;
      w.exactBytes += o.exactBytes;
    } else {
      ++w.failed;
    }
    w.compileSeconds += o.compileSeconds;
    w.runSeconds += o.runSeconds;
    w.requests.push_back(std::move(o));
  }
  w.storm = w.compiles > limit;
  for (auto &[name, n] : misses)
    if (n > w.guardMisses) {
      w.guardMisses = n;
      w.failingGuard = name;
    }
}

} // namespace

Status dfa::driver::replayRequests(const RunOptions &opts, MLIRContext &ctx,
                                   StreamReport &report,
                                   DiagnosticPrinter &printer) {
  std::vector<GraphInputSignature> sigs;
  std::string err;
  if (Status s = modelInputSignatures(opts.model.model, sigs, err);
      s != Status::Ok) {
    printer.error(err);
    return s;
  }
  ModelFlags flags = opts.model;
  flags.noWeights = true; // time only: the weights' bytes are not read
  ONNXImportOptions base;
  if (Status s = buildImportOptions(flags, {}, {}, base, printer); s != Status::Ok)
    return s;
  std::vector<Request> requests;
  if (Status s = readRequests(opts.requests, sigs, base.dims, requests, printer);
      s != Status::Ok)
    return s;
  std::map<std::string, std::vector<int64_t>> buckets;
  if (Status s = parseBuckets(opts.model.buckets, buckets, printer);
      s != Status::Ok)
    return s;
  for (auto &[name, sizes] : buckets)
    if (llvm::none_of(requests, [&](const Request &r) { return r.dims.count(name); })) {
      printer.error("--buckets " + name + ": no request binds a dim '" + name +
                    "' (the model's symbolic dims the requests set: " +
                    keyString(requests.front().dims) + ")");
      return Status::Usage;
    }
  target::Target t;
  if (Status s = loadTarget(opts.target, opts, t, printer); s != Status::Ok)
    return s;

  report.file = opts.requests;
  report.count = int64_t(requests.size());
  report.recompileLimit = opts.recompileLimit;
  std::map<std::string, std::map<int64_t, int64_t>> counts;
  for (const Request &r : requests)
    for (auto &[name, v] : r.dims)
      ++counts[name][v];
  for (auto &[name, c] : counts)
    report.dims[name] = {int64_t(c.size()), c.begin()->first, c.rbegin()->first};

  report.ways.push_back({"exact", {}, {}});
  if (!buckets.empty())
    report.ways.push_back({"buckets", buckets, {}});
  if (opts.suggestBuckets > 0) {
    Way s{"suggested", {}, {}};
    for (auto &[name, c] : counts)
      if (c.size() > 1)
        s.buckets[name] = suggestBuckets(c, opts.suggestBuckets);
    report.ways.push_back(std::move(s));
  }
  Compiler compiler(opts, t, sigs, base, ctx, printer);
  progress::Task task("replaying", int64_t(report.ways.size() * requests.size()));
  for (Way &w : report.ways)
    replay(w, requests, compiler, opts.warmup, opts.recompileLimit, task);
  return Status::Ok;
}

void dfa::driver::printStream(const StreamReport &r, llvm::raw_ostream &os) {
  os << r.count << " requests from " << r.file << "; sizes:";
  for (auto &[name, d] : r.dims)
    os << " " << name << " " << d.distinct << " distinct (" << d.min << ".."
       << d.max << ")";
  os << "\n";
  os << llvm::formatv("{0,-10} {1,8} {2,6} {3,13} {4,13} {5,11}  {6,-6} {7}\n",
                      "way", "compiles", "hits", "padding FLOPs", "padding bytes",
                      "run time", "storm", "buckets");
  for (const Way &w : r.ways) {
    std::string storm = w.storm ? "yes" : "no";
    os << llvm::formatv("{0,-10} {1,8} {2,6} {3,12:f1}% {4,12:f1}% {5,11}  {6,-6} {7}\n",
                        w.name, w.compiles, w.cacheHits, 100 * w.paddingWaste(),
                        100 * w.paddingWasteBytes(), humanSeconds(w.runSeconds),
                        storm, bucketsString(w.buckets));
  }
  for (const Way &w : r.ways) {
    if (w.warmupCompiles)
      os << w.name << ": " << w.warmupCompiles
         << " of its compiles ran before the stream (--warmup)\n";
    if (w.storm)
      os << w.name << ": recompile storm: " << w.compiles << " compiles, past "
         << "the recompile limit of " << r.recompileLimit
         << (w.failingGuard.empty()
                 ? std::string()
                 : "; guard '" + w.failingGuard + "' failed " +
                       std::to_string(w.guardMisses) + " times") +
                "; the last compile at request " +
                std::to_string(w.lastCompile + 1) + " of " +
                std::to_string(r.count)
         << "\n";
    if (w.failed)
      for (const RequestOutcome &o : w.requests)
        if (!o.error.empty()) {
          os << w.name << ": " << w.failed << " requests failed; line "
             << o.line << " (" << keyString(o.key) << "): " << o.error << "\n";
          break;
        }
  }
  os << "compile time (dfa's own, measured):";
  for (const Way &w : r.ways)
    os << " " << w.name << " " << humanSeconds(w.compileSeconds);
  os << "\n";
}

void dfa::driver::writeStreamJson(llvm::json::OStream &j, const StreamReport &r) {
  auto keyObject = [&](const GuardKey &k) {
    j.object([&] {
      for (auto &[name, v] : k)
        j.attribute(name, v);
    });
  };
  auto waysAttrs = [&](const Way &w) {
    j.attribute("compiles", w.compiles);
    j.attribute("cache_hits", w.cacheHits);
    j.attribute("padding_waste", w.paddingWaste());
    j.attribute("padding_waste_bytes", w.paddingWasteBytes());
    j.attribute("recompile_storm", w.storm);
  };
  const Way &p = r.primary();
  j.attributeObject("requests", [&] {
    j.attribute("file", r.file);
    j.attribute("count", r.count);
    j.attribute("recompile_limit", r.recompileLimit);
    j.attribute("way", p.name);
    waysAttrs(p);
    j.attributeObject("dims", [&] {
      for (auto &[name, d] : r.dims)
        j.attributeObject(name, [&] {
          j.attribute("distinct", d.distinct);
          j.attribute("min", d.min);
          j.attribute("max", d.max);
        });
    });
    j.attributeArray("ways", [&] {
      for (const Way &w : r.ways)
        j.object([&] {
          j.attribute("name", w.name);
          j.attributeObject("buckets", [&] {
            for (auto &[name, sizes] : w.buckets)
              j.attributeArray(name, [&] {
                for (int64_t s : sizes)
                  j.value(s);
              });
          });
          waysAttrs(w);
          j.attribute("warmup_compiles", w.warmupCompiles);
          j.attribute("failed", w.failed);
          j.attribute("failing_guard", w.failingGuard.empty()
                                           ? llvm::json::Value(nullptr)
                                           : llvm::json::Value(w.failingGuard));
          j.attribute("guard_misses", w.guardMisses);
          j.attribute("compile_seconds", w.compileSeconds);
          j.attribute("run_seconds", w.runSeconds);
          j.attributeArray("per_request", [&] {
            for (const RequestOutcome &o : w.requests)
              j.object([&] {
                j.attribute("line", o.line);
                j.attributeBegin("key");
                keyObject(o.key);
                j.attributeEnd();
                j.attribute("compiled", o.compiled);
                j.attribute("compile_seconds", o.compileSeconds);
                j.attribute("run_seconds", o.runSeconds);
                j.attribute("padding_waste",
                            o.flops > 0 ? (o.flops - o.exactFlops) / o.flops : 0.0);
                if (!o.error.empty())
                  j.attribute("error", o.error);
              });
          });
        });
    });
  });
}

int dfa::driver::requestsMain(const RunOptions &opts) {
  auto ctx = createContext();
  DiagnosticPrinter printer(*ctx, "dfa-run");
  auto usage = [&](const std::string &m) {
    printer.error(m);
    return exitCode(Status::Usage);
  };
  if (opts.target == target::kReferenceTarget)
    return usage("--requests replays a stream through a target's compile "
                 "cache; name one with --target");
  if (!opts.inputs.empty() || !opts.expect.empty() || !opts.testData.empty() ||
      !opts.outputs.empty())
    return usage("--requests takes its shapes from FILE; --inputs, --expect, "
                 "--test-data and --outputs are for one run");
  StreamReport report;
  if (Status s = replayRequests(opts, *ctx, report, printer); s != Status::Ok)
    return exitCode(s);
  if (opts.json) {
    llvm::json::OStream j(llvm::outs(), 2);
    j.object([&] {
      j.attribute("schema", "dfa.run/1");
      j.attribute("model", opts.model.model);
      j.attribute("target", opts.target);
      j.attribute("status", "ran");
      writeStreamJson(j, report);
    });
    llvm::outs() << "\n";
  } else {
    printStream(report, llvm::outs());
  }
  // A request that failed to compile or run is the stream's answer too:
  // reported, and the exit code is the first failure's.
  for (const Way &w : report.ways)
    for (const RequestOutcome &o : w.requests)
      if (o.status != Status::Ok)
        return exitCode(o.status);
  return 0;
}

int dfa::driver::bisectRequestsMain(const BisectOptions &opts) {
  auto ctx = createContext();
  DiagnosticPrinter printer(*ctx, "dfa-bisect");
  RunOptions run = opts.run;
  auto usage = [&](const std::string &m) {
    printer.error(m);
    return int(bisect::Usage);
  };
  if (run.target == target::kReferenceTarget)
    return usage("name the target whose compile cache to check: --target NAME");
  if (!run.inputs.empty() || !run.expect.empty() || !run.testData.empty() ||
      opts.check || !opts.reduce.empty() || opts.allNodes ||
      !opts.stopAfter.empty())
    return usage("--requests checks a stream's compiles; --inputs, --expect, "
                 "--test-data, --check, --reduce, --all-nodes and "
                 "--stop-after are for one run's values");
  // The fix to offer: as many buckets as the limit allows, at most 4.
  run.suggestBuckets = std::min<int64_t>(4, run.recompileLimit);
  StreamReport report;
  // dfa-bisect's codes: what the user gave is wrong (64), too large (14).
  if (Status s = replayRequests(run, *ctx, report, printer); s != Status::Ok)
    return s == Status::LimitExceeded ? int(bisect::LimitExceeded)
           : s == Status::Internal    ? int(bisect::Internal)
                                      : int(bisect::Usage);
  const Way &w = report.primary();
  const Way *fix = nullptr;
  for (const Way &x : report.ways)
    if (x.name == "suggested")
      fix = &x;
  std::string model = llvm::sys::path::filename(run.model.model).str();
  // A storm, or requests whose compile failed: a compile failure (20).
  const RequestOutcome *failedOne = nullptr;
  for (const RequestOutcome &o : w.requests)
    if (o.status != Status::Ok && !failedOne)
      failedOne = &o;
  int code = w.storm || failedOne ? int(bisect::CompileFailure) : int(bisect::Pass);
  const int layer = 2;
  double confidence = 0.9;
  std::vector<std::string> evidence;
  std::string summary;
  if (w.storm) {
    const StreamReport::DimRange *d = report.dims.count(w.failingGuard)
                                          ? &report.dims.at(w.failingGuard)
                                          : nullptr;
    evidence.push_back(
        "guard '" + w.failingGuard + "' failed " + std::to_string(w.guardMisses) +
        " times" +
        (d ? " (" + std::to_string(d->distinct) + " sizes, " +
                 std::to_string(d->min) + ".." + std::to_string(d->max) + ")"
           : std::string()));
    evidence.push_back(std::to_string(w.compiles) + " compiles for " +
                       std::to_string(report.count) +
                       " requests, past the recompile limit of " +
                       std::to_string(report.recompileLimit) +
                       "; the last at request " +
                       std::to_string(w.lastCompile + 1));
    if (fix && !fix->buckets.empty())
      evidence.push_back(llvm::formatv("fix: --buckets {0}: {1} compiles, "
                                       "{2:f1}% of the FLOPs padding",
                                       bucketsString(fix->buckets), fix->compiles,
                                       100 * fix->paddingWaste())
                             .str());
    summary = llvm::formatv("FAIL {0} on {1}: recompile storm: {2} compiles "
                            "for {3} requests ({4}) -> layer {5} {6} ({7:f2}) "
                            "[exit {8}]",
                            model, run.target, w.compiles, report.count,
                            w.name == "exact" ? "exact shapes"
                                              : "--buckets " + bucketsString(w.buckets),
                            layer, bisect::layerName(layer), confidence, code)
                  .str();
  } else if (failedOne) {
    evidence.push_back("line " + std::to_string(failedOne->line) + " (" +
                       keyString(failedOne->key) + "): " + failedOne->error);
    summary = llvm::formatv("FAIL {0} on {1}: {2} of {3} requests failed to "
                            "compile or run [exit {4}]",
                            model, run.target, w.failed, report.count, code)
                  .str();
  } else {
    summary = llvm::formatv("PASS {0} on {1}: {2} compiles for {3} requests, "
                            "within the recompile limit of {4}",
                            model, run.target, w.compiles, report.count,
                            report.recompileLimit)
                  .str();
  }
  if (opts.json) {
    llvm::json::OStream j(llvm::outs(), 2);
    j.object([&] {
      j.attribute("schema", "dfa.bisect/1");
      j.attribute("model", model);
      j.attribute("target", run.target);
      j.attribute("profile", opts.profile);
      j.attribute("inject", nullptr);
      j.attribute("verdict", code ? "fail" : "pass");
      j.attribute("exit_code", code);
      j.attribute("summary", summary);
      j.attributeObject("classification", [&] {
        j.attribute("layer", w.storm ? layer : 0);
        j.attribute("name", bisect::layerName(w.storm ? layer : 0));
        j.attribute("confidence", w.storm ? confidence : 0.0);
        j.attributeArray("evidence", [&] {
          for (const std::string &e : evidence)
            j.value(e);
        });
      });
      writeStreamJson(j, report);
    });
    llvm::outs() << "\n";
  } else {
    llvm::outs() << summary << "\n";
    for (const std::string &e : evidence)
      llvm::outs() << "  " << e << "\n";
  }
  return code;
}
