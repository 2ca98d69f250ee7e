//===- FXImporter.cpp - dfa.fx/1 graphs to the graph dialect ----------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// Reads the JSON graph, makes the placeholders function arguments and the
/// parameters weight references into the sidecar file, and converts every
/// call_function, call_method and call_module node through the handler
/// tables. Each node's result is checked against the shape and dtype torch
/// recorded for it, so a wrong lowering is caught at its node.
///
//===----------------------------------------------------------------------===//

#include "FXImporter.h"

#include "dfa/Reference/Evaluator.h"
#include "dfa/Support/DimExpr.h"
#include "dfa/Support/Limits.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Verifier.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

using namespace mlir;
using namespace dfa;
using namespace dfa::fximport;

std::string PyValue::describe() const {
  switch (kind) {
  case None: return "None";
  case Tensor: return "a tensor";
  case Int: return "int " + std::to_string(i);
  case Float: return "float " + std::to_string(f);
  case Bool: return i ? "True" : "False";
  case Str: return "'" + s + "'";
  case List: return "a list of " + std::to_string(list.size());
  case Slice: return "a slice";
  case Ellipsis: return "...";
  case DType: return "dtype " + s;
  case Complex: return "a complex tensor";
  }
  return "?";
}

std::optional<StringRef> dfa::fximport::complexComponent(StringRef dtype) {
  if (dtype == "complex64")
    return StringRef("float32");
  if (dtype == "complex128")
    return StringRef("float64");
  return std::nullopt;
}

Type dfa::fximport::fxElementType(StringRef dtype, MLIRContext *ctx) {
  auto dt = ref::dtypeFromName(dtype);
  if (!dt || (ref::isMinifloat(*dt) && !ref::isFloat8(*dt)))
    return {};
  return ref::mlirTypeOf(*dt, ctx);
}

std::string dfa::fximport::canonicalTarget(StringRef op, StringRef target) {
  if (op == "call_method")
    return target.str();
  for (StringRef prefix : {"torch.nn.functional.", "torch._C._nn.",
                           "torch._C._VariableFunctions.", "torch._C._linalg.",
                           "torch.functional.",
                           "torch.", "_operator.", "operator.", "builtins."})
    if (target.starts_with(prefix))
      return target.drop_front(prefix.size()).str();
  return target.str();
}

const llvm::json::Array *FXImporter::nodes() const {
  return doc.getAsObject()->getArray("nodes");
}

LogicalResult FXImporter::load(std::string &error, Status &st) {
  auto buf = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buf) {
    error = "cannot read '" + path + "': " + buf.getError().message();
    st = Status::IOError;
    return failure();
  }
  llvm::StringRef text = (*buf)->getBuffer();
  // llvm::json parses recursively: refuse what would overflow the stack.
  if (limits::nestingDepth(text, /*lineComments=*/false, limits::kMaxNesting) >
      limits::kMaxNesting) {
    error = "'" + path + "' nests deeper than " +
            std::to_string(limits::kMaxNesting) + " levels";
    st = Status::LimitExceeded;
    return failure();
  }
  // The JSON tree takes several times its text; each node imports into ops.
  double need = 8.0 * (double)text.size();
  if (!limits::fits(need)) {
    error = "'" + path + "' is " + limits::formatSize((double)text.size()) +
            "; parsing it needs about " + limits::formatSize(need) + ", " +
            limits::overBudget();
    st = Status::LimitExceeded;
    return failure();
  }
  auto parsed = llvm::json::parse(text);
  if (!parsed) {
    error = "'" + path + "' is not valid JSON: " + llvm::toString(parsed.takeError());
    st = Status::InvalidModel;
    return failure();
  }
  doc = std::move(*parsed);
  const auto *root = doc.getAsObject();
  auto schema = root ? root->getString("schema") : std::nullopt;
  if (!root || schema != "dfa.fx/1") {
    error = "'" + path + "' is not a dfa.fx/1 graph (schema is " +
            (schema ? "'" + schema->str() + "'" : std::string("missing")) + ")";
    st = Status::InvalidModel;
    return failure();
  }
  if (!root->getArray("nodes") || !root->getObject("tensors") ||
      !root->getObject("weights")) {
    error = "'" + path + "' lacks 'nodes', 'tensors' or 'weights'";
    st = Status::InvalidModel;
    return failure();
  }
  size_t numNodes = root->getArray("nodes")->size();
  if (!limits::fits(need + limits::kImportBytesPerNode * (double)numNodes)) {
    error = "'" + path + "' has " + std::to_string(numNodes) +
            " nodes; importing them needs about " +
            limits::formatSize(need + limits::kImportBytesPerNode *
                                          (double)numNodes) +
            ", " + limits::overBudget();
    st = Status::LimitExceeded;
    return failure();
  }
  const auto *w = root->getObject("weights");
  auto file = w->getString("file");
  auto compression = w->getString("compression").value_or("none");
  if (compression != "none" && compression != "zstd") {
    error = "'" + path + "': unknown weight compression '" + compression.str() + "'";
    st = Status::Unsupported;
    return failure();
  }
  zstd = compression == "zstd";
  llvm::SmallString<256> f(llvm::sys::path::parent_path(path));
  llvm::sys::path::append(f, file.value_or(""));
  weightsFile = f.str().str();
  return success();
}

