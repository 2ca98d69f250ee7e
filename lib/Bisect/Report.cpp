//===- Report.cpp - dfa-bisect's verdict, text report and JSON -------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "dfa/Bisect/Bisect.h"

#include "llvm/Support/FormatVariadic.h"

#include <cmath>

using namespace dfa;
using namespace dfa::bisect;

namespace {

std::string typeString(const Comparison &c) {
  std::string s = c.dtype + "[";
  for (size_t i = 0; i < c.shape.size(); ++i)
    s += (i ? "x" : "") + std::to_string(c.shape[i]);
  return s + "]";
}

std::string summary(const Comparison &c) {
  const Metrics &m = c.metrics;
  std::string s = llvm::formatv("{0}/{1} over budget", m.bad.size(), m.elements).str();
  if (m.maxAbsIndex >= 0)
    s += "; worst at " + indexString(m.maxAbsIndex, c.shape) + ": got " +
         shortNumber(m.worstGot) + ", expected " + shortNumber(m.worstWant);
  if (std::isfinite(m.maxUlp) && m.maxUlp > 0)
    s += "; " + shortNumber(m.maxUlp) + " ulps";
  if (c.pattern.kind != "none")
    s += "; pattern " + c.pattern.kind;
  return s;
}

double jsonNumber(double x) { return std::isfinite(x) ? x : 1e308; }

void metricsJson(llvm::json::OStream &j, const Comparison &c) {
  const Metrics &m = c.metrics;
  j.attribute("name", c.name);
  j.attribute("op", c.op);
  j.attribute("class", className(c.cls));
  j.attribute("dtype", c.dtype);
  j.attribute("stored_format", c.storedFormat);
  j.attributeArray("shape", [&] {
    for (int64_t d : c.shape)
      j.value(d);
  });
  j.attribute("failed", c.failed());
  j.attributeObject("metrics", [&] {
    j.attribute("elements", m.elements);
    j.attribute("over_budget", int64_t(m.bad.size()));
    j.attributeArray("first_bad", [&] {
      for (size_t i = 0; i < std::min<size_t>(16, m.bad.size()); ++i)
        j.value(indexString(m.bad[i], c.shape));
    });
    j.attribute("bit_exact", m.bitExact);
    j.attribute("max_abs", jsonNumber(m.maxAbs));
    j.attribute("worst_got", jsonNumber(m.worstGot));
    j.attribute("worst_expected", jsonNumber(m.worstWant));
    j.attribute("max_abs_index", m.maxAbsIndex >= 0
                                     ? llvm::json::Value(indexString(m.maxAbsIndex, c.shape))
                                     : llvm::json::Value(nullptr));
    j.attribute("max_rel", jsonNumber(m.maxRel));
    j.attribute("max_ulp", jsonNumber(m.maxUlp));
    j.attribute("ulp_p50", jsonNumber(m.ulpP50));
    j.attribute("ulp_p99", jsonNumber(m.ulpP99));
    j.attributeObject("ulp_histogram", [&] {
      const char *names[] = {"0", "1", "2", "3-10", "11-100", ">100"};
      for (int i = 0; i < 6; ++i)
        j.attribute(names[i], m.ulpHistogram[i]);
    });
    j.attribute("rmse", jsonNumber(m.rmse));
    j.attribute("rmse_vs_fp64", jsonNumber(m.rmseVsOracle));
    j.attribute("reference_rmse_vs_fp64", jsonNumber(m.referenceRmseVsOracle));
    j.attribute("cosine", jsonNumber(m.cosine));
    j.attribute("nan_mismatches", m.nanMismatches);
    j.attribute("inf_mismatches", m.infMismatches);
    j.attribute("sign_flips", m.signFlips);
    j.attribute("zeros_where_nonzero", m.zerosWhereNonzero);
    j.attribute("gross_errors", m.grossErrors);
    j.attribute("worst_over_budget", jsonNumber(m.worstRatio));
  });
  j.attributeObject("pattern", [&] {
    j.attribute("kind", c.pattern.kind);
    j.attribute("where", c.pattern.where);
  });
}

} // namespace

