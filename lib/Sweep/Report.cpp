//===- Report.cpp - a sweep's self-contained HTML report -------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// One HTML file, nothing fetched: the Pareto front as an inline SVG drawn
// here, the sensitivity of time to each swept key as inline SVG bars, and
// the table, which a few lines of script sort and filter (the rows are in
// the page, so it reads without script too).
//
//===----------------------------------------------------------------------===//

#include "dfa/Support/Text.h"
#include "dfa/Sweep/Sweep.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <set>

using namespace dfa;
using namespace dfa::sweep;
namespace json = llvm::json;

std::vector<size_t>
dfa::sweep::paretoFront(const std::vector<std::pair<double, double>> &xy,
                        const std::vector<bool> &valid) {
  std::vector<size_t> order;
  for (size_t i = 0; i < xy.size(); ++i)
    if (valid[i])
      order.push_back(i);
  // By x, then y, then index: a sweep keeps the best y seen so far.
  llvm::stable_sort(order, [&](size_t a, size_t b) {
    if (xy[a].first != xy[b].first)
      return xy[a].first < xy[b].first;
    return xy[a].second < xy[b].second;
  });
  std::vector<size_t> front;
  double best = INFINITY;
  for (size_t i : order)
    if (xy[i].second < best) {
      front.push_back(i);
      best = xy[i].second;
    }
  return front;
}

namespace {
std::string fmt(double v) {
  if (v == 0)
    return "0";
  std::string s;
  llvm::raw_string_ostream os(s);
  double a = std::fabs(v);
  if (a >= 1e4 || a < 1e-2)
    os << llvm::format("%.3g", v);
  else
    os << llvm::format("%.4g", v);
  return s;
}

/// A point's value for a metric, a swept key (an override's key or
/// `dims.NAME`), when it is a number.
std::optional<double> valueOf(const Result &r, llvm::StringRef key) {
  auto it = r.metrics.find(key.str());
  if (it != r.metrics.end())
    return it->second;
  if (key.consume_front("dims.")) {
    if (const json::Object *d = r.point.getObject("dims"))
      if (const json::Value *v = d->get(key))
        return v->getAsNumber();
    return std::nullopt;
  }
  if (const json::Object *o = r.point.getObject("overrides"))
    if (const json::Value *v = o->get(key))
      return v->getAsNumber();
  return std::nullopt;
}

/// The keys a sweep varies: overrides and dims with more than one value.
std::vector<std::string> sweptKeys(const std::vector<Result> &results) {
  std::map<std::string, std::set<std::string>> seen;
  for (const Result &r : results) {
    if (const json::Object *o = r.point.getObject("overrides"))
      for (const auto &kv : *o)
        seen[kv.first.str()].insert(valueText(kv.second));
    if (const json::Object *d = r.point.getObject("dims"))
      for (const auto &kv : *d)
        seen["dims." + kv.first.str()].insert(valueText(kv.second));
  }
  std::vector<std::string> keys;
  for (auto &[k, vals] : seen)
    if (vals.size() > 1)
      keys.push_back(k);
  return keys;
}

/// An SVG scatter of y over x (log axes when a side spans over 100x), the
/// front joined and marked.
void scatter(llvm::raw_ostream &os, const std::vector<Result> &results,
             const std::vector<std::pair<double, double>> &xy,
             const std::vector<bool> &valid, const std::vector<size_t> &front,
             llvm::StringRef xName, llvm::StringRef yName) {
  const double W = 660, H = 400, L = 70, R = 44, T = 20, B = 50;
  double x0 = INFINITY, x1 = -INFINITY, y0 = INFINITY, y1 = -INFINITY;
  for (size_t i = 0; i < xy.size(); ++i)
    if (valid[i]) {
      x0 = std::min(x0, xy[i].first), x1 = std::max(x1, xy[i].first);
      y0 = std::min(y0, xy[i].second), y1 = std::max(y1, xy[i].second);
    }
  bool logX = x0 > 0 && x1 / x0 > 100, logY = y0 > 0 && y1 / y0 > 100;
  auto tr = [](double v, bool lg) { return lg ? std::log10(v) : v; };
  double a0 = tr(x0, logX), a1 = tr(x1, logX), b0 = tr(y0, logY), b1 = tr(y1, logY);
  if (a1 == a0)
    a0 -= 0.5, a1 += 0.5;
  if (b1 == b0)
    b0 -= 0.5, b1 += 0.5;
  auto px = [&](double v) { return L + (tr(v, logX) - a0) / (a1 - a0) * (W - L - R); };
  auto py = [&](double v) { return H - B - (tr(v, logY) - b0) / (b1 - b0) * (H - T - B); };
  os << "<svg id=\"pareto\" xmlns=\"http://www.w3.org/2000/svg\" width=\"" << W
     << "\" height=\"" << H << "\" viewBox=\"0 0 " << W << " " << H << "\">\n";
  os << "<rect x=\"" << L << "\" y=\"" << T << "\" width=\"" << W - L - R
     << "\" height=\"" << H - T - B << "\" fill=\"#fafafa\" stroke=\"#999\"/>\n";
  for (int i = 0; i <= 4; ++i) {
    double fx = a0 + (a1 - a0) * i / 4, fy = b0 + (b1 - b0) * i / 4;
    double vx = logX ? std::pow(10, fx) : fx, vy = logY ? std::pow(10, fy) : fy;
    os << "<text x=\"" << px(vx) << "\" y=\"" << H - B + 16
       << "\" font-size=\"11\" text-anchor=\"middle\">" << fmt(vx) << "</text>\n";
    os << "<text x=\"" << L - 6 << "\" y=\"" << py(vy) + 4
       << "\" font-size=\"11\" text-anchor=\"end\">" << fmt(vy) << "</text>\n";
  }
  os << "<text x=\"" << (L + W - R) / 2 << "\" y=\"" << H - 12
     << "\" font-size=\"12\" text-anchor=\"middle\">" << xmlEscape(xName)
     << (logX ? " (log)" : "") << "</text>\n";
  os << "<text x=\"14\" y=\"" << (T + H - B) / 2
     << "\" font-size=\"12\" text-anchor=\"middle\" transform=\"rotate(-90 14 "
     << (T + H - B) / 2 << ")\">" << xmlEscape(yName) << (logY ? " (log)" : "")
     << "</text>\n";
  std::set<size_t> onFront(front.begin(), front.end());
  for (size_t i = 0; i < xy.size(); ++i)
    if (valid[i] && !onFront.count(i))
      os << "<circle cx=\"" << px(xy[i].first) << "\" cy=\"" << py(xy[i].second)
         << "\" r=\"3\" fill=\"#9ab\"><title>point " << results[i].index
         << "</title></circle>\n";
  if (!front.empty()) {
    os << "<polyline fill=\"none\" stroke=\"#c33\" stroke-width=\"1.5\" points=\"";
    for (size_t i : front)
      os << px(xy[i].first) << "," << py(xy[i].second) << " ";
    os << "\"/>\n";
    for (size_t i : front)
      os << "<circle class=\"front\" cx=\"" << px(xy[i].first) << "\" cy=\""
         << py(xy[i].second) << "\" r=\"4.5\" fill=\"#c33\"><title>point "
         << results[i].index << "</title></circle>\n";
  }
  os << "</svg>\n";
}
} // namespace

