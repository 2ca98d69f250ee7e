//===- Measured.cpp - a PyTorch Profiler trace against a report -----------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "dfa/Roofline/Measured.h"

#include "Format.h"

#include "dfa/Support/Limits.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <set>

using namespace dfa;
using namespace dfa::roofline;

double MeasuredRow::gap() const {
  if (predictedSeconds <= 0)
    return std::numeric_limits<double>::infinity();
  return measuredSeconds / predictedSeconds;
}

namespace {

/// The operator's own name: "aten::linear" -> "linear", "add_" -> "add".
std::string baseName(llvm::StringRef name) {
  llvm::StringRef n = name;
  // An operator's namespace goes; a kernel's signature stays whole.
  if (size_t colons = n.rfind("::");
      colons != llvm::StringRef::npos && n.find_first_of("<( ") == llvm::StringRef::npos)
    n = n.drop_front(colons + 2);
  if (n.size() > 1 && n.ends_with("_") && !n.starts_with("_"))
    n = n.drop_back();
  return n.lower();
}

/// Operators that launch no work (views, metadata) or only allocate: the
/// trace lists them, but there is nothing to time.
bool leftOut(llvm::StringRef base) {
  static const llvm::StringSet<> views = {
      "view", "reshape", "_reshape_alias", "_unsafe_view", "transpose", "t",
      "permute", "expand", "expand_as", "as_strided", "slice", "select",
      "narrow", "split", "split_with_sizes", "chunk", "unsqueeze", "squeeze",
      "flatten", "unflatten", "detach", "alias", "unbind", "view_as",
      "numpy_t", "lift_fresh", "resolve_conj", "resolve_neg", "empty",
      "empty_like", "empty_strided", "zeros", "zeros_like", "ones",
      "ones_like", "full", "full_like", "arange", "scalar_tensor", "to",
      "size", "stride", "dim", "is_contiguous", "item", "_local_scalar_dense",
      "dropout", "feature_dropout", "identity", "set_", "result_type"};
  return views.contains(base);
}

/// What a measured op can be among the graph's ops: its own kind
/// (`anchors`: a run of nodes must hold one) and the parts a composite
/// op decomposes into.
struct Kinds {
  std::vector<std::string> anchors, parts;
};

Kinds kindsOf(llvm::StringRef base) {
  using V = std::vector<std::string>;
  auto has = [&](std::initializer_list<const char *> names) {
    return llvm::any_of(names, [&](const char *n) { return base.contains(n); });
  };
  // Kernels of a GPU trace without operators are named by their library.
  if (has({"gemm", "cutlass", "matmul", "linear", "addmm", "bmm", "xmma", "mm"}) &&
      !has({"norm", "softmax"}))
    return {V{"matmul", "gemm", "batch_matmul", "einsum", "attention"},
            V{"add", "mul", "transpose", "reshape", "cast"}};
  if (has({"conv"}))
    return {V{"conv", "conv_transpose"}, V{"add", "batch_norm", "reshape", "relu"}};
  if (has({"layer_norm", "layernorm", "group_norm", "batch_norm", "instance_norm",
           "rms_norm", "rmsnorm"}))
    return {V{"layer_norm", "batch_norm", "group_norm", "instance_norm",
              "rms_norm", "reduce_mean"},
            V{"sub", "pow", "mul", "add", "sqrt", "div", "reciprocal", "rsqrt",
              "reduce_mean", "reshape", "cast"}};
  if (has({"scaled_dot_product", "attention", "flash", "fmha", "sdpa"}))
    return {V{"attention", "matmul", "softmax"},
            V{"matmul", "softmax", "div", "mul", "add", "where", "transpose"}};
  if (has({"softmax"}))
    return {V{"softmax", "log_softmax", "exp"},
            V{"reduce_max", "sub", "reduce_sum", "div", "exp"}};
  if (has({"gelu"}))
    return {V{"gelu", "erf", "tanh"}, V{"div", "mul", "add", "pow"}};
  if (has({"silu", "swish"}))
    return {V{"silu", "sigmoid"}, V{"mul"}};
  if (has({"masked_fill", "where"}))
    return {V{"where", "select"}, V{"not", "cast"}};
  if (has({"contiguous", "clone", "copy", "cat", "stack", "index", "gather"}))
    return {V{"transpose", "concat", "reshape", "gather", "copy", "slice"},
            V{"reshape", "transpose"}};
  if (has({"embedding"}))
    return {V{"gather"}, V{}};
  if (has({"pool"}))
    return {V{"max_pool", "avg_pool", "global_avg_pool", "reduce_mean"}, V{"reshape"}};
  if (has({"mean", "sum", "amax", "amin", "reduce"}))
    return {V{"reduce_mean", "reduce_sum", "reduce_max", "reduce_min"}, V{}};
  if (has({"elementwise", "vectorized", "unrolled"})) // a GPU pointwise kernel
    return {V{"add", "sub", "mul", "div", "relu", "sigmoid", "tanh", "exp",
              "erf", "pow", "sqrt", "where", "cast"},
            V{"add", "sub", "mul", "div"}};
  // Pointwise operators keep their names: add, mul, relu, tanh, ...
  return {V{base.str()}, V{}};
}

/// 2: the node is the op's own kind; 1: a part of it; 0: neither. A node
/// dfa raised into an attention (its scale, mask, softmax and products)
/// is any of the ops attention is made of.
int compat(const Kinds &k, llvm::StringRef nodeOp) {
  if (llvm::is_contained(k.anchors, nodeOp))
    return 2;
  static const llvm::StringSet<> inAttention = {
      "matmul", "batch_matmul", "div", "mul", "add", "where", "select",
      "softmax", "exp", "masked_fill"};
  if (nodeOp == "attention" &&
      llvm::any_of(k.anchors, [](const std::string &a) { return inAttention.contains(a); }))
    return 2;
  if (llvm::is_contained(k.parts, nodeOp))
    return 1;
  return 0;
}

/// A scope or node name compared loosely: lower case, '.' for '/'.
std::string scopeKey(llvm::StringRef s) {
  std::string k = s.lower();
  std::replace(k.begin(), k.end(), '/', '.');
  return llvm::StringRef(k).trim('.').str();
}

/// Whether one of the op's scopes names the node (its module group, or
/// a prefix of its name): a record_function label the user gave.
bool namesNode(llvm::ArrayRef<std::string> scopes, const SourceNode &n) {
  std::string group = scopeKey(n.group), name = scopeKey(n.name);
  return llvm::any_of(scopes, [&](const std::string &s) {
    return !s.empty() &&
           (s == group || s == name || llvm::StringRef(name).starts_with(s + "."));
  });
}

/// Seconds of a trace event's `dur` (microseconds).
double seconds(const llvm::json::Object &e) {
  std::optional<double> d = e.getNumber("dur");
  return d ? *d * 1e-6 : 0;
}

} // namespace

