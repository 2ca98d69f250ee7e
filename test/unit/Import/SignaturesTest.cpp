//===- SignaturesTest.cpp - ONNX node checks beyond libonnx's opsets ------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "mlir/IR/MLIRContext.h"

#include <catch2/catch.hpp>

using namespace dfa;
using namespace dfa::onnximport;

namespace {
onnx::NodeProto node(const std::string &op, std::vector<std::string> ins,
                     std::vector<std::string> outs) {
  onnx::NodeProto n;
  n.set_op_type(op);
  n.set_name(op + "_0");
  for (auto &i : ins)
    n.add_input(i);
  for (auto &o : outs)
    n.add_output(o);
  return n;
}

void addInt(onnx::NodeProto &n, const std::string &name, int64_t v) {
  auto *a = n.add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::INT);
  a->set_i(v);
}
} // namespace

TEST_CASE("the newest opset comes from the generated table, past libonnx's",
          "[import]") {
  CHECK(libonnxNewestOpset() >= 17);
  CHECK(newestOpset() > libonnxNewestOpset());
}

TEST_CASE("nodes of opsets libonnx knows are checked by its schemas",
          "[import]") {
  // ReduceMean-13 takes its axes as an attribute.
  onnx::NodeProto n = node("ReduceMean", {"x"}, {"y"});
  auto *a = n.add_attribute();
  a->set_name("axes");
  a->set_type(onnx::AttributeProto::INTS);
  a->add_ints(1);
  CHECK_FALSE(checkSignature(n, 17));
  // ReduceMean-18 takes them as an input: the table refuses the attribute.
  std::optional<std::string> what = checkSignature(n, 18);
  REQUIRE(what);
  CHECK(*what == "Unrecognized attribute: axes for operator ReduceMean");
}

TEST_CASE("the table checks counts, empty inputs and attributes", "[import]") {
  int64_t opset = newestOpset();
  onnx::NodeProto relu = node("Relu", {"a", "b"}, {"y"});
  std::optional<std::string> what = checkSignature(relu, opset);
  REQUIRE(what);
  CHECK(*what == "Node (Relu_0) has input size 2 not in range [min=1, max=1].");

  onnx::NodeProto cast = node("Cast", {"x"}, {"y"});
  what = checkSignature(cast, opset);
  REQUIRE(what);
  CHECK(*what == "Required attribute 'to' is missing.");
  addInt(cast, "to", 1);
  CHECK_FALSE(checkSignature(cast, opset));

  // The attribute's type must match.
  onnx::NodeProto badType = node("Cast", {"x"}, {"y"});
  auto *a = badType.add_attribute();
  a->set_name("to");
  a->set_type(onnx::AttributeProto::FLOAT);
  a->set_f(1);
  what = checkSignature(badType, opset);
  REQUIRE(what);
  CHECK(*what == "Mismatched attribute type in 'Cast_0 : to'");

  // Split's data input is single: it may not be left empty.
  onnx::NodeProto split = node("Split", {""}, {"a", "b"});
  what = checkSignature(split, opset);
  REQUIRE(what);
  CHECK(what->find("marked single") != std::string::npos);

  // An operator used before the opset that defines it is refused, on
  // libonnx's opsets too.
  onnx::NodeProto att = node("Attention", {"q", "k", "v"}, {"y"});
  what = checkSignature(att, 17);
  REQUIRE(what);
  CHECK(*what == "operator Attention is defined from opset 23 on");
  CHECK_FALSE(checkSignature(att, 23));

  // An operator of no ONNX opset is for the converter table to refuse.
  CHECK_FALSE(checkSignature(node("NoSuchOp", {"x"}, {"y"}), opset));
}

TEST_CASE("an attribute no converter step reads is reported", "[import]") {
  mlir::MLIRContext ctx;
  mlir::OpBuilder b(&ctx);
  Status status = Status::Ok;
  onnx::NodeProto n = node("Op", {}, {"y"});
  addInt(n, "read", 1);
  addInt(n, "hint", 2);
  NodeContext c(n, b.getUnknownLoc(), b, newestOpset(), {}, status, 0);
  CHECK(c.unreadAttr()->name() == "read");
  CHECK(c.intAttr("read", 0) == 1);
  REQUIRE(c.unreadAttr());
  CHECK(c.unreadAttr()->name() == "hint");
  c.ignoreAttrs({"hint"});
  CHECK(c.unreadAttr() == nullptr);
}