Status dfa::sweep::writeReport(llvm::raw_ostream &os,
                               const std::vector<Result> &results,
                               const ReportOptions &opts, std::string &error) {
  std::vector<std::string> swept = sweptKeys(results);
  std::vector<std::string> metrics = columnsOf(results).metrics;
  auto known = [&](llvm::StringRef k) {
    return llvm::is_contained(metrics, k.str()) || llvm::is_contained(swept, k.str());
  };
  std::string xName = opts.x, yName = opts.y.empty() ? "seconds" : opts.y;
  if (xName.empty())
    xName = llvm::is_contained(metrics, "onchip_bytes") ? "onchip_bytes"
            : !swept.empty()                ? swept.front()
                                            : "flops";
  for (const std::string &k : {xName, yName})
    if (!results.empty() && !known(k)) {
      std::string list;
      for (const std::string &m : metrics)
        list += (list.empty() ? "" : ", ") + m;
      for (const std::string &m : swept)
        list += ", " + m;
      error = "'" + k + "' is neither a metric nor a swept key of these "
              "results (" + list + ")";
      return Status::Usage;
    }
  std::vector<std::pair<double, double>> xy(results.size());
  std::vector<bool> valid(results.size(), false);
  for (size_t i = 0; i < results.size(); ++i) {
    std::optional<double> x = valueOf(results[i], xName),
                          y = valueOf(results[i], yName);
    if (x && y && std::isfinite(*x) && std::isfinite(*y)) {
      xy[i] = {*x, *y};
      valid[i] = true;
    }
  }
  std::vector<size_t> front = paretoFront(xy, valid);
  size_t failed = llvm::count_if(results, [](const Result &r) {
    return !r.error.empty() || r.exitCode != 0;
  });

  std::string title = opts.title.empty() ? "dfa-sweep report" : opts.title;
  os << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
     << "<title>" << xmlEscape(title) << "</title>\n<style>\n"
     << "body{font-family:sans-serif;margin:24px;color:#222}"
     << "table{border-collapse:collapse;font-size:12px}"
     << "th,td{border:1px solid #ccc;padding:2px 6px;text-align:right}"
     << "th{background:#eee;cursor:pointer}td.s{text-align:left}"
     << "tr.front td{background:#fde}tr.err td{color:#a00}"
     << ".bars{display:inline-block;margin:0 24px 12px 0;vertical-align:top}"
     << "</style></head><body>\n";
  os << "<h1>" << xmlEscape(title) << "</h1>\n<p>" << results.size()
     << " points, " << failed << " failed; swept: "
     << xmlEscape(swept.empty() ? std::string("nothing") : llvm::join(swept, ", "))
     << ".</p>\n";

  // The front.
  os << "<h2>Pareto front: " << xmlEscape(yName) << " over " << xmlEscape(xName)
     << "</h2>\n<p>Both minimized; " << front.size()
     << " points on the front (red), the others grey.</p>\n";
  scatter(os, results, xy, valid, front, xName, yName);
  os << "<table id=\"front\"><tr><th>point</th><th>" << xmlEscape(xName)
     << "</th><th>" << xmlEscape(yName) << "</th><th>target</th><th>overrides</th></tr>\n";
  for (size_t i : front) {
    const Result &r = results[i];
    std::string sets;
    if (const json::Object *o = r.point.getObject("overrides"))
      for (const auto &kv : *o)
        sets += (sets.empty() ? "" : ", ") + kv.first.str() + "=" + valueText(kv.second);
    os << "<tr><td>" << r.index << "</td><td>" << fmt(xy[i].first) << "</td><td>"
       << fmt(xy[i].second) << "</td><td class=\"s\">"
       << xmlEscape(r.point.getString("target").value_or("")) << "</td><td class=\"s\">"
       << xmlEscape(sets) << "</td></tr>\n";
  }
  os << "</table>\n";

  // Sensitivity: the median time at each value of each swept key, over
  // every point with that value.
  os << "<h2>Sensitivity of " << xmlEscape(yName) << " to each swept key</h2>\n"
     << "<p>The median of " << xmlEscape(yName)
     << " over the points at each value, and the ratio of the largest median "
        "to the smallest.</p>\n";
  for (const std::string &key : swept) {
    std::map<std::string, std::vector<double>> byValue;
    std::map<std::string, double> order;
    for (size_t i = 0; i < results.size(); ++i) {
      std::optional<double> y = valueOf(results[i], yName);
      if (!y || !std::isfinite(*y))
        continue;
      llvm::StringRef k(key);
      const json::Value *v = nullptr;
      if (k.consume_front("dims.")) {
        if (const json::Object *d = results[i].point.getObject("dims"))
          v = d->get(k);
      } else if (const json::Object *o = results[i].point.getObject("overrides")) {
        v = o->get(k);
      }
      if (!v)
        continue;
      std::string label = valueText(*v);
      byValue[label].push_back(*y);
      order[label] = v->getAsNumber().value_or(double(order.size()));
    }
    std::vector<std::pair<double, std::string>> labels;
    for (auto &[label, ys] : byValue)
      labels.push_back({order[label], label});
    llvm::sort(labels);
    std::vector<double> medians;
    for (auto &[o, label] : labels) {
      std::vector<double> &ys = byValue[label];
      llvm::sort(ys);
      medians.push_back(ys[ys.size() / 2]);
    }
    if (medians.empty())
      continue;
    double lo = *llvm::min_element(medians), hi = *llvm::max_element(medians);
    const double BW = 30, BH = 120;
    os << "<div class=\"bars\"><b>" << xmlEscape(key) << "</b> (spread "
       << fmt(lo > 0 ? hi / lo : 0) << "x)<br>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\""
       << BW * double(medians.size()) + 30 << "\" height=\"" << BH + 64 << "\">\n";
    for (size_t i = 0; i < medians.size(); ++i) {
      double h = hi > 0 ? medians[i] / hi * BH : 0;
      os << "<rect x=\"" << 5 + BW * double(i) << "\" y=\"" << BH - h + 4
         << "\" width=\"" << BW - 6 << "\" height=\"" << h
         << "\" fill=\"#47a\"><title>" << xmlEscape(labels[i].second) << ": "
         << fmt(medians[i]) << "</title></rect>\n";
      // Value labels slanted, so that long numbers do not run together.
      double parsed = 0;
      bool numeric = llvm::to_float(labels[i].second, parsed);
      double lx = 5 + BW * double(i) + (BW - 6) / 2, ly = BH + 14;
      os << "<text x=\"" << lx << "\" y=\"" << ly
         << "\" font-size=\"10\" text-anchor=\"end\" transform=\"rotate(-45 "
         << lx << " " << ly << ")\">" << xmlEscape(numeric ? fmt(labels[i].first)
                                                           : labels[i].second)
         << "</text>\n";
    }
    os << "</svg></div>\n";
  }

  // The table: every point, sortable and filterable.
  Columns columns = columnsOf(results);
  const std::vector<std::string> &dims = columns.dims, &sets = columns.overrides;
  std::set<size_t> onFront(front.begin(), front.end());
  os << "<h2>Points</h2>\n<p><input id=\"filter\" placeholder=\"filter rows "
        "(text, or column&lt;value, column&gt;value)\" size=\"48\"> <span id=\"shown\"></span></p>\n"
     << "<table id=\"points\"><thead><tr><th>index</th><th>model</th><th>target</th>";
  for (const std::string &d : dims)
    os << "<th>dims." << xmlEscape(d) << "</th>";
  for (const std::string &k : sets)
    os << "<th>" << xmlEscape(k) << "</th>";
  for (const std::string &m : metrics)
    os << "<th>" << xmlEscape(m) << "</th>";
  os << "<th>error</th></tr></thead><tbody>\n";
  for (size_t i = 0; i < results.size(); ++i) {
    const Result &r = results[i];
    bool err = !r.error.empty() || r.exitCode != 0;
    os << "<tr" << (onFront.count(i) ? " class=\"front\"" : err ? " class=\"err\"" : "")
       << "><td>" << r.index << "</td><td class=\"s\">"
       << xmlEscape(r.point.getString("model").value_or("")) << "</td><td class=\"s\">"
       << xmlEscape(r.point.getString("target").value_or("")) << "</td>";
    const json::Object *d = r.point.getObject("dims");
    const json::Object *o = r.point.getObject("overrides");
    for (const std::string &k : dims) {
      const json::Value *v = d ? d->get(k) : nullptr;
      os << "<td>" << (v ? xmlEscape(valueText(*v)) : "") << "</td>";
    }
    for (const std::string &k : sets) {
      const json::Value *v = o ? o->get(k) : nullptr;
      os << "<td>" << (v ? xmlEscape(valueText(*v)) : "") << "</td>";
    }
    for (const std::string &m : metrics) {
      auto it = r.metrics.find(m);
      os << "<td>";
      if (it != r.metrics.end())
        os << "<span data-v=\"" << json::Value(it->second) << "\">"
           << fmt(it->second) << "</span>";
      os << "</td>";
    }
    os << "<td class=\"s\">"
       << (err ? "exit " + std::to_string(r.exitCode) + ": " + xmlEscape(r.error) : "")
       << "</td></tr>\n";
  }
  os << "</tbody></table>\n";
  // Sorting by a header's column (numbers by value), filtering by text or
  // by column<value / column>value.
  os << R"(<script>
(function(){
  var table=document.getElementById('points'), body=table.tBodies[0];
  var heads=[].map.call(table.tHead.rows[0].cells,function(c){return c.textContent;});
  function val(td){var s=td.querySelector('span[data-v]');var t=s?s.getAttribute('data-v'):td.textContent;var n=parseFloat(t);return isNaN(n)?t:n;}
  var dir={};
  [].forEach.call(table.tHead.rows[0].cells,function(th,i){
    th.addEventListener('click',function(){
      dir[i]=-(dir[i]||-1);
      var rows=[].slice.call(body.rows);
      rows.sort(function(a,b){var x=val(a.cells[i]),y=val(b.cells[i]);return (x<y?-1:x>y?1:0)*dir[i];});
      rows.forEach(function(r){body.appendChild(r);});
    });
  });
  var input=document.getElementById('filter'), shown=document.getElementById('shown');
  function apply(){
    var q=input.value.trim(), m=q.match(/^([^<>]+)([<>])(.+)$/), n=0;
    [].forEach.call(body.rows,function(r){
      var ok=true;
      if(m){var c=heads.indexOf(m[1].trim()); if(c>=0){var v=val(r.cells[c]), w=parseFloat(m[3]); ok=typeof v==='number'&&(m[2]==='<'?v<w:v>w);}}
      else if(q){ok=r.textContent.toLowerCase().indexOf(q.toLowerCase())>=0;}
      r.style.display=ok?'':'none'; if(ok)n++;
    });
    shown.textContent=n+' of '+body.rows.length+' rows';
  }
  input.addEventListener('input',apply); apply();
})();
</script>
</body></html>
)";
  return Status::Ok;
}