bool FXImporter::isComplexWeight(StringRef name) const {
  const auto *tensors = doc.getAsObject() ? doc.getAsObject()->getObject("tensors") : nullptr;
  const auto *t = tensors ? tensors->getObject(name) : nullptr;
  return t && complexComponent(t->getString("dtype").value_or("")).has_value();
}

Value FXImporter::weight(StringRef name, Location loc) {
  auto it = weights.find(name);
  if (it != weights.end())
    return it->second;
  const auto *t = doc.getAsObject()->getObject("tensors")->getObject(name);
  if (!t) {
    emitError(loc) << "parameter '" << name << "' is not in the tensors table";
    status = Status::InvalidModel;
    return {};
  }
  // A complex tensor is stored as its real view (view_as_real's bytes).
  StringRef dtype = t->getString("dtype").value_or("");
  std::optional<StringRef> component = complexComponent(dtype);
  Type elt = fxElementType(component.value_or(dtype), &ctx);
  const auto *shapeArr = t->getArray("shape");
  auto offset = t->getInteger("offset");
  if (!elt || !shapeArr || !offset || *offset < 0) {
    emitError(loc) << "parameter '" << name
                   << "' has a bad entry (dtype, shape or offset)";
    status = Status::InvalidModel;
    return {};
  }
  SmallVector<int64_t> shape;
  for (const auto &d : *shapeArr) {
    auto v = d.getAsInteger();
    if (!v || *v < 0) {
      emitError(loc) << "parameter '" << name << "' has a bad shape";
      status = Status::InvalidModel;
      return {};
    }
    shape.push_back(*v);
  }
  if (component)
    shape.push_back(2);
  auto type = RankedTensorType::get(shape, elt);
  // Weights go at the top of the function, in first-use order.
  OpBuilder::InsertionGuard guard(b);
  if (lastWeight)
    b.setInsertionPointAfter(lastWeight);
  else
    b.setInsertionPointToStart(&func.getBody().front());
  Location wloc = NameLoc::get(b.getStringAttr(name), loc);
  graph::WeightOp w;
  if (opts.noWeights) {
    w = b.create<graph::WeightOp>(wloc, type, name, "", 0);
  } else {
    w = b.create<graph::WeightOp>(wloc, type, name, weightsFile, *offset);
    if (zstd) {
      auto stored = t->getInteger("stored_bytes");
      if (!stored || *stored <= 0) {
        emitError(loc) << "parameter '" << name << "' lacks stored_bytes";
        status = Status::InvalidModel;
        return {};
      }
      w.setZstdBytesAttr(b.getI64IntegerAttr(*stored));
    }
  }
  weights[name] = w;
  lastWeight = w;
  return w;
}

