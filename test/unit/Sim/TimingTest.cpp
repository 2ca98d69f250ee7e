//===- TimingTest.cpp - the discrete-event simulation ----------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "dfa/Driver/Driver.h"
#include "dfa/Sim/Sim.h"
#include "dfa/Target/Cost.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"

#include <catch2/catch.hpp>

using namespace mlir;
using namespace dfa;

namespace {
/// Two copies of `n` f32 from HBM into VMEM on DMA engines `e0` and `e1`.
std::string twoCopies(int64_t n, int e0, int e1) {
  std::string t = "tensor<" + std::to_string(n) + "xf32>";
  std::string hbm = "!sched.buffer<\"HBM\", " + t + ">";
  std::string vmem = "!sched.buffer<\"VMEM\", " + t + ">";
  std::string bytes = std::to_string(4 * n);
  auto copy = [&](const char *dst, const char *src, int e) {
    return std::string("  %d") + dst + " = sched.dma %" + src + " to %" + dst +
           " {bytes = " + bytes + " : i64, engine = " + std::to_string(e) +
           " : i64, dst_offsets = array<i64: 0>, sizes = array<i64: " +
           std::to_string(n) + ">, src_offsets = array<i64: 0>} : " + hbm +
           " -> " + vmem + "\n";
  };
  return "sched.program @main target <name = \"tpu-v4\", static_plan = false, "
         "units = 2, levels = {HBM = 34359738368 : i64, VMEM = 16777216 : i64}> {\n"
         "^bb0(%x: " + hbm + ", %y: " + hbm + "):\n"
         "  %a = sched.alloc {offset = 0 : i64, size = " + bytes +
         " : i64} : " + vmem + "\n"
         "  %b = sched.alloc {offset = " + bytes + " : i64, size = " + bytes +
         " : i64} : " + vmem + "\n" +
         copy("a", "x", e0) + copy("b", "y", e1) + "  sched.return\n}\n";
}

struct Run {
  std::unique_ptr<MLIRContext> ctx = driver::createContext();
  target::Target t;
  sim::Result r;
  Status status;

  explicit Run(const std::string &text) {
    std::string err;
    REQUIRE(target::Registry().find("tpu-v4", t, err) == Status::Ok);
    OwningOpRef<ModuleOp> m = parseSourceString<ModuleOp>(text, ctx.get());
    REQUIRE(m);
    auto program = *m->getOps<sched::ProgramOp>().begin();
    sim::Options o;
    o.values = false;
    status = sim::simulate(program, t, {}, o, r);
  }
};
} // namespace

TEST_CASE("DMAs on one memory share its bandwidth", "[sim][timing]") {
  const int64_t n = 1 << 20; // 4 MiB each
  Run apart(twoCopies(n, 0, 1));
  REQUIRE(apart.status == Status::Ok);
  REQUIRE(apart.r.ops.size() == 2);
  const target::MemoryLevel *hbm = apart.t.level("HBM");
  REQUIRE(hbm);
  double fixed = (apart.t.dmaSetupNs.value + hbm->latencyNs.value) * 1e-9;
  double alone = 4.0 * n / hbm->bandwidthBytesPerS.value;
  // Two engines at once: each gets half the bandwidth, both end together.
  for (const sim::OpRecord &op : apart.r.ops) {
    REQUIRE(op.start == 0);
    REQUIRE(op.end == Approx(fixed + 2 * alone).epsilon(1e-9));
  }
  REQUIRE(apart.r.seconds == Approx(fixed + 2 * alone).epsilon(1e-9));
  // One engine: the second waits for the first, each at full bandwidth.
  Run queued(twoCopies(n, 0, 0));
  REQUIRE(queued.status == Status::Ok);
  REQUIRE(queued.r.ops[0].end == Approx(fixed + alone).epsilon(1e-9));
  REQUIRE(queued.r.ops[1].start == Approx(fixed + alone).epsilon(1e-9));
  REQUIRE(queued.r.seconds == Approx(2 * (fixed + alone)).epsilon(1e-9));
  // Memory: both VMEM buffers live at the end.
  auto vmem = llvm::find_if(apart.r.memory, [](const sim::Occupancy &m) {
    return m.level == "VMEM";
  });
  REQUIRE(vmem != apart.r.memory.end());
  REQUIRE(vmem->peakBytes == 2 * 4 * n);
}

namespace {
/// Two compute ops on disjoint units, the second waiting for the first;
/// each `rows` rows (0: not streamed) and 1000 cycles.
std::string twoStages(int64_t rows0, int64_t rows1) {
  auto rows = [](int64_t r) {
    return r ? ", rows = " + std::to_string(r) + " : i64" : std::string();
  };
  std::string t = "tensor<4xf32>";
  std::string buf = "!sched.buffer<\"VMEM\", " + t + ">";
  return "sched.program @main target <name = \"tpu-v4\", static_plan = true, "
         "units = 2, levels = {HBM = 34359738368 : i64, VMEM = 16777216 : i64}> {\n"
         "  %a = sched.alloc {offset = 0 : i64, size = 16 : i64} : " + buf + "\n"
         "  %b = sched.alloc {offset = 16 : i64, size = 16 : i64} : " + buf + "\n"
         "  %t0 = sched.compute \"first\" outs(%a : " + buf + ") attributes {cycles = 1000 : i64, start = 0 : i64, "
         "unit_begin = 0 : i64, unit_end = 1 : i64" + rows(rows0) + "} {\n"
         "    %c = graph.constant dense<1.0> : " + t + "\n    sched.yield %c : " + t + "\n  }\n"
         "  %t1 = sched.compute \"second\" ins(%a : " + buf + ") outs(%b : " + buf +
         ") after(%t0) attributes {cycles = 1000 : i64, start = 100 : i64, unit_begin = 1 : i64, unit_end = 2 : i64" +
         rows(rows1) + "} {\n"
         "  ^bb0(%x: " + t + "):\n    sched.yield %x : " + t + "\n  }\n"
         "  sched.return\n}\n";
}
} // namespace

