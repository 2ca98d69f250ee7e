"""set_arg.py IN.fx.json NODE INDEX JSON OUT.fx.json: a copy of an FX export
with positional argument INDEX of node NODE replaced by the JSON value (for
tests of the importer's errors on arguments torch would not export)."""
import json
import sys

src, node, index, value, out = sys.argv[1:6]
graph = json.load(open(src))
n = next(n for n in graph["nodes"] if n["name"] == node)
n["args"][int(index)] = json.loads(value)
json.dump(graph, open(out, "w"), indent=1)