FailureOr<PyValue> FXImporter::decode(const llvm::json::Value &v) {
  PyValue p;
  if (v.kind() == llvm::json::Value::Null)
    return p;
  if (auto bv = v.getAsBoolean()) {
    p.kind = PyValue::Bool;
    p.i = *bv;
    return p;
  }
  // An integral number written as a float (5.0) is a Python float: JSON
  // keeps it a double, which getAsInteger reads too but getAsUINT64 does
  // not. (A negative one cannot be told from an int here, so the exporter
  // writes integral floats as {"float": "5.0"}.)
  if (auto iv = v.getAsInteger(); iv && (*iv < 0 || v.getAsUINT64())) {
    p.kind = PyValue::Int;
    p.i = *iv;
    return p;
  }
  if (auto fv = v.getAsNumber()) {
    p.kind = PyValue::Float;
    p.f = *fv;
    return p;
  }
  if (auto sv = v.getAsString()) {
    p.kind = PyValue::Str;
    p.s = sv->str();
    return p;
  }
  if (const auto *arr = v.getAsArray()) {
    p.kind = PyValue::List;
    for (const auto &e : *arr) {
      auto d = decode(e);
      if (failed(d))
        return failure();
      p.list.push_back(*d);
    }
    return p;
  }
  const auto *obj = v.getAsObject();
  if (auto ref = obj->getString("node")) {
    auto it = values.find(ref->str());
    if (it == values.end()) {
      emitError(FileLineColLoc::get(&ctx, path, 0, 0)) << "reference to unknown node '" << *ref << "'";
      return failure();
    }
    return it->second;
  }
  if (auto fs = obj->getString("float")) {
    p.kind = PyValue::Float;
    if (*fs == "nan" || *fs == "inf" || *fs == "-inf") {
      p.f = *fs == "nan" ? NAN : (*fs == "-inf" ? -INFINITY : INFINITY);
    } else if (fs->getAsDouble(p.f)) { // true on error
      emitError(FileLineColLoc::get(&ctx, path, 0, 0)) << "'" << *fs << "' is not a float";
      return failure();
    }
    return p;
  }
  if (const auto *sl = obj->getArray("slice")) {
    if (sl->size() != 3) {
      emitError(FileLineColLoc::get(&ctx, path, 0, 0)) << "a slice needs [start, stop, step]";
      return failure();
    }
    p.kind = PyValue::Slice;
    for (const auto &e : *sl) {
      auto d = decode(e);
      if (failed(d))
        return failure();
      p.list.push_back(*d);
    }
    return p;
  }
  if (obj->get("ellipsis")) {
    p.kind = PyValue::Ellipsis;
    return p;
  }
  if (auto dt = obj->getString("dtype")) {
    p.kind = PyValue::DType;
    p.s = dt->str();
    return p;
  }
  if (auto op = obj->getString("opaque")) {
    p.kind = PyValue::Str;
    p.s = op->str();
    return p;
  }
  if (const auto *d = obj->getObject("dict")) {
    p.kind = PyValue::List; // dict values in key order
    for (const auto &kv : *d) {
      auto e = decode(kv.second);
      if (failed(e))
        return failure();
      p.list.push_back(*e);
    }
    return p;
  }
  emitError(FileLineColLoc::get(&ctx, path, 0, 0)) << "cannot decode an argument";
  return failure();
}

/// A recorded dim: its size, its symbolic expression's value under the
/// --dim bindings, or -1 when it cannot be evaluated here.
static int64_t recordedDim(const llvm::json::Value &d,
                           const std::map<std::string, int64_t> &dims) {
  if (auto v = d.getAsInteger())
    return *v;
  if (auto s = d.getAsString()) {
    DimValue v = evalDimExpr(*s, dims);
    if (v.kind == DimValue::Value)
      return v.value;
  }
  return -1;
}

