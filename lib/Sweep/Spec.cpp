//===- Spec.cpp - dfa.sweep/1 specs and their points -----------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "dfa/Sweep/Sweep.h"

#include "dfa/Support/Limits.h"
#include "dfa/Target/Target.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/YAMLParser.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>

using namespace dfa;
using namespace dfa::sweep;
namespace json = llvm::json;

std::string dfa::sweep::valueText(const json::Value &v) {
  if (auto s = v.getAsString())
    return s->str();
  std::string out;
  llvm::raw_string_ostream os(out);
  os << v;
  return out;
}

const std::vector<std::string> &dfa::sweep::knownMetrics() {
  static const std::vector<std::string> kMetrics = {
      "seconds",           "flops",          "kernels",
      "fusions",           "chips",          "dma_bytes",
      "peak_onchip_bytes", "onchip_bytes",   "peak_flops",
      "outer_bandwidth",   "achieved_flops"};
  return kMetrics;
}

/// The most points one spec may name.
static constexpr size_t kMaxPoints = 1000000;

//===----------------------------------------------------------------------===//
// YAML
//===----------------------------------------------------------------------===//

namespace {
/// Converts a YAML node; false with `error` on what JSON cannot hold
/// (aliases, tags' custom types, non-scalar keys).
bool convert(llvm::yaml::Node *n, json::Value &out, std::string &error,
             int depth) {
  if (depth > limits::kMaxNesting) {
    error = "nests deeper than " + std::to_string(limits::kMaxNesting) + " levels";
    return false;
  }
  if (!n || llvm::isa<llvm::yaml::NullNode>(n)) {
    out = nullptr;
    return true;
  }
  if (auto *s = llvm::dyn_cast<llvm::yaml::ScalarNode>(n)) {
    llvm::SmallString<64> storage;
    llvm::StringRef v = s->getValue(storage);
    // A plain scalar may be a number, a boolean or null; a quoted one is a
    // string.
    llvm::StringRef raw = s->getRawValue();
    bool quoted = raw.starts_with("'") || raw.starts_with("\"");
    if (!quoted) {
      if (v == "true" || v == "True")
        return out = true, true;
      if (v == "false" || v == "False")
        return out = false, true;
      if (v == "null" || v == "~" || v.empty())
        return out = nullptr, true;
      if (llvm::Expected<json::Value> j = json::parse(v)) {
        if (j->kind() == json::Value::Number) {
          out = std::move(*j);
          return true;
        }
      } else {
        llvm::consumeError(j.takeError());
      }
    }
    out = v.str();
    return true;
  }
  if (auto *b = llvm::dyn_cast<llvm::yaml::BlockScalarNode>(n)) {
    out = b->getValue().str();
    return true;
  }
  if (auto *seq = llvm::dyn_cast<llvm::yaml::SequenceNode>(n)) {
    json::Array arr;
    for (llvm::yaml::Node &e : *seq) {
      json::Value v = nullptr;
      if (!convert(&e, v, error, depth + 1))
        return false;
      arr.push_back(std::move(v));
    }
    out = std::move(arr);
    return true;
  }
  if (auto *map = llvm::dyn_cast<llvm::yaml::MappingNode>(n)) {
    json::Object obj;
    for (llvm::yaml::KeyValueNode &kv : *map) {
      auto *key = llvm::dyn_cast_or_null<llvm::yaml::ScalarNode>(kv.getKey());
      if (!key) {
        error = "a mapping key that is not a plain value";
        return false;
      }
      llvm::SmallString<64> storage;
      std::string k = key->getValue(storage).str();
      json::Value v = nullptr;
      if (!convert(kv.getValue(), v, error, depth + 1))
        return false;
      obj[k] = std::move(v);
    }
    out = std::move(obj);
    return true;
  }
  error = "an alias or a value JSON cannot hold";
  return false;
}
} // namespace

std::optional<json::Value> dfa::sweep::yamlToJson(llvm::StringRef text,
                                                  std::string &error) {
  llvm::SourceMgr sm;
  std::string diag;
  sm.setDiagHandler(
      [](const llvm::SMDiagnostic &d, void *ctx) {
        auto *s = static_cast<std::string *>(ctx);
        if (s->empty())
          *s = "line " + std::to_string(d.getLineNo()) + ": " + d.getMessage().str();
      },
      &diag);
  llvm::yaml::Stream stream(text, sm);
  auto it = stream.begin();
  if (it == stream.end()) {
    error = "an empty document";
    return std::nullopt;
  }
  json::Value out = nullptr;
  if (!convert(it->getRoot(), out, error, 0))
    return std::nullopt;
  if (stream.failed() || !diag.empty()) {
    error = diag.empty() ? "not valid YAML" : diag;
    return std::nullopt;
  }
  return out;
}

