#!/usr/bin/env bash
# Regenerates the landscape reports committed as examples in docs/examples/:
# the bundled GPT-style block and torchvision's ResNet-18 (exported with
# Debian's python3-torch, random weights: only shapes matter) on every
# accelerator target, simulated (small self-contained pages; the JSON goes
# to stdout only when asked: --json).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
bin="${DFA_BUILD_DIR:-$root/build}/bin"
out="$root/docs/examples"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$root/scripts/build.sh" dfa-roofline >/dev/null
mkdir -p "$out"
ROOT="$root" /usr/bin/python3 - "$work/resnet18.onnx" <<'PY'
import os, sys
import torch
sys.path.insert(0, os.path.join(os.environ["ROOT"], "test", "models"))
import torch_models
m, x = torch_models.build("resnet18")
with torch.no_grad():
    torch.onnx.export(m, x, sys.argv[1], opset_version=14, input_names=["image"],
                      output_names=["logits"], do_constant_folding=True)
PY
for model in "$root/examples/gpt_block.onnx" "$work/resnet18.onnx"; do
  name="$(basename "$model" .onnx)"
  "$bin/dfa-roofline" "$model" --top 5 --html "$out/landscape-$name.html" 2>/dev/null
  echo "wrote docs/examples/landscape-$name.html ($(($(stat -c %s "$out/landscape-$name.html") / 1024)) KB)"
done