/// Checks a tensor result against the shape and dtype torch recorded.
static LogicalResult checkMeta(FXNode &n, const PyValue &r,
                               const llvm::json::Value *meta,
                               const std::map<std::string, int64_t> &dims) {
  if (!meta || (r.kind != PyValue::Tensor && r.kind != PyValue::Complex))
    return success();
  const auto *m = meta->getAsObject();
  if (!m)
    return success();
  StringRef recorded = m->getString("dtype").value_or("");
  // A complex result is its real view: the component type, one more dim.
  std::optional<StringRef> component = complexComponent(recorded);
  if (component.has_value() != (r.kind == PyValue::Complex)) {
    n.unsupported() << "its result is " << recorded << " where dfa computes "
                    << r.describe();
    return failure();
  }
  if (component)
    recorded = *component;
  const auto *shapeArr = m->getArray("shape");
  auto type = n.type(r.tensor);
  SmallVector<int64_t> shape;
  bool shapeDiffers = false;
  if (shapeArr) {
    for (const auto &d : *shapeArr)
      shape.push_back(recordedDim(d, dims));
    if (component)
      shape.push_back(2);
    shapeDiffers = shape.size() != (size_t)type.getRank();
    for (size_t i = 0; !shapeDiffers && i < shape.size(); ++i)
      shapeDiffers = shape[i] >= 0 && shape[i] != type.getDimSize(i);
  }
  Type elt = fxElementType(recorded, n.b.getContext());
  if (!elt && ref::dtypeFromName(recorded)) {
    n.unsupported() << "its result is " << recorded;
    return failure();
  }
  if (shapeDiffers ||
      (elt && elt != type.getElementType())) {
    // The graph is user input: a record that disagrees is an invalid
    // model (a hand-edited file) as much as a dfa bug.
    n.error() << "dfa computes " << r.tensor.getType()
              << " where the graph records "
              << RankedTensorType::get(shape, elt ? elt : type.getElementType());
    n.imp.status = Status::InvalidModel;
    return failure();
  }
  return success();
}

/// Whether a recorded tensor's storage is row-major from offset 0 (size-1
/// dims may have any stride); true when nothing is recorded.
static bool rowMajor(const llvm::json::Value *meta) {
  const auto *m = meta ? meta->getAsObject() : nullptr;
  const auto *shape = m ? m->getArray("shape") : nullptr;
  const auto *stride = m ? m->getArray("stride") : nullptr;
  if (!shape || !stride)
    return true;
  // An offset torch recorded (an int or a symbolic expression) is a view.
  if (stride->size() != shape->size() || m->get("storage_offset"))
    return false;
  int64_t expect = 1;
  for (size_t i = shape->size(); i-- > 0;) {
    auto size = (*shape)[i].getAsInteger(), st = (*stride)[i].getAsInteger();
    if (!size || !st)
      return false;
    if (*size != 1 && *st != expect)
      return false;
    expect *= *size;
  }
  return true;
}

