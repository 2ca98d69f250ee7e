//===- ONNXEinsum.cpp - ONNX Einsum ----------------------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// Einsum through the graph dialect's einsum builder (transposes, reshapes
/// and a matmul), which torch.einsum's FX import shares.
///
//===----------------------------------------------------------------------===//

#include "Importer.h"

using namespace mlir;
using namespace dfa;
using namespace dfa::graph;
using namespace dfa::onnximport;

namespace {
LogicalResult convertEinsum(NodeContext &c, SmallVectorImpl<Value> &r) {
  BuildError err;
  auto v = buildEinsum(c.b, c.loc, c.strAttr("equation", ""), c.inputs, err);
  if (failed(v)) {
    (err.unsupported ? c.unsupported() : c.error()) << err.message;
    return failure();
  }
  r.push_back(*v);
  return success();
}
} // namespace

void dfa::onnximport::addEinsumConverter(llvm::StringMap<Converter> &t) {
  t["Einsum"] = convertEinsum;
}
