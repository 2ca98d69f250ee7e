//===- Signatures.cpp - ONNX operator signatures beyond libonnx's ---------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Every node is checked against its operator's signature before a converter
// sees it. libonnx (Debian's, ONNX 1.12) holds the signatures up to its own
// newest opset; the newer ones come from OnnxSignatures.inc, generated from
// the project's pinned onnx (scripts/gen_onnx_signatures.py). Both give the
// same checks and the same messages.
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"

#include <onnx/defs/schema.h>

using namespace dfa::onnximport;

namespace {
struct AttrSignature {
  const char *name;
  int type; // onnx::AttributeProto::AttributeType
  bool required;
};

struct OpSignature {
  const char *op;
  int since;
  int minInputs, maxInputs, minOutputs, maxOutputs;
  /// One letter a formal input: S single, O optional, V variadic.
  const char *inputs;
  const AttrSignature *attrs;
  int numAttrs;
};

#include "ContribSignatures.inc"
#include "OnnxSignatures.inc"

/// Every version of each operator of `all`, oldest first (the table is
/// sorted by name, then version).
llvm::StringMap<llvm::ArrayRef<OpSignature>>
indexOf(llvm::ArrayRef<OpSignature> all) {
  llvm::StringMap<llvm::ArrayRef<OpSignature>> m;
  for (size_t i = 0; i < all.size();) {
    size_t j = i;
    while (j < all.size() && llvm::StringRef(all[j].op) == all[i].op)
      ++j;
    m[all[i].op] = all.slice(i, j - i);
    i = j;
  }
  return m;
}

llvm::ArrayRef<OpSignature> versionsOf(llvm::StringRef op) {
  static const auto index = indexOf(kSignatures);
  auto it = index.find(op);
  return it == index.end() ? llvm::ArrayRef<OpSignature>() : it->second;
}

/// The signature of `op` in `opset`: its newest version at or before it.
const OpSignature *signatureOf(llvm::StringRef op, int64_t opset) {
  const OpSignature *found = nullptr;
  for (const OpSignature &s : versionsOf(op))
    if (s.since <= opset)
      found = &s;
  return found;
}

/// The first opset that defines `op`, or 0 for none.
int firstOpset(llvm::StringRef op) {
  llvm::ArrayRef<OpSignature> v = versionsOf(op);
  return v.empty() ? 0 : v.front().since;
}

std::string range(llvm::StringRef what, const onnx::NodeProto &node, int n,
                  int lo, int hi) {
  return "Node (" + node.name() + ") has " + what.str() + " size " +
         std::to_string(n) + " not in range [min=" + std::to_string(lo) +
         ", max=" + std::to_string(hi) + "].";
}
} // namespace

static std::optional<std::string> checkAgainst(const OpSignature &sig,
                                               const onnx::NodeProto &node);

int64_t dfa::onnximport::newestOpset() { return kNewestOpset; }

int64_t dfa::onnximport::libonnxNewestOpset() {
  const auto &map = onnx::OpSchemaRegistry::DomainToVersionRange::Instance().Map();
  auto it = map.find(onnx::ONNX_DOMAIN);
  return it == map.end() ? 0 : it->second.second;
}

int64_t dfa::onnximport::operatorVersion(llvm::StringRef op, int64_t opset) {
  const OpSignature *s = signatureOf(op, opset);
  return s ? s->since : 0;
}

std::optional<std::string>
dfa::onnximport::checkSignature(const onnx::NodeProto &node, int64_t opset) {
  // An operator of a later opset is not this opset's, whatever dfa makes
  // of it at its own.
  if (int first = firstOpset(node.op_type()); first > opset)
    return "operator " + node.op_type() + " is defined from opset " +
           std::to_string(first) + " on";
  if (opset <= libonnxNewestOpset()) {
    const onnx::OpSchema *schema =
        onnx::OpSchemaRegistry::Schema(node.op_type(), int(opset), "");
    if (!schema)
      return std::nullopt;
    try {
      schema->Verify(node);
    } catch (const std::exception &e) {
      std::string what = e.what();
      if (size_t nl = what.find("\n\n==>"); nl != std::string::npos)
        what.resize(nl);
      return what;
    }
    return std::nullopt;
  }
  const OpSignature *s = signatureOf(node.op_type(), opset);
  if (!s)
    return std::nullopt; // not an operator of the default domain
  return checkAgainst(*s, node);
}

std::optional<std::string>
dfa::onnximport::checkContribSignature(const onnx::NodeProto &node) {
  static const auto index = indexOf(kContribSignatures);
  std::string key = node.domain().empty() || node.domain() == "ai.onnx"
                        ? node.op_type()
                        : node.domain() + "." + node.op_type();
  auto it = index.find(key);
  if (it == index.end())
    return std::nullopt;
  return checkAgainst(it->second.back(), node);
}

static std::optional<std::string> checkAgainst(const OpSignature &sig,
                                               const onnx::NodeProto &node) {
  const OpSignature *s = &sig;
  int ins = node.input_size(), outs = node.output_size();
  if (ins < s->minInputs || ins > s->maxInputs)
    return range("input", node, ins, s->minInputs, s->maxInputs);
  if (outs < s->minOutputs || outs > s->maxOutputs)
    return range("output", node, outs, s->minOutputs, s->maxOutputs);
  llvm::StringRef formal(s->inputs);
  for (int i = 0; i < ins; ++i) {
    char option = formal.empty() ? 'S'
                                 : formal[std::min<size_t>(i, formal.size() - 1)];
    if (option == 'S' && node.input(i).empty())
      return "Input " + std::to_string(i) +
             " is marked single but has an empty string in the graph";
  }
  llvm::ArrayRef<AttrSignature> attrs(s->attrs, s->numAttrs);
  for (const onnx::AttributeProto &a : node.attribute()) {
    const AttrSignature *sig = llvm::find_if(
        attrs, [&](const AttrSignature &x) { return a.name() == x.name; });
    if (sig == attrs.end())
      return "Unrecognized attribute: " + a.name() + " for operator " +
             node.op_type();
    if (a.ref_attr_name().empty() && a.type() != sig->type)
      return "Mismatched attribute type in '" + node.name() + " : " +
             a.name() + "'";
  }
  for (const AttrSignature &x : attrs)
    if (x.required && llvm::none_of(node.attribute(), [&](const auto &a) {
          return a.name() == x.name;
        }))
      return "Required attribute '" + std::string(x.name) + "' is missing.";
  return std::nullopt;
}