LogicalResult FXImporter::importNode(const llvm::json::Object &node) {
  std::string name = node.getString("name").value_or("").str();
  std::string op = node.getString("op").value_or("").str();
  std::string target = node.getString("target").value_or("").str();
  // The node's source line where the exporter recorded one
  // ('File "model.py", line 12, in forward'), else the graph file.
  Location fileLoc = FileLineColLoc::get(&ctx, path, 0, 0);
  if (auto stack = node.getString("stack")) {
    StringRef rest = *stack;
    unsigned line = 0;
    if (rest.consume_front("File \"")) {
      auto [file, tail] = rest.split('"');
      if (tail.consume_front(", line ") &&
          !tail.take_while([](char c) { return c >= '0' && c <= '9'; }).getAsInteger(10, line))
        fileLoc = FileLineColLoc::get(&ctx, file, line, 0);
    }
  }
  Location loc = NameLoc::get(b.getStringAttr(name), fileLoc);
  if (auto mp = node.getString("module_path"))
    loc = NameLoc::get(b.getStringAttr(name),
                       NameLoc::get(b.getStringAttr(*mp), fileLoc));

  if (sawOutput) {
    emitError(loc) << "node '" << name << "' comes after the output node";
    status = Status::InvalidModel;
    return failure();
  }
  if (op == "placeholder")
    return success(); // made a function argument up front
  if (op == "get_attr") {
    Value w = weight(target, loc);
    if (!w)
      return failure();
    values[name] = isComplexWeight(target) ? PyValue::ofComplex(w) : PyValue::ofTensor(w);
    return success();
  }
  std::vector<PyValue> args;
  std::map<std::string, PyValue> kwargs;
  if (const auto *a = node.getArray("args"))
    for (const auto &v : *a) {
      auto d = decode(v);
      if (failed(d)) {
        status = Status::InvalidModel;
        return failure();
      }
      args.push_back(*d);
    }
  if (const auto *kw = node.getObject("kwargs"))
    for (const auto &kv : *kw) {
      auto d = decode(kv.second);
      if (failed(d)) {
        status = Status::InvalidModel;
        return failure();
      }
      kwargs[kv.first.str()] = *d;
    }
  if (op == "output") {
    if (!resultTypes.empty() || sawOutput) {
      emitError(loc) << "graph has more than one output node";
      status = Status::InvalidModel;
      return failure();
    }
    sawOutput = true;
    std::vector<PyValue> outs;
    std::function<void(const PyValue &)> flatten = [&](const PyValue &v) {
      if (v.kind == PyValue::List)
        for (const auto &e : v.list)
          flatten(e);
      else
        outs.push_back(v);
    };
    if (!args.empty())
      flatten(args[0]);
    SmallVector<Value> results;
    for (const auto &v : outs) {
      if (v.kind == PyValue::Complex) {
        emitError(loc) << "graph output is a complex tensor: return its "
                          "torch.view_as_real";
        status = Status::Unsupported;
        return failure();
      }
      if (v.kind != PyValue::Tensor) {
        emitError(loc) << "graph output " << v.describe() << " is not a tensor";
        status = Status::Unsupported;
        return failure();
      }
      results.push_back(v.tensor);
      resultTypes.push_back(v.tensor.getType());
    }
    b.create<func::ReturnOp>(loc, results);
    return success();
  }

  const llvm::json::Object *moduleRec = nullptr;
  Handler handler = nullptr;
  if (op == "call_module") {
    moduleRec = doc.getAsObject()->getObject("modules")
                    ? doc.getAsObject()->getObject("modules")->getObject(target)
                    : nullptr;
    auto type = moduleRec ? moduleRec->getString("type") : std::nullopt;
    if (type)
      handler = moduleHandlers().lookup(*type);
  } else if (op == "call_function" || op == "call_method") {
    handler = functionHandlers().lookup(canonicalTarget(op, target));
  }
  // A complex operand: only the handlers that compute on (real, imaginary)
  // pairs may take it.
  bool complexArgs = llvm::any_of(args, [](const PyValue &a) { return a.hasComplex(); }) ||
                     llvm::any_of(kwargs, [](const auto &kv) { return kv.second.hasComplex(); });
  if (complexArgs && op != "call_module") {
    handler = complexHandlers().lookup(canonicalTarget(op, target));
    if (!handler) {
      emitError(loc) << "node '" << name << "' (" << target
                     << ") takes a complex tensor: dfa computes complex values only in "
                        "view_as_complex/view_as_real, polar, complex, real/imag, abs/angle, "
                        "conj, mul/add/sub, the FFTs and views";
      status = Status::Unsupported;
      return failure();
    }
  } else if (complexArgs) {
    handler = nullptr;
  }
  if (!handler) {
    emitError(loc) << "node '" << name << "' (" << op << " " << target
                   << ") is not supported";
    status = Status::Unsupported;
    return failure();
  }
  Block *block = b.getInsertionBlock();
  Operation *last = block->empty() ? nullptr : &block->back();
  FXNode n(*this, b, loc, name, target, std::move(args), std::move(kwargs),
           moduleRec);
  PyValue result;
  LogicalResult handled = failure();
  int errors = 0;
  {
    graph::LenientInference lenient;
    // Counts the handler's errors and passes them on.
    ScopedDiagnosticHandler count(&ctx, [&](Diagnostic &d) {
      errors += d.getSeverity() == DiagnosticSeverity::Error;
      return failure();
    });
    handled = handler(n, result);
  }
  if (failed(handled)) {
    // Every lowering reports what it rejects; one that gives up on a
    // missing argument says so here.
    if (errors == 0)
      emitError(loc) << "node '" << name << "' (" << target
                     << "): missing or malformed arguments";
    if (status == Status::Ok)
      status = Status::InvalidModel;
    return failure();
  }
  for (Operation &o : llvm::make_range(
           last ? std::next(Block::iterator(last)) : block->begin(), block->end()))
    if (failed(graph::verifyTensorSizes(&o)) ||
        failed(verify(&o, /*verifyRecursively=*/false))) {
      emitError(loc) << "node '" << name << "' (" << target
                     << ") is inconsistent (see the error above)";
      status = Status::InvalidModel;
      return failure();
    }
  if (failed(checkMeta(n, result, node.get("meta"), opts.dims)))
    return failure();
  if (result.kind == PyValue::Tensor && !rowMajor(node.get("meta")))
    strided.insert(result.tensor);
  values[name] = std::move(result);
  return success();
}

