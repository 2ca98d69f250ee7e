//===- SweepTest.cpp - sweep specs, points, fronts --------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "dfa/Sweep/Sweep.h"

#include <catch2/catch.hpp>

using namespace dfa::sweep;

namespace {
Spec spec(const std::string &file, const std::string &text) {
  std::string error;
  std::optional<Spec> s = parseSpec(file, text, error);
  INFO(error);
  REQUIRE(s);
  return *s;
}
} // namespace

TEST_CASE("points vary the last swept key fastest, models and targets outermost",
          "[sweep]") {
  Spec s = spec("s.json", R"({"models": ["a.onnx", "b.onnx"], "targets": ["t1", "t2"],
      "set": {"compute.units": 2},
      "sweep": {"y.k": [1, 2, 3], "x.k": ["p", "q"]}})");
  std::vector<Point> ps = points(s);
  REQUIRE(ps.size() == 2 * 2 * 3 * 2);
  // Keys sort by name: x.k outer, y.k inner; the fixed override first.
  CHECK(ps[0].overrides == std::vector<std::string>{"compute.units=2", "x.k=p", "y.k=1"});
  CHECK(ps[1].overrides == std::vector<std::string>{"compute.units=2", "x.k=p", "y.k=2"});
  CHECK(ps[3].overrides == std::vector<std::string>{"compute.units=2", "x.k=q", "y.k=1"});
  CHECK(ps[6].target == "t2");
  CHECK(ps[12].model == "b.onnx");
  for (size_t i = 0; i < ps.size(); ++i)
    CHECK(ps[i].index == int64_t(i));
}

TEST_CASE("zip takes the i-th value of every key; dims are model dims",
          "[sweep]") {
  Spec s = spec("s.yaml", "models: m.onnx\ntargets: t\ncombine: zip\n"
                          "sweep:\n  a: [1, 2, 3]\ndims:\n  batch: [1, 8, 32]\n");
  std::vector<Point> ps = points(s);
  REQUIRE(ps.size() == 3);
  CHECK(ps[2].overrides == std::vector<std::string>{"a=3"});
  CHECK(ps[2].dims == std::vector<std::string>{"batch=32"});
  llvm::json::Object d = ps[1].describe();
  CHECK(d.getObject("dims")->getInteger("batch") == 8);
  CHECK(d.getObject("overrides")->getInteger("a") == 2);
}

TEST_CASE("ranges: step, count, log scale; whole numbers stay whole", "[sweep]") {
  Spec s = spec("s.json", R"({"models": ["m"], "targets": ["t"], "sweep": {
      "a": {"from": 64, "to": 132, "step": 4},
      "b": {"from": 1e11, "to": 1e12, "count": 2},
      "c": {"from": 1, "to": 1000, "count": 4, "scale": "log"},
      "d": {"from": 0.5, "to": 1.5, "count": 3}}})");
  REQUIRE(s.overrides.size() == 4);
  CHECK(s.overrides[0].values.size() == 18); // 64, 68, ..., 132
  CHECK(s.overrides[0].values.back().getAsInteger() == 132);
  CHECK(s.overrides[1].values[1].getAsInteger() == 1000000000000);
  CHECK(s.overrides[2].values[1].getAsInteger() == 10);
  CHECK(s.overrides[2].values[3].getAsInteger() == 1000);
  CHECK(s.overrides[3].values[1].getAsNumber() == 1.0);
  CHECK(s.overrides[3].values[1].kind() == llvm::json::Value::Number);
}

TEST_CASE("a bad spec names its key", "[sweep]") {
  std::string error;
  auto bad = [&](const std::string &text) {
    error.clear();
    CHECK_FALSE(parseSpec("s.json", text, error));
    return error;
  };
  CHECK(bad(R"({"models": [], "targets": ["t"]})") ==
        "s.json: key 'models': expected at least one");
  CHECK(bad(R"({"models": ["m"], "targets": ["t"], "sweep": {"a": []}})") ==
        "s.json: key 'sweep.a': expected at least one value");
  CHECK(bad(R"({"models": ["m"], "targets": ["t"], "sweep": {"a": {"from": 2, "to": 1, "step": 1}}})") ==
        "s.json: key 'sweep.a': \"to\" is below \"from\"");
  CHECK(bad(R"({"models": ["m"], "targets": ["t"], "sweep": {"a": {"from": 0, "to": 1, "count": 3, "scale": "log"}}})") ==
        "s.json: key 'sweep.a': a log range needs positive \"from\" and \"to\"");
  CHECK(bad(R"({"models": ["m"], "targets": ["t"], "dims": {"batch": [0]}})") ==
        "s.json: key 'dims.batch': expected sizes of at least 1");
  CHECK(bad(R"({"models": ["m"], "targets": ["t"], "sweep": {"a": {"from": 1, "to": 1e9, "step": 1}}})")
            .find("more than 1000000 values") != std::string::npos);
  CHECK(bad(R"({"models": ["m"], "targets": ["t"], "sweep": {"a": {"from": 1, "to": 1000, "step": 1}, "b": {"from": 1, "to": 2000, "step": 1}}})")
            .find("names 2000000 points; at most 1000000") != std::string::npos);
}

TEST_CASE("YAML scalars become JSON numbers, booleans and strings", "[sweep]") {
  std::string error;
  std::optional<llvm::json::Value> v =
      yamlToJson("a: 6e12\nb: true\nc: scalesim-os\nd: '12'\ne: [1, x]\nf: ~\n", error);
  REQUIRE(v);
  const llvm::json::Object &o = *v->getAsObject();
  CHECK(o.getNumber("a") == 6e12);
  CHECK(o.getBoolean("b") == true);
  CHECK(o.getString("c") == "scalesim-os");
  CHECK(o.getString("d") == "12"); // quoted: a string
  CHECK(o.getArray("e")->size() == 2);
  CHECK(o.get("f")->kind() == llvm::json::Value::Null);
  CHECK_FALSE(yamlToJson("a: [1, 2\n", error));
}

TEST_CASE("the Pareto front keeps the points nothing beats in both", "[sweep]") {
  std::vector<std::pair<double, double>> xy = {
      {1, 10}, {2, 5}, {2, 7}, {3, 5}, {4, 1}, {0.5, 20}, {5, 0.5}, {9, 9}};
  std::vector<bool> valid(xy.size(), true);
  valid[6] = false; // no value: not on the front
  std::vector<size_t> front = paretoFront(xy, valid);
  CHECK(front == std::vector<size_t>{5, 0, 1, 4});
  // Ties: the first of equal points only.
  CHECK(paretoFront({{1, 1}, {1, 1}}, {true, true}) == std::vector<size_t>{0});
}

TEST_CASE("results lines round-trip; a cut-off line is not one", "[sweep]") {
  Result r;
  r.index = 3;
  r.point = llvm::json::Object{{"model", "m"}, {"target", "t"}};
  r.metrics["seconds"] = 1.5e-5;
  std::optional<Result> back = parseResult(r.line());
  REQUIRE(back);
  CHECK(back->line() == r.line());
  CHECK_FALSE(parseResult(r.line().substr(0, 20)));
  Result e;
  e.index = 4;
  e.point = r.point;
  e.exitCode = 9;
  e.error = "does not fit";
  CHECK(parseResult(e.line())->error == "does not fit");
  CHECK(csvPathFor("a/b.results.jsonl") == "a/b.results.csv");
  CHECK(csvPathFor("out") == "out.csv");
}