TEST_CASE("streamed ops overlap by all but one slice", "[sim][timing]") {
  // Not streamed: one after the other.
  Run plain(twoStages(0, 0));
  REQUIRE(plain.status == Status::Ok);
  double cycle = 1.0 / plain.t.clockHz.value;
  REQUIRE(plain.r.seconds == Approx(2000 * cycle));
  // Both stream 10 rows: the second starts after the first's first slice
  // and ends one of its own slices after the first ends.
  Run streamed(twoStages(10, 10));
  REQUIRE(streamed.status == Status::Ok);
  REQUIRE(streamed.r.ops[1].start == Approx(100 * cycle));
  REQUIRE(streamed.r.ops[1].end == Approx(1100 * cycle));
  REQUIRE(streamed.r.ops[1].start ==
          Approx(target::streamStart(0, 1000 * cycle, 10)));
  REQUIRE(streamed.r.seconds ==
          Approx(target::streamEnd(1000 * cycle, 1000 * cycle, 10)));
  // Only one side streams: no overlap.
  Run half(twoStages(10, 0));
  REQUIRE(half.status == Status::Ok);
  REQUIRE(half.r.seconds == Approx(2000 * cycle));
}

namespace {
/// The critical path's steps as (op, start, end, via), in time order.
using Step = std::tuple<int32_t, double, double, sim::Wait>;
std::vector<Step> pathOf(const sim::Result &r) {
  std::vector<Step> out;
  for (const sim::PathStep &s : r.criticalPath)
    out.push_back({s.op, s.start, s.end, s.via});
  return out;
}
} // namespace

TEST_CASE("the critical path follows what each op waited for last", "[sim][critical]") {
  const int64_t n = 1 << 20;
  // One engine: the second copy waited for it, not for data.
  Run queued(twoCopies(n, 0, 0));
  REQUIRE(queued.status == Status::Ok);
  const sim::Result &q = queued.r;
  REQUIRE(q.ops[1].wait == sim::Wait::Engine);
  REQUIRE(q.ops[1].cause == 0);
  REQUIRE(q.ops[0].wait == sim::Wait::None);
  REQUIRE(pathOf(q) == std::vector<Step>{{0, 0, q.ops[0].end, sim::Wait::None},
                                        {1, q.ops[0].end, q.seconds, sim::Wait::Engine}});
  REQUIRE(q.ops[0].slack == 0);
  REQUIRE(q.ops[1].slack == 0);
  // Two engines: they end together; the path is the one that ends last,
  // and the other could not have ended later either.
  Run apart(twoCopies(n, 0, 1));
  REQUIRE(apart.r.criticalPath.size() == 1);
  REQUIRE(apart.r.criticalPath[0].op == 1);
  REQUIRE(apart.r.ops[0].slack == Approx(0).margin(1e-15));

  // Data: the second op waited for the first one's token.
  Run plain(twoStages(0, 0));
  double cycle = 1.0 / plain.t.clockHz.value;
  REQUIRE(plain.r.ops[1].wait == sim::Wait::Data);
  REQUIRE(pathOf(plain.r) ==
          std::vector<Step>{{0, 0, plain.r.ops[0].end, sim::Wait::None},
                            {1, plain.r.ops[0].end, plain.r.seconds, sim::Wait::Data}});
  REQUIRE(plain.r.seconds == Approx(2000 * cycle));
  // Streamed: the first op is on the path up to its first slice only.
  Run streamed(twoStages(10, 10));
  const sim::Result &s = streamed.r;
  REQUIRE(s.ops[1].wait == sim::Wait::Stream);
  REQUIRE(s.criticalPath.size() == 2);
  REQUIRE(s.criticalPath[0].op == 0);
  REQUIRE(s.criticalPath[0].end == Approx(100 * cycle));
  REQUIRE(s.criticalPath[1].op == 1);
  REQUIRE(s.criticalPath[1].via == sim::Wait::Stream);
  REQUIRE(s.criticalPath[1].end == Approx(s.seconds));
  REQUIRE(s.ops[0].slack == Approx(0).margin(1e-15));
  REQUIRE(s.ops[1].slack == Approx(0).margin(1e-15));
  // The steps tile the makespan.
  double at = 0;
  for (const sim::PathStep &p : s.criticalPath) {
    REQUIRE(p.start == Approx(at));
    at = p.end;
  }
  REQUIRE(at == Approx(s.seconds));
}