LogicalResult FXImporter::coverage(OpCoverage &cov) {
  for (const auto &v : *nodes()) {
    const auto *node = v.getAsObject();
    if (!node)
      continue;
    ++cov.numNodes;
    StringRef op = node->getString("op").value_or("");
    StringRef target = node->getString("target").value_or("");
    std::string name = node->getString("name").value_or("").str();
    std::string key;
    bool ok = true;
    if (op == "call_module") {
      const auto *mods = doc.getAsObject()->getObject("modules");
      const auto *rec = mods ? mods->getObject(target) : nullptr;
      auto type = rec ? rec->getString("type") : std::nullopt;
      key = "module " + (type ? type->str() : target.str());
      ok = type && moduleHandlers().count(*type);
    } else if (op == "call_function" || op == "call_method") {
      key = (op == "call_method" ? "method " : "") + target.str();
      ok = functionHandlers().count(canonicalTarget(op, target)) ||
           complexHandlers().count(canonicalTarget(op, target));
    } else {
      continue;
    }
    if (ok)
      ++cov.supported[key];
    else
      cov.unsupported[key].push_back(name);
  }
  return success();
}

ImportResult FXImporter::run() {
  ImportResult result;
  std::string err;
  Status st = Status::Ok;
  Location fileLoc = FileLineColLoc::get(&ctx, path, 0, 0);
  auto fail = [&](Status s) {
    result.status = s;
    return std::move(result);
  };
  if (failed(load(err, st))) {
    emitError(fileLoc) << err;
    return fail(st);
  }
  OpCoverage cov;
  (void)coverage(cov);
  if (!cov.unsupported.empty()) {
    auto diag = emitError(fileLoc);
    diag << "graph uses " << cov.unsupported.size() << " unsupported target"
         << (cov.unsupported.size() > 1 ? "s" : "") << ":";
    bool first = true;
    for (const auto &[type, ns] : cov.unsupported) {
      diag << (first ? " " : "; ") << type << " (" << ns.size() << " node"
           << (ns.size() > 1 ? "s" : "") << ": '" << ns.front() << "'"
           << (ns.size() > 1 ? ", ..." : "") << ")";
      first = false;
    }
    return fail(Status::Unsupported);
  }
  if (!opts.noWeights && !llvm::sys::fs::exists(weightsFile)) {
    emitError(fileLoc) << "missing weights file '" << weightsFile << "'";
    return fail(Status::IOError);
  }

  // Placeholders become the function's arguments.
  std::map<std::string, int64_t> guards;
  SmallVector<Type> argTypes;
  SmallVector<std::string> argNames, argNodes;
  for (const auto &v : *nodes()) {
    const auto *node = v.getAsObject();
    if (!node || node->getString("op") != "placeholder")
      continue;
    const auto *meta = node->getObject("meta");
    const auto *shapeArr = meta ? meta->getArray("shape") : nullptr;
    StringRef dtype = meta ? meta->getString("dtype").value_or("") : "";
    Type elt = fxElementType(dtype, &ctx);
    std::string name = node->getString("name").value_or("").str();
    if (shapeArr && !elt && (ref::dtypeFromName(dtype) || complexComponent(dtype))) {
      emitError(fileLoc) << "placeholder '" << name << "' is " << dtype
                         << ", which dfa does not import from FX";
      return fail(Status::Unsupported);
    }
    if (!shapeArr || !elt) {
      emitError(fileLoc) << "placeholder '" << name
                         << "' has no tensor shape and dtype";
      return fail(Status::InvalidModel);
    }
    SmallVector<int64_t> shape;
    for (auto [i, d] : llvm::enumerate(*shapeArr)) {
      if (auto v = d.getAsInteger(); v && *v >= 0) {
        shape.push_back(*v);
        continue;
      }
      auto sym = d.getAsString();
      if (!sym) {
        emitError(fileLoc) << "placeholder '" << name << "' has a bad dim " << i;
        return fail(Status::InvalidModel);
      }
      // A torch.export Dim: its size comes from --dim, within its range.
      const auto *ranges = doc.getAsObject()->getObject("dims");
      const auto *range = ranges ? ranges->getObject(*sym) : nullptr;
      auto lo = range ? range->getInteger("min") : std::nullopt;
      auto hi = range ? range->getInteger("max") : std::nullopt;
      std::string span = range ? " (" + (lo ? std::to_string(*lo) : std::string("0")) +
                                     ".." + (hi ? std::to_string(*hi) : std::string("")) + ")"
                               : std::string();
      DimValue v = evalDimExpr(*sym, opts.dims);
      if (v.kind == DimValue::Malformed) {
        emitError(fileLoc) << "placeholder '" << name << "' dim " << i << " ('"
                           << *sym << "'): " << v.detail;
        return fail(Status::BadInput);
      }
      if (v.kind == DimValue::Unbound) {
        emitError(fileLoc) << "placeholder '" << name << "' has a dynamic dimension "
                           << i << " ('" << *sym << "'" << span
                           << "); pass --dim " << v.detail << "=N";
        return fail(Status::InvalidModel);
      }
      if ((lo && v.value < *lo) || (hi && v.value > *hi)) {
        // Bound by --dim, a bucket, a request or LLM mode's sweep.
        emitError(fileLoc) << "dim " << *sym << "=" << v.value
                           << " is outside the range the export allows" << span;
        return fail(Status::BadInput);
      }
      shape.push_back(v.value);
      // What the graph assumed of its inputs, as the ONNX import records it
      // (a new size is a new compile): a Dim by its name; an expression of
      // Dims follows from theirs.
      if (isDimName(*sym) || opts.dims.count(sym->str()))
        guards.emplace(sym->str(), v.value);
    }
    argTypes.push_back(RankedTensorType::get(shape, elt));
    argNames.push_back(node->getString("target").value_or(name).str());
    argNodes.push_back(name);
  }
  module = ModuleOp::create(fileLoc);
  module->getOperation()->setAttr(graph::kSourceAttr, b.getStringAttr(path));
  if (!guards.empty()) {
    SmallVector<NamedAttribute> attrs;
    for (auto &[name, size] : guards) // std::map: sorted, as the attribute wants
      attrs.push_back(b.getNamedAttr(name, b.getI64IntegerAttr(size)));
    module->getOperation()->setAttr(graph::kGuardsAttr, b.getDictionaryAttr(attrs));
  }
  b.setInsertionPointToEnd(module->getBody());
  func = b.create<func::FuncOp>(fileLoc, "main", b.getFunctionType(argTypes, {}));
  Block *entry = func.addEntryBlock();
  for (size_t i = 0; i < argNames.size(); ++i) {
    func.setArgAttr(i, graph::kNameAttr, b.getStringAttr(argNames[i]));
    values[argNodes[i]] = PyValue::ofTensor(entry->getArgument(i));
  }
  b.setInsertionPointToEnd(entry);
  for (const auto &v : *nodes()) {
    const auto *node = v.getAsObject();
    if (!node) {
      emitError(fileLoc) << "a node is not a JSON object";
      return fail(Status::InvalidModel);
    }
    if (failed(importNode(*node)))
      return fail(status == Status::Ok ? Status::InvalidModel : status);
  }
  if (entry->empty() || !isa<func::ReturnOp>(entry->back())) {
    emitError(fileLoc) << "graph has no output node";
    return fail(Status::InvalidModel);
  }
  func.setFunctionType(b.getFunctionType(argTypes, resultTypes));
  for (size_t i = 0; i < resultTypes.size(); ++i)
    func.setResultAttr(i, graph::kNameAttr,
                       b.getStringAttr(resultTypes.size() == 1
                                           ? std::string("output")
                                           : "output_" + std::to_string(i)));
  // Computations on constants alone become constants, as the ONNX
  // exporter and importer fold them (a shifted window's mask and index
  // arithmetic built from zeros and aranges in forward()).
  ref::foldConstantOps(*entry, entry->begin(), opts.foldLimitElements);
  // Drop what the lowering left unused (shape arithmetic constants).
  SmallVector<Operation *> ops;
  for (Operation &op : entry->without_terminator())
    ops.push_back(&op);
  for (Operation *op : llvm::reverse(ops))
    if (op->use_empty() && isPure(op))
      op->erase();
  if (failed(verify(*module))) {
    emitError(fileLoc) << "imported module failed verification";
    return fail(Status::Internal);
  }
  result.module = std::move(module);
  return result;
}