//===----------------------------------------------------------------------===//
// The spec
//===----------------------------------------------------------------------===//

namespace {
class Reader {
public:
  Reader(llvm::StringRef file, std::string &error) : file(file), error(error) {}
  bool ok = true;
  bool fail(const std::string &key, const std::string &what) {
    if (ok)
      error = file.str() + ": key '" + key + "': " + what;
    ok = false;
    return false;
  }
  /// A string or a list of strings (required: at least one).
  std::vector<std::string> strings(const json::Object &o, llvm::StringRef key,
                                   bool required) {
    std::vector<std::string> out;
    const json::Value *v = o.get(key);
    if (!v) {
      if (required)
        fail(key.str(), "missing (expected a name or a list of names)");
      return out;
    }
    if (auto s = v->getAsString()) {
      out.push_back(s->str());
    } else if (const json::Array *a = v->getAsArray()) {
      for (const json::Value &e : *a) {
        auto s = e.getAsString();
        if (!s || s->empty()) {
          fail(key.str(), "expected non-empty strings");
          return {};
        }
        out.push_back(s->str());
      }
    } else {
      fail(key.str(), "expected a string or a list of strings");
      return {};
    }
    if (required && out.empty())
      fail(key.str(), "expected at least one");
    return out;
  }

private:
  llvm::StringRef file;
  std::string &error;
};


bool isWhole(double v) { return std::isfinite(v) && v == std::floor(v) && std::fabs(v) < 9e15; }

json::Value number(double v, bool whole) {
  if (whole)
    return int64_t(std::llround(v));
  return v;
}

/// A swept key's values: a list, or a range {from, to, step} or {from, to,
/// count[, scale: linear|log]}.
bool axisValues(Reader &r, const std::string &key, const json::Value &v,
                std::vector<json::Value> &out) {
  if (const json::Array *a = v.getAsArray()) {
    if (a->empty())
      return r.fail(key, "expected at least one value");
    for (const json::Value &e : *a)
      out.push_back(e);
    return true;
  }
  const json::Object *o = v.getAsObject();
  if (!o)
    return r.fail(key, "expected a list of values or {\"from\", \"to\", "
                       "\"step\"} or {\"from\", \"to\", \"count\"}");
  for (const auto &kv : *o)
    if (!llvm::is_contained({"from", "to", "step", "count", "scale"},
                            kv.first.str()))
      return r.fail(key + "." + kv.first.str(),
                    "unknown (a range has from, to, and step or count, and "
                    "scale)");
  auto from = o->getNumber("from"), to = o->getNumber("to");
  if (!from || !to || !std::isfinite(*from) || !std::isfinite(*to))
    return r.fail(key, "a range needs finite numbers \"from\" and \"to\"");
  auto step = o->getNumber("step");
  auto count = o->getInteger("count");
  if (bool(step) == bool(count))
    return r.fail(key, "a range needs either \"step\" or \"count\"");
  bool whole = isWhole(*from) && isWhole(*to);
  if (step) {
    if (!(*step > 0) || !std::isfinite(*step))
      return r.fail(key + ".step", "expected a positive number");
    if (*to < *from)
      return r.fail(key, "\"to\" is below \"from\"");
    double n = std::floor((*to - *from) / *step + 1e-9) + 1;
    if (n > double(kMaxPoints))
      return r.fail(key, "more than " + std::to_string(kMaxPoints) + " values");
    whole = whole && isWhole(*step);
    for (int64_t i = 0; i < int64_t(n); ++i)
      out.push_back(number(*from + double(i) * *step, whole));
    return true;
  }
  if (*count < 1 || *count > int64_t(kMaxPoints))
    return r.fail(key + ".count", "expected 1 to " + std::to_string(kMaxPoints));
  std::string scale = o->getString("scale").value_or("linear").str();
  if (scale != "linear" && scale != "log")
    return r.fail(key + ".scale", "'" + scale + "' is not linear or log");
  if (scale == "log" && (*from <= 0 || *to <= 0))
    return r.fail(key, "a log range needs positive \"from\" and \"to\"");
  for (int64_t i = 0; i < *count; ++i) {
    double f = *count == 1 ? 0 : double(i) / double(*count - 1);
    double x = scale == "log" ? *from * std::pow(*to / *from, f)
                              : *from + (*to - *from) * f;
    json::Value v = number(whole ? std::round(x) : x, whole);
    // Rounding to whole numbers may repeat a value: keep it once.
    if (!llvm::is_contained(out, v))
      out.push_back(std::move(v));
  }
  return true;
}

/// Keys of an object in sorted order (json::Object does not keep the
/// file's), so that points come out the same from any spec text.
std::vector<std::string> sortedKeys(const json::Object &o) {
  std::vector<std::string> keys;
  for (const auto &kv : o)
    keys.push_back(kv.first.str());
  llvm::sort(keys);
  return keys;
}
} // namespace

