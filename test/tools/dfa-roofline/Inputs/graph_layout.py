#!/usr/bin/env python3
"""Renders a dfa-roofline --graph SVG in headless Chromium (network off) and
reads every text box back from the page: no two labels may overlap and no
label may stick out of its node's shape. Prints the counts and the first
offenders; exits 1 on any.

graph_layout.py GRAPH.svg OUT_DIR
"""
import html
import json
import os
import re
import subprocess
import sys

svg_file, out = sys.argv[1:3]
svg = open(svg_file).read()
script = r"""
const texts = [...document.querySelectorAll('svg text')];
const boxes = texts.map(t => t.getBoundingClientRect());
// Labels of different nodes, clusters and edges: their boxes must not
// meet. Lines of one label: a font box includes its leading, so there the
// baselines must be at least 0.8 em apart where the lines share columns.
const overlaps = [];
for (let i = 0; i < boxes.length; i++)
  for (let j = i + 1; j < boxes.length; j++) {
    const a = boxes[i], b = boxes[j];
    const x = Math.min(a.right, b.right) - Math.max(a.left, b.left);
    const y = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
    if (x <= 0.5 || y <= 0.5)
      continue;
    if (texts[i].parentNode === texts[j].parentNode) {
      const em = parseFloat(texts[i].getAttribute('font-size'));
      const dy = Math.abs(parseFloat(texts[i].getAttribute('y')) -
                          parseFloat(texts[j].getAttribute('y')));
      if (dy >= 0.8 * em)
        continue;
    }
    overlaps.push(texts[i].textContent + ' / ' + texts[j].textContent);
  }
const outside = [];
for (const g of document.querySelectorAll('g.node')) {
  const shape = g.querySelector('polygon, ellipse');
  if (!shape) continue;
  const s = shape.getBoundingClientRect();
  for (const t of g.querySelectorAll('text')) {
    const b = t.getBoundingClientRect();
    if (b.left < s.left - 0.5 || b.right > s.right + 0.5)
      outside.push(t.textContent);
  }
}
const pre = document.createElement('pre');
pre.id = 'result';
pre.textContent = JSON.stringify({texts: texts.length,
  nodes: document.querySelectorAll('g.node').length,
  clusters: document.querySelectorAll('g.cluster').length, overlaps, outside});
document.body.appendChild(pre);
"""
page = os.path.join(out, "graph.html")
with open(page, "w") as f:
    f.write("<!DOCTYPE html><html><head><meta charset=\"utf-8\"></head>"
            "<body style=\"margin:0\">" + svg[svg.find("<svg"):] +
            "<script>" + script + "</script></body></html>")
chrome = ["chromium", "--headless", "--no-sandbox", "--disable-gpu",
          "--user-data-dir=" + os.path.join(out, "chrome"),
          "--proxy-server=127.0.0.1:9", "--host-resolver-rules=MAP * ~NOTFOUND"]
dom = subprocess.run(chrome + ["--dump-dom", "file://" + os.path.abspath(page)],
                     capture_output=True, text=True, timeout=180, check=True).stdout
m = re.search(r'<pre id="result">(.*?)</pre>', dom, re.S)
if not m:
    sys.exit("graph_layout.py: the page did not report (is the SVG well formed?)")
r = json.loads(html.unescape(m.group(1)))
print("nodes %d, clusters %d, texts %d, overlapping labels %d, labels outside their node %d"
      % (r["nodes"], r["clusters"], r["texts"], len(r["overlaps"]), len(r["outside"])))
for o in (r["overlaps"] + r["outside"])[:10]:
    print("  BAD", o)
sys.exit(1 if r["overlaps"] or r["outside"] else 0)
