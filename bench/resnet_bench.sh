#!/usr/bin/env bash
# CPU-reference inference of ResNet-18 (batch 1, 224x224, exported from
# torchvision with random weights): median evaluation time over several
# runs, as dfa-run reports it (import excluded), and the effective GFLOP/s
# (ResNet-18 is 1.82 GMAC = 3.64 GFLOP).
source "$(dirname "$0")/common.sh"
/usr/bin/python3 - "$root" "$work" <<'PY' 2>/dev/null
import os, sys
import numpy as np, torch
sys.path.insert(0, os.path.join(sys.argv[1], "test", "models"))
import torch_models
m, x = torch_models.build("resnet18")
with torch.no_grad():
    torch.onnx.export(m, x, os.path.join(sys.argv[2], "resnet18.onnx"), opset_version=14)
np.save(os.path.join(sys.argv[2], "x.npy"), x.numpy())
PY
ms=()
for i in $(seq "$runs"); do
  ms+=("$("$bin/dfa-run" "$work/resnet18.onnx" --inputs "$work/x.npy" 2>&1 >/dev/null | sed -n 's/.*evaluated in \([0-9.]*\) ms/\1/p')")
done
t=$(median "${ms[@]}")
echo "ResNet-18 on the CPU reference, median of ${runs}: ${t} ms ($(awk "BEGIN{printf \"%.1f\", 3.64/($t/1000)}") GFLOP/s effective)"