std::optional<Spec> dfa::sweep::parseSpec(llvm::StringRef file,
                                          llvm::StringRef text,
                                          std::string &error) {
  std::optional<json::Value> doc;
  bool yaml = file.ends_with(".yaml") || file.ends_with(".yml");
  if (!yaml &&
      limits::nestingDepth(text, false, limits::kMaxNesting) > limits::kMaxNesting) {
    error = file.str() + ": nests deeper than " +
            std::to_string(limits::kMaxNesting) + " levels";
    return std::nullopt;
  }
  if (yaml) {
    std::string e;
    doc = yamlToJson(text, e);
    if (!doc) {
      error = file.str() + ": not valid YAML: " + e;
      return std::nullopt;
    }
  } else if (llvm::Expected<json::Value> v = json::parse(text)) {
    doc = std::move(*v);
  } else {
    error = file.str() + ": not valid JSON: " + llvm::toString(v.takeError());
    return std::nullopt;
  }
  const json::Object *root = doc->getAsObject();
  if (!root) {
    error = file.str() + ": expected an object (a mapping)";
    return std::nullopt;
  }
  Reader r(file, error);
  for (const auto &kv : *root)
    if (!llvm::is_contained({"schema", "models", "targets", "target_dirs", "set",
                             "sweep", "dims", "combine", "metrics"},
                            kv.first.str())) {
      r.fail(kv.first.str(), "unknown (a spec has schema, models, targets, "
                             "target_dirs, set, sweep, dims, combine, metrics)");
      return std::nullopt;
    }
  Spec s;
  s.file = file.str();
  s.dir = llvm::sys::path::parent_path(file).str();
  if (const json::Value *v = root->get("schema"))
    if (v->getAsString() != std::optional<llvm::StringRef>("dfa.sweep/1"))
      r.fail("schema", "expected \"dfa.sweep/1\"");
  s.models = r.strings(*root, "models", true);
  s.targets = r.strings(*root, "targets", true);
  // Folders and description files are found relative to the spec, as
  // models are.
  s.targetDirs = r.strings(*root, "target_dirs", false);
  for (std::string &d : s.targetDirs)
    if (!llvm::sys::path::is_absolute(d) && !s.dir.empty()) {
      llvm::SmallString<256> p(s.dir);
      llvm::sys::path::append(p, d);
      d = p.str().str();
    }
  if (const json::Value *v = root->get("set")) {
    const json::Object *o = v->getAsObject();
    if (!o)
      r.fail("set", "expected {\"KEY\": VALUE} overrides");
    else
      for (const std::string &k : sortedKeys(*o))
        s.fixed.push_back(k + "=" + valueText(*o->get(k)));
  }
  for (auto [field, axes] : {std::pair<const char *, std::vector<Axis> *>{"sweep", &s.overrides},
                             {"dims", &s.dims}}) {
    const json::Value *v = root->get(field);
    if (!v || !r.ok)
      continue;
    const json::Object *o = v->getAsObject();
    if (!o) {
      r.fail(field, "expected {\"KEY\": [values] or a range}");
      continue;
    }
    for (const std::string &k : sortedKeys(*o)) {
      Axis a;
      a.key = k;
      if (!axisValues(r, std::string(field) + "." + k, *o->get(k), a.values))
        break;
      if (axes == &s.dims)
        for (const json::Value &d : a.values) {
          std::optional<int64_t> n = d.getAsInteger();
          if (!n || *n < 1) {
            r.fail(std::string("dims.") + k, "expected sizes of at least 1");
            break;
          }
        }
      axes->push_back(std::move(a));
    }
  }
  if (const json::Value *v = root->get("combine")) {
    auto c = v->getAsString();
    if (!c || (*c != "product" && *c != "zip"))
      r.fail("combine", "expected \"product\" or \"zip\"");
    else
      s.combine = c->str();
  }
  s.metrics = r.strings(*root, "metrics", false);
  for (const std::string &m : s.metrics)
    if (r.ok && !llvm::is_contained(knownMetrics(), m)) {
      std::string list;
      for (const std::string &k : knownMetrics())
        list += (list.empty() ? "" : ", ") + k;
      r.fail("metrics", "'" + m + "' is not one of " + list);
    }
  if (s.metrics.empty())
    s.metrics = knownMetrics();
  if (r.ok && s.combine == "zip") {
    size_t n = 0;
    for (const std::vector<Axis> *axes : {&s.overrides, &s.dims})
      for (const Axis &a : *axes) {
        if (n && a.values.size() != n)
          r.fail(a.key, "zip needs every swept key to have the same number "
                        "of values (" + std::to_string(n) + "), it has " +
                            std::to_string(a.values.size()));
        n = a.values.size();
      }
  }
  if (r.ok) {
    double total = double(s.models.size()) * double(s.targets.size());
    if (s.combine == "zip") {
      if (!s.overrides.empty() || !s.dims.empty())
        total *= double((s.overrides.empty() ? s.dims : s.overrides).front().values.size());
    } else {
      for (const std::vector<Axis> *axes : {&s.overrides, &s.dims})
        for (const Axis &a : *axes)
          total *= double(a.values.size());
    }
    if (total > double(kMaxPoints))
      r.fail("sweep", "names " + std::to_string(int64_t(total)) +
                          " points; at most " + std::to_string(kMaxPoints));
  }
  if (!r.ok)
    return std::nullopt;
  return s;
}