ImportResult dfa::importFX(StringRef path, MLIRContext &ctx,
                           const FXImportOptions &options) {
  ctx.loadDialect<graph::GraphDialect, func::FuncDialect>();
  return FXImporter(path, ctx, options).run();
}

ImportResult dfa::checkFX(StringRef path, MLIRContext &ctx, OpCoverage &cov) {
  ctx.loadDialect<graph::GraphDialect, func::FuncDialect>();
  FXImportOptions options;
  FXImporter imp(path, ctx, options);
  ImportResult result;
  std::string err;
  Status st = Status::Ok;
  if (failed(imp.load(err, st))) {
    emitError(FileLineColLoc::get(&ctx, path, 0, 0)) << err;
    result.status = st;
    return result;
  }
  (void)imp.coverage(cov);
  result.status = cov.unsupported.empty() ? Status::Ok : Status::Unsupported;
  return result;
}

Status dfa::fxGraphInputs(StringRef path, std::vector<std::string> &names,
                          std::string &error) {
  std::vector<GraphInputSignature> inputs;
  Status st = fxInputSignatures(path, inputs, error);
  for (const GraphInputSignature &in : inputs)
    names.push_back(in.name);
  return st;
}

Status dfa::fxInputSignatures(StringRef path, std::vector<GraphInputSignature> &inputs,
                              std::string &error) {
  MLIRContext ctx; // builtin types only, for their sizes
  FXImportOptions options;
  FXImporter imp(path, ctx, options);
  Status st = Status::Ok;
  if (failed(imp.load(error, st)))
    return st;
  for (const auto &v : *imp.nodes()) {
    const auto *node = v.getAsObject();
    if (!node || node->getString("op") != "placeholder")
      continue;
    GraphInputSignature sig;
    // The name the import gives the argument.
    sig.name = node->getString("target")
                   .value_or(node->getString("name").value_or(""))
                   .str();
    const auto *meta = node->getObject("meta");
    if (Type elt = meta ? fxElementType(meta->getString("dtype").value_or(""), &ctx)
                        : Type())
      sig.elementBytes = graph::elementBytes(elt);
    if (const auto *shape = meta ? meta->getArray("shape") : nullptr)
      for (const auto &d : *shape) {
        if (auto n = d.getAsInteger())
          sig.dims.push_back(std::to_string(*n));
        else
          sig.dims.push_back(d.getAsString().value_or("").str());
      }
    inputs.push_back(std::move(sig));
  }
  return Status::Ok;
}