Status dfa::roofline::readTrace(llvm::StringRef path, llvm::StringRef text,
                                Trace &out, std::string &error) {
  out = {};
  // A JSON value takes several times its text in memory.
  if (double need = double(text.size()) * 8; !limits::fits(need)) {
    error = "reading trace '" + path.str() + "' needs about " +
            limits::formatSize(need) + ", " + limits::overBudget() +
            " (pass a larger --max-memory; 0: no limit)";
    return Status::LimitExceeded;
  }
  if (limits::nestingDepth(text, /*lineComments=*/false, limits::kMaxNesting) >
      limits::kMaxNesting) {
    error = "trace '" + path.str() + "' nests deeper than " +
            std::to_string(limits::kMaxNesting) + " levels";
    return Status::LimitExceeded;
  }
  llvm::Expected<llvm::json::Value> v = llvm::json::parse(text);
  if (!v) {
    error = "trace '" + path.str() + "' is not JSON: " + llvm::toString(v.takeError());
    return Status::InvalidModel;
  }
  const llvm::json::Array *events = v->getAsArray();
  if (const llvm::json::Object *o = v->getAsObject())
    events = o->getArray("traceEvents");
  if (!events) {
    error = "trace '" + path.str() +
            "' has no traceEvents (a Chrome trace: torch.profiler's "
            "export_chrome_trace)";
    return Status::InvalidModel;
  }
  // Complete events ("ph": "X") by thread, in time order (an enclosing
  // event before what it encloses).
  struct Ev {
    const llvm::json::Object *e;
    std::string cat, name;
    int64_t tid;
    double ts, end;
  };
  std::vector<Ev> evs;
  llvm::StringMap<int64_t> stringTids;
  for (const llvm::json::Value &x : *events) {
    const llvm::json::Object *e = x.getAsObject();
    if (!e || e->getString("ph").value_or("") != "X")
      continue;
    std::optional<double> ts = e->getNumber("ts");
    std::optional<double> dur = e->getNumber("dur");
    // A time that is not a finite, non-negative number is no time; nor is
    // one past a day (microseconds), which only a corrupt trace has.
    constexpr double kMaxMicroseconds = 86400e6;
    if (!ts || !std::isfinite(*ts) ||
        (dur && (!std::isfinite(*dur) || *dur < 0 || *dur > kMaxMicroseconds)))
      continue;
    Ev ev{e, e->getString("cat").value_or("").lower(),
          e->getString("name").value_or("").str(), 0, *ts,
          *ts + e->getNumber("dur").value_or(0)};
    if (const llvm::json::Value *t = e->get("tid")) {
      if (std::optional<int64_t> i = t->getAsInteger())
        ev.tid = *i;
      else if (std::optional<llvm::StringRef> s = t->getAsString())
        ev.tid = stringTids.try_emplace(*s, -1 - int64_t(stringTids.size()))
                     .first->second; // by first appearance: deterministic
    }
    evs.push_back(std::move(ev));
  }
  std::stable_sort(evs.begin(), evs.end(), [](const Ev &a, const Ev &b) {
    return std::tie(a.tid, a.ts) < std::tie(b.tid, b.ts) ||
           (a.tid == b.tid && a.ts == b.ts && a.end > b.end);
  });
  // Top-level operators and the module chain around each; every nested
  // operator's External id maps to its top-level one.
  struct Op {
    TraceOp op;
    double ts;
  };
  std::vector<Op> ops;
  std::map<int64_t, size_t> byExternal; // External id -> ops index
  bool hasKernels = llvm::any_of(evs, [](const Ev &ev) { return ev.cat == "kernel"; });
  std::vector<const Ev *> opStack, moduleStack;
  int64_t tid = std::numeric_limits<int64_t>::min();
  for (const Ev &ev : evs) {
    if (ev.tid != tid) {
      tid = ev.tid;
      opStack.clear();
      moduleStack.clear();
    }
    while (!opStack.empty() && opStack.back()->end <= ev.ts)
      opStack.pop_back();
    while (!moduleStack.empty() && moduleStack.back()->end <= ev.ts)
      moduleStack.pop_back();
    // Module scopes: nn.Module events (with_stack), and the labels of
    // torch.profiler.record_function, which may name the model's nodes.
    if ((ev.cat == "python_function" &&
         llvm::StringRef(ev.name).starts_with("nn.Module: ")) ||
        ev.cat == "user_annotation" ||
        llvm::StringRef(ev.name).starts_with("ProfilerStep#")) {
      moduleStack.push_back(&ev);
      continue;
    }
    if (ev.cat != "cpu_op" && ev.cat != "operator")
      continue;
    const llvm::json::Object *args = ev.e->getObject("args");
    std::optional<int64_t> ext = args ? args->getInteger("External id") : std::nullopt;
    if (!opStack.empty()) { // nested: its kernels are its top-level op's
      if (ext) // the top-level op of this thread's stack is ops.back()
        byExternal[*ext] = ops.size() - 1;
      opStack.push_back(&ev);
      continue;
    }
    opStack.push_back(&ev);
    std::string base = baseName(ev.name);
    // In a trace with kernels, whether an op did work is whether it
    // launched any (decided below); in a CPU trace, by its name.
    if (!hasKernels && leftOut(base)) {
      ++out.viewsLeftOut;
      // Its nested ops' kernels (a copy a view needed) stay unassigned.
      ops.push_back({{ev.name, "", {}, 0, -1}, ev.ts});
      if (ext)
        byExternal[*ext] = ops.size() - 1;
      continue;
    }
    std::string module;
    std::vector<std::string> labels;
    for (const Ev *m : moduleStack) {
      llvm::StringRef name(m->name);
      name.consume_front("nn.Module: ");
      module += (module.empty() ? "" : "/") + name.str();
      if (m->cat == "user_annotation")
        labels.push_back(scopeKey(name));
    }
    ops.push_back({{ev.name, module, std::move(labels), seconds(*ev.e), 0}, ev.ts});
    if (ext)
      byExternal[*ext] = ops.size() - 1;
  }
  // Kernels: to their operator, or ops of their own in a trace without any.
  for (const Ev &ev : evs) {
    if (ev.cat != "kernel" && ev.cat != "gpu_memcpy" && ev.cat != "gpu_memset")
      continue;
    out.device = true;
    const llvm::json::Object *args = ev.e->getObject("args");
    std::optional<int64_t> ext = args ? args->getInteger("External id") : std::nullopt;
    auto it = ext ? byExternal.find(*ext) : byExternal.end();
    if (it != byExternal.end()) {
      Op &o = ops[it->second];
      if (o.op.kernels < 0)
        continue; // a view's copy: left out with it
      if (o.op.kernels == 0)
        o.op.seconds = 0; // device time replaces the host's
      o.op.seconds += seconds(*ev.e);
      ++o.op.kernels;
    }
  }
  // Kernels no operator claims (no External id, or the operators fell
  // outside the profiler's window): the kernels are the ops.
  bool linked = llvm::any_of(ops, [](const Op &o) { return o.op.kernels > 0; });
  if (ops.empty() || (out.device && !linked)) {
    ops.clear();
    for (const Ev &ev : evs)
      if (ev.cat == "kernel" || ev.cat == "gpu_memcpy" || ev.cat == "gpu_memset")
        ops.push_back({{ev.name, "", {}, seconds(*ev.e), 1}, ev.ts});
  }
  llvm::stable_sort(ops, [](const Op &a, const Op &b) { return a.ts < b.ts; });
  for (Op &o : ops) {
    if (o.op.kernels < 0)
      continue;
    // In a device trace, an operator that launched nothing did no work
    // on the device (a metadata op the list above does not know).
    if (out.device && o.op.kernels == 0) {
      ++out.viewsLeftOut;
      continue;
    }
    out.ops.push_back(std::move(o.op));
  }
  if (out.ops.empty()) {
    error = "trace '" + path.str() +
            "' holds no operator or kernel that did work (torch.profiler "
            "with ProfilerActivity.CPU, and .CUDA for kernels)";
    return Status::InvalidModel;
  }
  return Status::Ok;
}

