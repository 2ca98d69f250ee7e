//===- OverridesTest.cpp - --set KEY=VALUE on descriptions ------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "dfa/Target/Target.h"

#include <catch2/catch.hpp>

using namespace dfa::target;
namespace json = llvm::json;

namespace {
json::Value description() {
  return json::parse(R"({
    "name": "m", "compute": {"units": {"value": 4, "source": "spec"},
                             "systolic_model": "scalesim-ws",
                             "tile": [8, 128], "flag": true},
    "memory": [{"name": "HBM", "bandwidth_bytes_per_s": {"value": 1e12, "source": "spec"}},
               {"name": "SRAM", "capacity_bytes": {"value": 1024, "source": "spec"}}]})")
      .get();
}

Override parsed(const std::string &kv) {
  std::string error;
  std::optional<Override> o = parseOverride(kv, error);
  INFO(error);
  REQUIRE(o);
  return *o;
}

std::string applied(json::Value &d, const std::vector<std::string> &kvs) {
  std::vector<Override> os;
  for (const std::string &kv : kvs)
    os.push_back(parsed(kv));
  std::string error;
  return applyOverrides(d, os, error) ? std::string() : error;
}
} // namespace

TEST_CASE("an override's value is JSON where it parses, else a string",
          "[target][overrides]") {
  CHECK(parsed("a.b=6e12").value.getAsNumber() == 6e12);
  CHECK(parsed("a=true").value.getAsBoolean() == true);
  CHECK(parsed("a=[1, 2]").value.getAsArray()->size() == 2);
  CHECK(parsed("a=scalesim-os").value.getAsString() == "scalesim-os");
  CHECK(parsed("a=\"x=y\"").value.getAsString() == "x=y");
  CHECK(parsed("a=x=y").value.getAsString() == "x=y"); // the first '=' splits
  CHECK(parsed(" a.b =1").key == "a.b");
  CHECK(parsed("a=").value.getAsString() == "");
  std::string error;
  CHECK_FALSE(parseOverride("noequals", error));
  CHECK(error.find("expected KEY=VALUE") != std::string::npos);
  CHECK_FALSE(parseOverride("=3", error));
}

TEST_CASE("overrides set existing keys of their type", "[target][overrides]") {
  json::Value d = description();
  CHECK(applied(d, {"compute.units=64", "memory.HBM.bandwidth_bytes_per_s=2e12",
                    "memory.1.capacity_bytes=2048",
                    "compute.systolic_model=scalesim-os",
                    "compute.tile=[16, 128]", "compute.flag=false"}) == "");
  const json::Object &c = *d.getAsObject()->getObject("compute");
  CHECK(c.getObject("units")->getNumber("value") == 64);
  // A sourced number records where the new value came from.
  CHECK(c.getObject("units")->getString("source") ==
        "override: --set compute.units=64");
  CHECK(c.getString("systolic_model") == "scalesim-os");
  CHECK(c.getArray("tile")->front().getAsInteger() == 16);
  CHECK(c.getBoolean("flag") == false);
  const json::Array &mem = *d.getAsObject()->getArray("memory");
  CHECK(mem[0].getAsObject()->getObject("bandwidth_bytes_per_s")->getNumber("value") == 2e12);
  CHECK(mem[1].getAsObject()->getObject("capacity_bytes")->getNumber("value") == 2048);
  // Later overrides of one key win.
  CHECK(applied(d, {"compute.units=2", "compute.units=8"}) == "");
  CHECK(d.getAsObject()->getObject("compute")->getObject("units")->getNumber("value") == 8);
}

TEST_CASE("a bad override names its key", "[target][overrides]") {
  json::Value d = description();
  CHECK(applied(d, {"compute.unit=4"}) ==
        "--set compute.unit=4: the description has no 'unit' in 'compute' "
        "(it has: flag, systolic_model, tile, units)");
  CHECK(applied(d, {"memory.DRAM.capacity_bytes=1"}) ==
        "--set memory.DRAM.capacity_bytes=1: the description has no 'DRAM' "
        "in 'memory' (it has: HBM, SRAM)");
  CHECK(applied(d, {"memory.7.capacity_bytes=1"}).find("no '7'") != std::string::npos);
  CHECK(applied(d, {"compute.units=many"}) == "--set compute.units=many: expected a number");
  CHECK(applied(d, {"compute.systolic_model=3"}) ==
        "--set compute.systolic_model=3: expected a string");
  CHECK(applied(d, {"compute.tile=8"}) == "--set compute.tile=8: expected an array");
  CHECK(applied(d, {"name.x=1"}) == "--set name.x=1: 'name' is a string, not an object");
  CHECK(applied(d, {"compute.=1"}) == "--set compute.=1: an empty key in the path");
  CHECK(applied(d, {"nothing=1"}).find("(it has: compute, memory, name)") !=
        std::string::npos);
}

TEST_CASE("overrides are recorded as given", "[target][overrides]") {
  std::vector<Override> os = {parsed("compute.units=64"),
                              parsed("memory.HBM.bandwidth_bytes_per_s=6e12")};
  CHECK(overridesText(os) ==
        "compute.units=64, memory.HBM.bandwidth_bytes_per_s=6e12");
  std::string out;
  llvm::raw_string_ostream s(out);
  json::OStream j(s);
  j.object([&] { writeOverrides(j, os); });
  s.flush();
  CHECK(out == R"({"overrides":{"compute.units":64,"memory.HBM.bandwidth_bytes_per_s":6000000000000}})");
}