std::string dfa::bisect::verdictLine(const Findings &f, const Classification &c) {
  if (c.verdict == "pass")
    return llvm::formatv("PASS {0} on {1}: {2} output(s) within the {3} "
                         "budget",
                         f.model, f.target, f.outputs.size(), f.profile)
        .str();
  std::string what;
  if (!f.failure.empty()) {
    what = f.failure + ": " + f.failureMessage;
  } else {
    const Comparison *at = f.node ? &*f.node : nullptr;
    if (!at)
      for (const Comparison &o : f.outputs)
        if (o.failed()) {
          at = &o;
          break;
        }
    if (at)
      what = at->name + " " + typeString(*at) + ": " + summary(*at);
  }
  std::string where = f.stage.empty() ? "" : ", stage " + f.stage;
  if (f.segment >= 0)
    where = (f.boundary ? ", host link to segment " : ", segment ") +
            std::to_string(f.segment) + where;
  if (!f.pass.empty())
    where += " (" + f.pass + ")";
  return llvm::formatv("FAIL {0} on {1}: {2}{3} -> layer {4} {5} ({6:f2}) "
                       "[exit {7}]",
                       f.model, f.target, what, where, c.layer,
                       layerName(c.layer), c.confidence, int(c.exitCode))
      .str();
}

void dfa::bisect::printReport(const Findings &f, const Classification &c,
                              llvm::raw_ostream &os) {
  os << "dfa-bisect " << f.model << " on " << f.target << " (" << f.profile
     << " profile" << (f.inject.empty() ? "" : ", --inject " + f.inject)
     << ")\n";
  for (const Comparison &o : f.outputs)
    os << "  output '" << o.name << "' " << typeString(o) << ": "
       << (o.failed() ? summary(o) : std::string("ok")) << "\n";
  if (f.segments > 0)
    os << "  the graph breaks: run in " << f.segments << " device segment"
       << (f.segments == 1 ? "" : "s")
       << (f.segment >= 0 ? ", findings in segment " + std::to_string(f.segment)
                          : std::string())
       << "\n";
  if (f.boundary)
    os << "  host link: '" << f.boundary->value << "' arrived "
       << f.boundary->kind << " (" << f.boundary->differing << "/"
       << f.boundary->elements << " elements differ)\n";
  if (!f.ladder.empty()) {
    os << "  stages:";
    for (const Rung &r : f.ladder)
      os << " " << r.stage << ":" << r.status;
    os << "\n";
  }
  if (!f.nodes.empty()) {
    size_t wrong = 0;
    std::string names;
    for (const Comparison &n : f.nodes)
      if (n.failed() || n.pattern.kind == "did not run") {
        if (++wrong <= 8)
          names += (names.empty() ? "" : ", ") + n.name;
      }
    os << "  nodes: " << f.nodes.size() << " compared in graph order, "
       << wrong << " wrong" << (names.empty() ? "" : ": " + names)
       << (wrong > 8 ? ", ..." : "") << "\n";
  }
  if (f.node)
    os << "  first diverging node: '" << f.node->name << "' (" << f.node->op
       << (f.kernel.empty() ? "" : ", kernel '" + f.kernel + "'") << ") "
       << typeString(*f.node) << ": " << summary(*f.node) << "\n";
  if (c.layer) {
    os << "  layer " << c.layer << " (" << layerName(c.layer) << "), confidence "
       << llvm::formatv("{0:f2}", c.confidence) << "\n";
    for (const std::string &e : c.evidence)
      os << "    - " << e << "\n";
    if (c.runnerUp)
      os << "  runner-up: layer " << c.runnerUp << " ("
         << layerName(c.runnerUp) << "): not it, " << c.runnerUpWhyNot << "\n";
  }
  if (!f.reproducer.empty())
    os << "  reduced: " << f.reducedFrom << " nodes to " << f.reducedTo
       << (f.shapesReduced ? ", shapes shrunk" : "") << ", pipeline "
       << f.pipeline << " (" << f.reduceChecks
       << " checks); reproducer: " << f.reproducer << "/run.sh\n";
  os << verdictLine(f, c) << "\n";
}