void dfa::roofline::compareMeasured(Report &r, const SourceGraph &graph,
                                    const Trace &trace, llvm::StringRef file) {
  MeasuredReport m;
  m.file = file.str();
  m.clock = trace.device ? "device" : "host";
  m.ops = int64_t(trace.ops.size());
  m.viewsLeftOut = trace.viewsLeftOut;
  m.predictedSeconds = r.seconds;
  // dfa's side: the source nodes in graph order, with their part of the
  // schedule.
  std::map<std::string, NodeRoof> parts;
  for (NodeRoof &n : byNode(r))
    parts[n.name] = std::move(n);
  std::vector<const SourceNode *> nodes;
  for (const SourceNode &n : graph.nodes)
    if (n.kind == SourceNode::Node)
      nodes.push_back(&n);
  size_t n = trace.ops.size(), k = nodes.size();

  std::vector<Kinds> kinds;
  for (const TraceOp &o : trace.ops) {
    kinds.push_back(kindsOf(baseName(o.name)));
    m.measuredSeconds += o.seconds;
  }
  // compat() of every (op, node) pair, tabled by the distinct op names and
  // node ops: the alignment asks each many times.
  std::vector<int> opKind(n), nodeKind(k);
  std::map<std::string, int> opIndex, nodeIndex;
  std::vector<const Kinds *> kindOf;
  for (size_t i = 0; i < n; ++i) {
    auto [it, added] = opIndex.try_emplace(baseName(trace.ops[i].name), int(kindOf.size()));
    if (added)
      kindOf.push_back(&kinds[i]);
    opKind[i] = it->second;
  }
  std::vector<llvm::StringRef> nodeOps;
  for (size_t j = 0; j < k; ++j) {
    auto [it, added] = nodeIndex.try_emplace(nodes[j]->op, int(nodeOps.size()));
    if (added)
      nodeOps.push_back(nodes[j]->op);
    nodeKind[j] = it->second;
  }
  std::vector<int8_t> table(kindOf.size() * nodeOps.size());
  for (size_t a = 0; a < kindOf.size(); ++a)
    for (size_t b = 0; b < nodeOps.size(); ++b)
      table[a * nodeOps.size() + b] = int8_t(compat(*kindOf[a], nodeOps[b]));
  auto compatAt = [&](size_t i, size_t j) {
    return int(table[size_t(opKind[i]) * nodeOps.size() + size_t(nodeKind[j])]);
  };
  // Alignment: best[i][j] over the first i ops and j nodes; an op takes a
  // run of up to kRun nodes, each its kind or a part of it, one its kind.
  constexpr size_t kRun = 24;
  constexpr double kMatch = 1e6;
  std::vector<std::vector<size_t>> assigned(n); // node indices per op
  if (n * (k + 1) <= size_t(1) << 27) {
    std::vector<uint8_t> choice(n * (k + 1) + k + 1, 0);
    auto at = [&](size_t i, size_t j) -> uint8_t & { return choice[i * (k + 1) + j]; };
    std::vector<double> prev(k + 1, 0), cur(k + 1, 0);
    enum : uint8_t { SkipOp = 0, SkipNode = 255 };
    for (size_t i = 1; i <= n; ++i) {
      cur[0] = prev[0];
      at(i - 1, 0) = SkipOp;
      for (size_t j = 1; j <= k; ++j) {
        double best = prev[j];
        uint8_t how = SkipOp;
        if (cur[j - 1] > best) {
          best = cur[j - 1];
          how = SkipNode;
        }
        double score = 0;
        bool anchor = false;
        for (size_t l = 1; l <= std::min(kRun, j); ++l) {
          int c = compatAt(i - 1, j - l);
          if (c == 0)
            break;
          score += c;
          // A node its scope names (record_function) binds it closer.
          if (!trace.ops[i - 1].labels.empty() &&
              namesNode(trace.ops[i - 1].labels, *nodes[j - l]))
            score += 3;
          anchor |= c == 2;
          if (anchor && prev[j - l] + kMatch + score > best) {
            best = prev[j - l] + kMatch + score;
            how = uint8_t(l);
          }
        }
        cur[j] = best;
        at(i - 1, j) = how;
      }
      std::swap(prev, cur);
    }
    for (size_t i = n, j = k; i > 0;) {
      uint8_t how = j == 0 ? uint8_t(SkipOp) : at(i - 1, j);
      if (how == SkipOp) {
        --i;
      } else if (how == SkipNode) {
        --j;
      } else {
        for (size_t l = 0; l < how; ++l)
          assigned[i - 1].push_back(j - how + l);
        j -= how;
        --i;
      }
    }
  } else {
    // Too large to align whole: in order, each op takes the first run
    // holding its kind within the next 64 nodes.
    size_t j = 0;
    for (size_t i = 0; i < n && j < k; ++i)
      for (size_t s = j; s < std::min(k, j + 64); ++s) {
        if (compatAt(i, s) != 2)
          continue;
        size_t e = s;
        while (e < k && e - s < kRun && compatAt(i, e) > 0)
          assigned[i].push_back(e++);
        j = e;
        break;
      }
  }
  // Nodes no op took (views in eager: the reshapes and transposes around
  // attention) go with the op before them.
  std::vector<int64_t> owner(k, -1);
  for (size_t i = 0; i < n; ++i)
    for (size_t j : assigned[i])
      owner[j] = int64_t(i);
  int64_t last = -1;
  for (size_t j = 0; j < k; ++j) {
    if (owner[j] >= 0) {
      last = owner[j];
      continue;
    }
    if (last >= 0)
      assigned[size_t(last)].push_back(j);
  }
  // Which ops share a kernel: dfa fused what eager ran apart (by the
  // nodes each op computes, not the views it took along).
  std::map<std::string, std::set<size_t>> opsOfKernel;
  for (size_t i = 0; i < n; ++i)
    for (size_t j : assigned[i])
      if (auto it = parts.find(nodes[j]->name);
          it != parts.end() && owner[j] == int64_t(i))
        for (const std::string &kn : it->second.kernels)
          opsOfKernel[kn].insert(i);
  double peak = r.peak;
  for (size_t i = 0; i < n; ++i) {
    const TraceOp &o = trace.ops[i];
    MeasuredRow row;
    row.op = o.name;
    row.module = o.module;
    row.index = int64_t(i);
    row.measuredSeconds = o.seconds;
    row.kernels = o.kernels;
    if (assigned[i].empty() ||
        llvm::none_of(assigned[i], [&](size_t j) { return owner[j] == int64_t(i); })) {
      m.unmatched.push_back(row);
      continue;
    }
    ++m.matched;
    std::string bound, fusedWith;
    double outerBandwidth = 0;
    std::string level;
    for (size_t j : assigned[i]) {
      row.nodes.push_back(nodes[j]->name);
      auto it = parts.find(nodes[j]->name);
      if (it == parts.end())
        continue;
      const NodeRoof &p = it->second;
      row.predictedSeconds += p.seconds;
      row.flops += p.flops;
      if (!p.bytes.empty())
        row.bytes += p.bytes.front().second;
      if (owner[j] != int64_t(i))
        continue; // a view's node it took along: not what it computes
      if (bound.empty())
        bound = p.bound;
      for (const std::string &kn : p.kernels)
        if (opsOfKernel[kn].size() > 1 && fusedWith.empty())
          fusedWith = kn;
    }
    if (llvm::StringRef(bound).starts_with("memory:")) {
      level = llvm::StringRef(bound).drop_front(7).str();
      for (const LevelRoof &l : r.roofs)
        if (l.name == level)
          outerBandwidth = l.bandwidth;
    }
    double gap = row.gap();
    double perKernel = o.kernels > 0 ? o.seconds / double(o.kernels) : o.seconds;
    std::string fusedNote =
        fusedWith.empty() ? std::string()
                          : "dfa fuses it into kernel '" + fusedWith +
                                "' with its neighbours, eager runs it alone";
    if (gap >= 2) {
      if (!trace.device)
        row.cause = "host: a CPU trace times eager dispatch on the host, not "
                    "the target's kernels" +
                    (fusedNote.empty() ? std::string() : "; " + fusedNote);
      else if (!fusedWith.empty())
        row.cause = "fused: " + fusedNote + ", with its own launch and memory "
                    "round trip";
      else if (perKernel < 10e-6)
        row.cause = llvm::formatv("launch overhead: {0} kernel(s) of {1} each, "
                                  "mostly fixed cost",
                                  o.kernels, humanSeconds(perKernel))
                        .str();
      else if (outerBandwidth > 0 && row.bytes > 0)
        row.cause = "memory (" + level + "): achieved " +
                    humanNumber(row.bytes / o.seconds, "B/s") + " of " +
                    humanNumber(outerBandwidth, "B/s");
      else if (peak > 0 && row.flops > 0)
        row.cause = "compute: achieved " + humanNumber(row.flops / o.seconds, "FLOP/s") +
                    " of " + humanNumber(peak, "FLOP/s");
      else
        row.cause = "slower than predicted";
    } else if (gap <= 0.5) {
      row.cause = "dfa predicts slower than measured (its bound: " +
                  (bound.empty() ? std::string("none") : bound) + ")";
    } else {
      row.cause = "within 2x";
    }
    m.rows.push_back(std::move(row));
  }
  // The largest gaps first (either way), ties in trace order.
  auto size = [](const MeasuredRow &x) {
    double g = x.gap();
    return std::isinf(g) ? std::numeric_limits<double>::max()
                         : std::fabs(std::log(std::max(g, 1e-300)));
  };
  llvm::stable_sort(m.rows, [&](const MeasuredRow &a, const MeasuredRow &b) {
    return size(a) > size(b);
  });
  r.measured = std::move(m);
}