std::optional<Spec> dfa::sweep::readSpec(llvm::StringRef file,
                                         std::string &error) {
  auto buf = llvm::MemoryBuffer::getFile(file, /*IsText=*/true);
  if (!buf) {
    error = "cannot read '" + file.str() + "': " + buf.getError().message();
    return std::nullopt;
  }
  return parseSpec(file, (*buf)->getBuffer(), error);
}

//===----------------------------------------------------------------------===//
// Points
//===----------------------------------------------------------------------===//

json::Object Point::describe() const {
  json::Object d;
  d["model"] = model;
  d["target"] = target;
  json::Object dimsObj, setObj;
  for (const std::string &kv : dims) {
    auto [k, v] = llvm::StringRef(kv).split('=');
    int64_t n = 0;
    (void)v.getAsInteger(10, n);
    dimsObj[k] = n;
  }
  for (const std::string &kv : overrides) {
    std::string error;
    if (std::optional<target::Override> o = target::parseOverride(kv, error))
      setObj[o->key] = o->value;
  }
  d["dims"] = std::move(dimsObj);
  d["overrides"] = std::move(setObj);
  return d;
}

std::vector<Point> dfa::sweep::points(const Spec &spec) {
  // The swept combinations: each a list of (axis, value index).
  std::vector<const Axis *> axes;
  for (const Axis &a : spec.overrides)
    axes.push_back(&a);
  for (const Axis &a : spec.dims)
    axes.push_back(&a);
  std::vector<std::vector<size_t>> combos;
  if (axes.empty()) {
    combos.push_back({});
  } else if (spec.combine == "zip") {
    for (size_t i = 0; i < axes.front()->values.size(); ++i)
      combos.push_back(std::vector<size_t>(axes.size(), i));
  } else {
    std::vector<size_t> idx(axes.size(), 0);
    while (true) {
      combos.push_back(idx);
      size_t d = axes.size();
      while (d > 0) {
        --d;
        if (++idx[d] < axes[d]->values.size())
          break;
        idx[d] = 0;
        if (d == 0) {
          d = axes.size() + 1; // done
          break;
        }
      }
      if (d == axes.size() + 1)
        break;
    }
  }
  std::vector<Point> out;
  for (const std::string &model : spec.models)
    for (const std::string &target : spec.targets)
      for (const std::vector<size_t> &combo : combos) {
        Point p;
        p.index = int64_t(out.size());
        p.model = model;
        p.target = target;
        p.overrides = spec.fixed;
        for (size_t i = 0; i < axes.size(); ++i) {
          std::string kv = axes[i]->key + "=" + valueText(axes[i]->values[combo[i]]);
          if (i < spec.overrides.size())
            p.overrides.push_back(kv);
          else
            p.dims.push_back(kv);
        }
        out.push_back(std::move(p));
      }
  return out;
}
