"""The torch.nn modules dfa-export-fx keeps whole (_LEAF_MODULES in
dfa_fx.py) are exactly those the importer has a module handler for (the
class names its module table registers): a leaf without a handler is
refused although tracing through would import it; a handler without a
leaf is never used. Reads both sources (no torch needed)."""
import ast, re, sys

root = sys.argv[1]
src = open(root + "/tools/dfa-export-fx/dfa_fx.py").read()
tree = ast.parse(src)
env = {}
for node in tree.body:
    if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id in ("_MODULE_ATTRS", "_LEAF_MODULES")
            for t in node.targets):
        exec(compile(ast.Module([node], []), "dfa_fx.py", "exec"), env)
leaves = env["_LEAF_MODULES"]

cpp = ""
for f in ("FXModules.cpp", "FXActivations.cpp", "FXMath.cpp"):
    text = open(root + "/lib/Import/FX/" + f).read()
    if f == "FXMath.cpp":  # only its module table
        text = text[text.index("addMathModuleHandlers(llvm::StringMap"):]
    if f == "FXActivations.cpp":  # the class names (capitalized) of its table
        text = text[text.index("addActivationHandlers(llvm::StringMap"):]
    cpp += text
handlers = set(re.findall(r'"([A-Z][A-Za-z0-9]*)"', cpp))
missing, unused = sorted(leaves - handlers), sorted(handlers - leaves)
print("leaves without a handler:", missing)
print("handlers without a leaf:", unused)
sys.exit(1 if missing or unused else 0)