void dfa::roofline::printMeasured(const Report &r, llvm::raw_ostream &os,
                                  size_t top) {
  if (!r.measured)
    return;
  const MeasuredReport &m = *r.measured;
  os << llvm::formatv("  measured ({0}, {1} time): {2} ops ({3} views and "
                      "allocations left out), {4} matched ({5:f1}%); measured "
                      "{6}, predicted {7}\n",
                      m.file, m.clock, m.ops, m.viewsLeftOut, m.matched,
                      100 * m.matchedFraction(), humanSeconds(m.measuredSeconds),
                      humanSeconds(m.predictedSeconds));
  const char *row = "  {0,-24} {1,-28} {2,+10} {3,+10} {4,+8} {5,+13} {6,+11}  {7}\n";
  os << llvm::formatv(row, "op", "module", "measured", "predicted", "gap",
                      "FLOP/s", "B/s", "likely cause");
  size_t shown = 0;
  for (const MeasuredRow &x : m.rows) {
    if (top && shown++ == top) {
      os << "  ... " << (m.rows.size() - top) << " more (--top 0 for all)\n";
      break;
    }
    std::string module = x.module;
    if (module.size() > 28)
      module = "..." + module.substr(module.size() - 25);
    double g = x.gap();
    os << llvm::formatv(row, x.op, module.empty() ? "-" : module,
                        humanSeconds(x.measuredSeconds),
                        humanSeconds(x.predictedSeconds),
                        std::isinf(g) ? std::string("inf")
                                      : llvm::formatv("x{0:f2}", g).str(),
                        x.measuredSeconds > 0
                            ? humanNumber(x.flops / x.measuredSeconds, "FLOP/s")
                            : std::string("-"),
                        x.measuredSeconds > 0
                            ? humanNumber(x.bytes / x.measuredSeconds, "B/s")
                            : std::string("-"),
                        x.cause);
  }
  if (!m.unmatched.empty()) {
    os << "  not matched:";
    for (const MeasuredRow &x : m.unmatched)
      os << " " << x.op << (x.module.empty() ? "" : " (" + x.module + ")");
    os << "\n";
  }
}