void dfa::bisect::writeJson(const Findings &f, const Classification &c,
                            llvm::raw_ostream &os) {
  llvm::json::OStream j(os, 2);
  j.object([&] {
    j.attribute("schema", "dfa.bisect/1");
    j.attribute("model", f.model);
    j.attribute("target", f.target);
    j.attribute("overrides", llvm::json::Object(f.overrides));
    j.attribute("profile", f.profile);
    j.attribute("inject", f.inject.empty() ? llvm::json::Value(nullptr)
                                           : llvm::json::Value(f.inject));
    j.attribute("verdict", c.verdict);
    j.attribute("exit_code", int(c.exitCode));
    j.attribute("summary", verdictLine(f, c));
    if (!f.failure.empty())
      j.attributeObject("failure", [&] {
        j.attribute("kind", f.failure);
        j.attribute("stage", f.failureStage);
        j.attribute("message", f.failureMessage);
      });
    j.attributeArray("outputs", [&] {
      for (const Comparison &o : f.outputs)
        j.object([&] { metricsJson(j, o); });
    });
    if (f.segments > 0)
      j.attributeObject("segments", [&] {
        j.attribute("device_segments", int64_t(f.segments));
        j.attribute("segment", f.segment >= 0 ? llvm::json::Value(f.segment)
                                              : llvm::json::Value(nullptr));
        j.attribute("host_divergence", f.hostDivergence);
        if (f.boundary)
          j.attributeObject("boundary", [&] {
            j.attribute("value", f.boundary->value);
            j.attribute("kind", f.boundary->kind);
            j.attribute("elements", f.boundary->elements);
            j.attribute("differing", f.boundary->differing);
            j.attribute("evidence", f.boundary->evidence);
          });
      });
    j.attributeArray("stages", [&] {
      for (const Rung &r : f.ladder)
        j.object([&] {
          j.attribute("stage", r.stage);
          j.attribute("status", r.status);
          if (!r.detail.empty())
            j.attribute("detail", r.detail);
        });
    });
    j.attribute("first_stage", f.stage.empty() ? llvm::json::Value(nullptr)
                                               : llvm::json::Value(f.stage));
    j.attribute("pass", f.pass.empty() ? llvm::json::Value(nullptr)
                                       : llvm::json::Value(f.pass));
    if (f.node)
      j.attributeObject("first_node", [&] {
        metricsJson(j, *f.node);
        j.attribute("kernel", f.kernel);
        j.attribute("prefix_runs", f.prefixRuns);
        j.attribute("isolated_fails", f.isolatedFails
                                          ? llvm::json::Value(*f.isolatedFails)
                                          : llvm::json::Value(nullptr));
      });
    if (!f.nodes.empty())
      j.attributeArray("nodes", [&] {
        for (const Comparison &n : f.nodes)
          j.object([&] {
            j.attribute("name", n.name);
            j.attribute("op", n.op);
            j.attribute("failed", n.failed() || n.pattern.kind == "did not run");
            j.attribute("over_budget", int64_t(n.metrics.bad.size()));
            j.attribute("max_ulp", jsonNumber(n.metrics.maxUlp));
            j.attribute("pattern", n.pattern.kind);
          });
      });
    j.attributeObject("probes", [&] {
      auto opt = [&](const char *k, std::optional<bool> v) {
        j.attribute(k, v ? llvm::json::Value(*v) : llvm::json::Value(nullptr));
      };
      opt("f32_accumulator_fixes", f.f32AccumulatorFixes);
      opt("partial_sums_fixes", f.partialSumsFixes);
      j.attribute("swapped_operand", f.swappedOperand
                                         ? llvm::json::Value(*f.swappedOperand)
                                         : llvm::json::Value(nullptr));
      opt("reference_matches_expected", f.referenceMatchesExpected);
      j.attribute("nondeterministic", f.nondeterministic);
    });
    if (!f.reproducer.empty())
      j.attributeObject("reduction", [&] {
        j.attribute("nodes_before", f.reducedFrom);
        j.attribute("nodes_after", f.reducedTo);
        j.attribute("shapes_reduced", f.shapesReduced);
        j.attribute("pipeline", f.pipeline);
        j.attribute("checks", f.reduceChecks);
        j.attribute("reproducer", f.reproducer);
      });
    j.attributeObject("classification", [&] {
      j.attribute("layer", c.layer);
      j.attribute("name", layerName(c.layer));
      j.attribute("confidence", c.confidence);
      j.attributeArray("evidence", [&] {
        for (const std::string &e : c.evidence)
          j.value(e);
      });
      j.attributeObject("runner_up", [&] {
        j.attribute("layer", c.runnerUp);
        j.attribute("name", layerName(c.runnerUp));
        j.attribute("why_not", c.runnerUpWhyNot);
      });
    });
  });
  os << "\n";
}
