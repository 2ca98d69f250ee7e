//===- ONNXFunctions.cpp - expand model-local functions ---------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// A model may define functions of its own (ModelProto.functions): torch's
/// `export_modules_as_functions`, onnxscript's `@script` functions, and
/// exporters that keep a module as one node. A node whose domain, op type
/// (and, from IR 10, overload) name such a function is a call; it is
/// replaced by the function's nodes before the import sees the graph, as
/// onnx's own inliner does:
///  - the function's formal inputs read the call's actual inputs (one the
///    call leaves out, or passes as "", is an absent optional input), its
///    formal outputs are the call's outputs, and every other value gets a
///    fresh name, `<call node>/<value>`, as do the nodes;
///  - an attribute that refers to the caller's (`ref_attr_name`) takes the
///    call's attribute of that name, else the function's default for it
///    (FunctionProto.attribute_proto, IR 9), else it is left out; a call's
///    attribute that nothing refers to has no effect (as in onnxruntime);
///  - a function may import the default domain at another opset than the
///    model when every op of its body is the same operator version at both
///    (the importer reads a model at one opset);
///  - subgraphs in the body (an If's branches, a Loop's body) are renamed
///    with it, their own values scoped inside them;
///  - calls inside a body, and in any subgraph of the model, expand too.
/// libonnx 1.12's protobuf predates attribute_proto and overload: they are
/// read from the messages' unknown fields.
///
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "dfa/Support/Limits.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/FormatVariadic.h"

#include <google/protobuf/unknown_field_set.h>

using namespace dfa;
using namespace dfa::onnximport;

namespace {

/// Length-delimited fields `number` of `msg` that its schema (libonnx
/// 1.12's) does not know, in order.
std::vector<std::string> unknownBytes(const google::protobuf::Message &msg,
                                      int number) {
  std::vector<std::string> out;
  const auto &set = msg.GetReflection()->GetUnknownFields(msg);
  for (int i = 0; i < set.field_count(); ++i) {
    const auto &f = set.field(i);
    if (f.number() == number &&
        f.type() == google::protobuf::UnknownField::TYPE_LENGTH_DELIMITED)
      out.push_back(f.length_delimited());
  }
  return out;
}

/// NodeProto.overload and FunctionProto.overload (IR 10).
std::string overload(const onnx::NodeProto &n) {
  auto v = unknownBytes(n, 8);
  return v.empty() ? "" : v.back();
}
std::string overload(const onnx::FunctionProto &f) {
  auto v = unknownBytes(f, 13);
  return v.empty() ? "" : v.back();
}

std::string key(llvm::StringRef domain, llvm::StringRef name,
                llvm::StringRef over) {
  std::string d = domain == "ai.onnx" ? "" : domain.str();
  return d + '\n' + name.str() + '\n' + over.str();
}

std::string displayName(const onnx::FunctionProto &f) {
  std::string n = f.domain().empty() ? f.name() : f.domain() + "." + f.name();
  std::string o = overload(f);
  return o.empty() ? n : n + ":" + o;
}

/// The first op of the default domain among `nodes` (and their subgraphs)
/// that is a different operator version at opsets `a` and `b`, as
/// "'Op'", or "".
std::string
changedOp(const google::protobuf::RepeatedPtrField<onnx::NodeProto> &nodes,
          int64_t a, int64_t b) {
  for (const auto &n : nodes) {
    if ((n.domain().empty() || n.domain() == "ai.onnx") &&
        operatorVersion(n.op_type(), a) != operatorVersion(n.op_type(), b))
      return "'" + n.op_type() + "'";
    for (const auto &attr : n.attribute()) {
      if (attr.has_g())
        if (std::string op = changedOp(attr.g().node(), a, b); !op.empty())
          return op;
      for (const auto &g : attr.graphs())
        if (std::string op = changedOp(g.node(), a, b); !op.empty())
          return op;
    }
  }
  return "";
}

/// One function, read once: its attribute defaults parsed.
struct Function {
  const onnx::FunctionProto *proto = nullptr;
  llvm::StringMap<onnx::AttributeProto> defaults;
};

/// A chain of name scopes: a subgraph's own values shadow its parents'.
struct Scope {
  llvm::StringMap<std::string> names;
  const Scope *parent = nullptr;
  const std::string *find(llvm::StringRef n) const {
    for (const Scope *s = this; s; s = s->parent) {
      auto it = s->names.find(n);
      if (it != s->names.end())
        return &it->second;
    }
    return nullptr;
  }
};

class Inliner {
public:
  Inliner(onnx::ModelProto &model, std::string &error)
      : model(model), error(error) {}

