#!/usr/bin/env python3
"""Regenerates the bundled example models in examples/ (run with Debian's
python3-torch): gpt_block.onnx, a GPT-2-style decoder block (d_model 64,
4 heads, 16 tokens, causal mask) with seeded random weights, exported with
torch.onnx.export at opset 14."""
import os
import sys

import torch

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "test", "models"))
import torch_models  # noqa: E402

m, x = torch_models.build("gpt_block")
with torch.no_grad():
    torch.onnx.export(m, x, os.path.join(here, "gpt_block.onnx"), opset_version=14,
                      input_names=["tokens"], output_names=["hidden"],
                      do_constant_folding=True)
print("wrote examples/gpt_block.onnx")
