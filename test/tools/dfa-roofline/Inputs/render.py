#!/usr/bin/env python3
"""Renders a dfa-roofline HTML report in headless Chromium with the network
off, counts each target's roofs and points in the DOM against the JSON
report, and takes a screenshot.

render.py REPORT.html REPORT.json OUT_DIR
"""
import html.parser
import json
import os
import re
import subprocess
import sys

page, report, out = sys.argv[1:4]
text = open(page).read()
# Self-contained: no address but the SVG and XLink namespaces.
urls = set(re.findall(r"https?://[^\"' )]+", text)) - {"http://www.w3.org/2000/svg",
                                                         "http://www.w3.org/1999/xlink"}
if urls:
    sys.exit("the report fetches %s" % sorted(urls))

chrome = ["chromium", "--headless", "--no-sandbox", "--disable-gpu",
          "--user-data-dir=" + os.path.join(out, "chrome"),
          # No network: every proxy and name lookup fails.
          "--proxy-server=127.0.0.1:9", "--host-resolver-rules=MAP * ~NOTFOUND"]
url = "file://" + os.path.abspath(page)
dom = subprocess.run(chrome + ["--dump-dom", url], capture_output=True,
                     text=True, timeout=180, check=True).stdout


class Counter(html.parser.HTMLParser):
    """Counts roofs and points per chart (svg.roofline by data-target)."""

    def __init__(self):
        super().__init__()
        self.target, self.counts = None, {}

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        classes = (a.get("class") or "").split()
        if tag == "svg" and "roofline" in classes:
            self.target = a["data-target"]
            self.counts[self.target] = {"roof": 0, "point": 0, "ridge": 0}
        elif self.target:
            for c in ("roof", "point", "ridge"):
                if c in classes:
                    self.counts[self.target][c] += 1

    def handle_endtag(self, tag):
        if tag == "svg":
            self.target = None


counter = Counter()
counter.feed(dom)
expected = {}
for t in json.load(open(report))["targets"]:
    points = sum(1 for k in t["kernels"] if k["flops"] > 0 and k["seconds"] > 0
                 for l in k["levels"] if l["bytes"] > 0)
    expected[t["target"]] = {"roof": len(t["roofs"]), "point": points,
                             "ridge": len(t["roofs"])}
if counter.counts != expected:
    sys.exit("DOM %s, expected %s" % (counter.counts, expected))

shot = os.path.join(out, "report.png")
subprocess.run(chrome + ["--screenshot=" + shot, "--window-size=1400,2400", url],
               capture_output=True, timeout=180, check=True)
with open(shot, "rb") as f:
    png = f.read()
if not png.startswith(b"\x89PNG") or len(png) < 20000:
    sys.exit("screenshot %s: %d bytes" % (shot, len(png)))
for target, c in sorted(counter.counts.items()):
    print("%s: %d roofs, %d points" % (target, c["roof"], c["point"]))
print("screenshot: %d bytes" % len(png))