  Status run();

private:
  onnx::ModelProto &model;
  std::string &error;
  llvm::StringMap<Function> functions;
  /// Every value and node name in the model, for fresh ones.
  llvm::StringSet<> used;
  llvm::StringMap<int64_t> suffixes;
  /// The functions being counted, innermost last.
  std::vector<const Function *> stack;
  /// Nodes each function expands to, once counted.
  llvm::DenseMap<const Function *, double> sizes;
  Status status = Status::Ok;

  Status fail(Status s, const llvm::Twine &msg) {
    if (status == Status::Ok) {
      status = s;
      error = msg.str();
    }
    return s;
  }
  const Function *lookup(const onnx::NodeProto &n) const {
    if (functions.empty())
      return nullptr;
    auto it = functions.find(key(n.domain(), n.op_type(), overload(n)));
    return it == functions.end() ? nullptr : &it->second;
  }
  /// `base`, or `base_N` with the first N unused: a counter per base, so
  /// that a million unnamed calls of one function stay linear.
  std::string fresh(const std::string &base) {
    if (used.insert(base).second)
      return base;
    int64_t &i = suffixes[base];
    std::string name;
    do
      name = base + "_" + std::to_string(++i);
    while (!used.insert(name).second);
    return name;
  }
  void collectNames(const onnx::GraphProto &g);
  /// The nodes `nodes` expand to, subgraphs included; -1 when a function
  /// calls itself (the error set).
  double expandedSize(
      const google::protobuf::RepeatedPtrField<onnx::NodeProto> &nodes);
  bool expandGraph(onnx::GraphProto &g);
  bool emit(const onnx::NodeProto &node,
            google::protobuf::RepeatedPtrField<onnx::NodeProto> &out);
  bool expandCall(const onnx::NodeProto &call, const Function &fn,
                  std::vector<onnx::NodeProto> &body);
  bool renameNode(onnx::NodeProto &node, Scope &scope,
                  const onnx::NodeProto &call, const Function &fn,
                  const std::string &prefix);
  bool renameGraph(onnx::GraphProto &g, const Scope &outer,
                   const onnx::NodeProto &call, const Function &fn,
                   const std::string &prefix);
  std::string callName(const onnx::NodeProto &call) const {
    return call.name().empty() ? call.op_type() : call.name();
  }
};

void Inliner::collectNames(const onnx::GraphProto &g) {
  for (const auto &v : g.input())
    used.insert(v.name());
  for (const auto &v : g.output())
    used.insert(v.name());
  for (const auto &t : g.initializer())
    used.insert(t.name());
  for (const auto &n : g.node()) {
    used.insert(n.name());
    for (const auto &o : n.output())
      used.insert(o);
    for (const auto &a : n.attribute()) {
      if (a.has_g())
        collectNames(a.g());
      for (const auto &sub : a.graphs())
        collectNames(sub);
    }
  }
}

Status Inliner::run() {
  if (model.functions_size() == 0)
    return Status::Ok;
  int64_t modelOpset = -1;
  for (const auto &imp : model.opset_import())
    if (imp.domain().empty() || imp.domain() == "ai.onnx")
      modelOpset = imp.version();
  for (const auto &f : model.functions()) {
    Function fn;
    fn.proto = &f;
    for (const std::string &bytes : unknownBytes(f, 11)) {
      onnx::AttributeProto a;
      if (!a.ParseFromString(bytes) || a.name().empty())
        return fail(Status::InvalidModel,
                    "function '" + displayName(f) +
                        "' has an attribute default that does not parse");
      fn.defaults[a.name()] = std::move(a);
    }
    // A function's ops are read at the model's opset: the importer reads
    // every node of the default domain at one version.
    for (const auto &imp : f.opset_import()) {
      if (!imp.domain().empty() && imp.domain() != "ai.onnx")
        continue;
      if (modelOpset < 0) {
        auto *add = model.add_opset_import();
        add->set_domain("");
        add->set_version(imp.version());
        modelOpset = imp.version();
      } else if (imp.version() != modelOpset) {
        std::string op = changedOp(f.node(), imp.version(), modelOpset);
        if (!op.empty())
          return fail(Status::Unsupported,
                      "function '" + displayName(f) + "' imports ONNX opset " +
                          std::to_string(imp.version()) +
                          " where the model imports opset " +
                          std::to_string(modelOpset) + ", and its " + op +
                          " differs between them; dfa reads every node of a "
                          "model at one opset");
      }
    }
    std::string k = key(f.domain(), f.name(), overload(f));
    if (!functions.try_emplace(k, std::move(fn)).second)
      return fail(Status::InvalidModel,
                  "function '" + displayName(f) + "' is defined twice");
  }
  // Nested calls multiply: the expanded size is known before anything
  // is expanded.
  double total = expandedSize(model.graph().node());
  if (total < 0)
    return status;
  double need = limits::kImportBytesPerNode * total;
  if (!limits::fits(need))
    return fail(Status::LimitExceeded,
                "expanding the model's functions makes " +
                    llvm::formatv("{0:F0}", total).str() +
                    " nodes; importing them needs about " +
                    limits::formatSize(need) + ", " + limits::overBudget());
  collectNames(model.graph());
  expandGraph(*model.mutable_graph());
  return status;
}

double Inliner::expandedSize(
    const google::protobuf::RepeatedPtrField<onnx::NodeProto> &nodes) {
  double total = 0;
  for (const auto &n : nodes) {
    if (const Function *fn = lookup(n)) {
      auto [it, inserted] = sizes.try_emplace(fn, -1.0);
      if (!inserted && it->second < 0) {
        std::string chain;
        for (const Function *f : llvm::drop_begin(
                 stack, llvm::find(stack, fn) - stack.begin()))
          chain += displayName(*f->proto) + " -> ";
        fail(Status::InvalidModel, "function '" + displayName(*fn->proto) +
                                       "' calls itself (" + chain +
                                       displayName(*fn->proto) + ")");
        return -1;
      }
      if (inserted) {
        stack.push_back(fn);
        double size = expandedSize(fn->proto->node());
        stack.pop_back();
        if (size < 0)
          return -1;
        sizes[fn] = size;
      }
      total += sizes[fn];
      continue;
    }
    total += 1;
    for (const auto &a : n.attribute()) {
      if (a.has_g()) {
        double size = expandedSize(a.g().node());
        if (size < 0)
          return -1;
        total += size;
      }
      for (const auto &g : a.graphs()) {
        double size = expandedSize(g.node());
        if (size < 0)
          return -1;
        total += size;
      }
    }
  }
  return total;
}

bool Inliner::expandGraph(onnx::GraphProto &g) {
  bool calls = llvm::any_of(g.node(), [&](const onnx::NodeProto &n) {
    return lookup(n) || llvm::any_of(n.attribute(), [](const auto &a) {
             return a.has_g() || a.graphs_size();
           });
  });
  if (!calls)
    return true;
  google::protobuf::RepeatedPtrField<onnx::NodeProto> out;
  for (const auto &n : g.node())
    if (!emit(n, out))
      return false;
  g.mutable_node()->Swap(&out);
  return true;
}

bool Inliner::emit(const onnx::NodeProto &node,
                   google::protobuf::RepeatedPtrField<onnx::NodeProto> &out) {
  if (const Function *fn = lookup(node)) {
    std::vector<onnx::NodeProto> body;
    if (!expandCall(node, *fn, body))
      return false;
    for (const auto &n : body)
      if (!emit(n, out))
        return false;
    return true;
  }
  onnx::NodeProto *copy = out.Add();
  *copy = node;
  for (auto &a : *copy->mutable_attribute()) {
    if (a.has_g() && !expandGraph(*a.mutable_g()))
      return false;
    for (auto &sub : *a.mutable_graphs())
      if (!expandGraph(sub))
        return false;
  }
  return true;
}

bool Inliner::expandCall(const onnx::NodeProto &call, const Function &fn,
                         std::vector<onnx::NodeProto> &body) {
  const onnx::FunctionProto &f = *fn.proto;
  std::string where = "node '" + callName(call) + "' calls function '" +
                      displayName(f) + "'";
  if (call.input_size() > f.input_size() ||
      call.output_size() > f.output_size()) {
    fail(Status::InvalidModel,
         where + " with " + std::to_string(call.input_size()) + " inputs and " +
             std::to_string(call.output_size()) + " outputs; it takes " +
             std::to_string(f.input_size()) + " and gives " +
             std::to_string(f.output_size()));
    return false;
  }
  std::string prefix = callName(call);
  Scope scope;
  for (int i = 0; i < f.input_size(); ++i)
    scope.names[f.input(i)] = i < call.input_size() ? call.input(i) : "";
  // Formal outputs are the call's outputs, unless one is also an input or
  // repeats: then an Identity gives it its own value.
  std::vector<std::pair<std::string, std::string>> copies;
  llvm::StringMap<std::string> outputs;
  for (int i = 0; i < f.output_size(); ++i) {
    std::string actual = i < call.output_size() && !call.output(i).empty()
                             ? call.output(i)
                             : fresh(prefix + "/" + f.output(i));
    if (scope.names.count(f.output(i)) || outputs.count(f.output(i)))
      copies.push_back({f.output(i), actual});
    else
      outputs[f.output(i)] = actual;
  }
  // Every value the body makes is named before any is read, so the body
  // may list its nodes in any order.
  for (const auto &n : f.node())
    for (const std::string &o : n.output()) {
      if (o.empty())
        continue;
      if (scope.names.count(o)) {
        fail(Status::InvalidModel, where + ", whose value '" + o +
                                       "' is defined twice in its body");
        return false;
      }
      auto it = outputs.find(o);
      scope.names[o] =
          it != outputs.end() ? it->second : fresh(prefix + "/" + o);
    }
  for (const auto &entry : outputs)
    if (!scope.names.count(entry.getKey())) {
      fail(Status::InvalidModel, where + ", whose output '" +
                                     entry.getKey().str() +
                                     "' no node of its body makes");
      return false;
    }
  for (int i = 0; i < f.node_size(); ++i) {
    onnx::NodeProto n = f.node(i);
    std::string local =
        n.name().empty() ? n.op_type() + "_" + std::to_string(i) : n.name();
    n.set_name(fresh(prefix + "/" + local));
    if (!renameNode(n, scope, call, fn, prefix))
      return false;
    body.push_back(std::move(n));
  }
  for (const auto &[formal, actual] : copies) {
    const std::string *src = scope.find(formal);
    if (!src || src->empty()) {
      fail(Status::InvalidModel, where + ", whose output '" + formal +
                                     "' no node of its body makes");
      return false;
    }
    onnx::NodeProto id;
    id.set_op_type("Identity");
    id.set_name(fresh(prefix + "/" + formal + "_copy"));
    id.add_input(*src);
    id.add_output(actual);
    body.push_back(std::move(id));
  }
  return true;
}

bool Inliner::renameNode(onnx::NodeProto &node, Scope &scope,
                         const onnx::NodeProto &call, const Function &fn,
                         const std::string &prefix) {
  std::string where = "node '" + callName(call) + "' calls function '" +
                      displayName(*fn.proto) + "'";
  for (std::string &in : *node.mutable_input()) {
    if (in.empty())
      continue;
    const std::string *to = scope.find(in);
    if (!to) {
      fail(Status::InvalidModel, where + ", whose body reads '" + in +
                                     "', which the function does not define");
      return false;
    }
    in = *to;
  }
  for (std::string &o : *node.mutable_output())
    if (!o.empty())
      o = *scope.find(o);
  google::protobuf::RepeatedPtrField<onnx::AttributeProto> attrs;
  for (const auto &a : node.attribute()) {
    onnx::AttributeProto resolved = a;
    // A graph the call passes (or a default) is the caller's: its names
    // are not the body's, and it is not renamed with them.
    bool fromBody = a.ref_attr_name().empty();
    if (!a.ref_attr_name().empty()) {
      const onnx::AttributeProto *from = nullptr;
      for (const auto &c : call.attribute())
        if (c.name() == a.ref_attr_name())
          from = &c;
      if (!from) {
        auto it = fn.defaults.find(a.ref_attr_name());
        if (it != fn.defaults.end())
          from = &it->second;
      }
      if (!from)
        continue; // neither passed nor defaulted: the attribute is absent
      if (a.has_type() && from->has_type() && a.type() != from->type()) {
        fail(Status::InvalidModel,
             where + " with attribute '" + from->name() + "' of type " +
                 onnx::AttributeProto::AttributeType_Name(from->type()) +
                 " where its body's '" + a.name() + "' takes " +
                 onnx::AttributeProto::AttributeType_Name(a.type()));
        return false;
      }
      resolved = *from;
      resolved.set_name(a.name());
    }
    if (fromBody && resolved.has_g() &&
        !renameGraph(*resolved.mutable_g(), scope, call, fn, prefix))
      return false;
    if (fromBody)
      for (auto &sub : *resolved.mutable_graphs())
        if (!renameGraph(sub, scope, call, fn, prefix))
          return false;
    *attrs.Add() = std::move(resolved);
  }
  node.mutable_attribute()->Swap(&attrs);
  return true;
}

bool Inliner::renameGraph(onnx::GraphProto &g, const Scope &outer,
                          const onnx::NodeProto &call, const Function &fn,
                          const std::string &prefix) {
  Scope scope;
  scope.parent = &outer;
  auto define = [&](std::string &name) {
    if (name.empty())
      return;
    std::string to = fresh(prefix + "/" + name);
    scope.names[name] = to;
    name = to;
  };
  for (auto &v : *g.mutable_input())
    define(*v.mutable_name());
  for (auto &t : *g.mutable_initializer())
    define(*t.mutable_name());
  for (auto &n : *g.mutable_node())
    for (std::string &o : *n.mutable_output())
      if (!o.empty() && !scope.names.count(o)) {
        std::string to = fresh(prefix + "/" + o);
        scope.names[o] = to;
      }
  for (auto &n : *g.mutable_node()) {
    n.set_name(fresh(prefix + "/" + (n.name().empty() ? n.op_type() : n.name())));
    if (!renameNode(n, scope, call, fn, prefix))
      return false;
  }
  for (auto &v : *g.mutable_output()) {
    const std::string *to = scope.find(v.name());
    if (!to) {
      fail(Status::InvalidModel,
           "node '" + callName(call) + "' calls function '" +
               displayName(*fn.proto) + "', whose subgraph returns '" +
               v.name() + "', which it does not define");
      return false;
    }
    v.set_name(*to);
  }
  g.clear_value_info();
  return true;
}

} // namespace

Status dfa::onnximport::inlineFunctions(onnx::ModelProto &model,
                                        std::string &error) {
  return Inliner(model, error).run();
}
