#!/usr/bin/env python3
"""Hugging Face architectures through torch 2.x's dynamo ONNX exporter.

Each model is built from a small config of its architecture with random
weights (nothing is downloaded), exported with
torch.onnx.export(..., dynamo=True) at opset 18 and at opset 23 (where the
exporter writes Attention and RMSNormalization ops), imported by dfa, run on
the CPU reference and compared with torch eager: max |dfa - torch| must be
<= 1e-4 * max |torch|. The opset-23 export must also compile for every
shipped target and match torch through one target of each family
(test_torch_exports.py's checks).

usage: test_hf_exports.py BUILD_DIR WORK_DIR [model ...]
Needs the project's environment (scripts/pyenv.sh: torch 2.x,
transformers). Prints one line per export and 'N passed, N failed'.
"""
import os
import sys
import time

import numpy as np
import torch
import transformers as T

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import test_torch_exports as exports  # noqa: E402

OPSETS = [18, 23]


def build(name):
    """(module returning one tensor, example input) for an architecture."""
    torch.manual_seed(0)
    ids = torch.randint(0, 256, (1, 16))
    small = dict(hidden_size=64, intermediate_size=128, num_hidden_layers=2,
                 num_attention_heads=4, max_position_embeddings=64)
    if name == "gpt2":
        m = T.GPT2LMHeadModel(T.GPT2Config(vocab_size=256, n_embd=64, n_layer=2,
                                           n_head=4, n_positions=64))
        return Logits(m, "input_ids"), ids
    if name == "llama":  # grouped-query attention, rotary embeddings, RMSNorm
        m = T.LlamaForCausalLM(T.LlamaConfig(vocab_size=256, num_key_value_heads=2, **small))
        return Logits(m, "input_ids"), ids
    if name == "mistral":  # and a sliding window
        m = T.MistralForCausalLM(T.MistralConfig(vocab_size=256, num_key_value_heads=2,
                                                 sliding_window=8, **small))
        return Logits(m, "input_ids"), ids
    if name == "qwen2":
        m = T.Qwen2ForCausalLM(T.Qwen2Config(vocab_size=256, num_key_value_heads=2, **small))
        return Logits(m, "input_ids"), ids
    if name == "bert":
        m = T.BertModel(T.BertConfig(vocab_size=256, **small))
        return Hidden(m, "input_ids"), ids
    if name == "vit":
        m = T.ViTModel(T.ViTConfig(image_size=32, patch_size=8,
                                   **{k: v for k, v in small.items()
                                      if k != "max_position_embeddings"}))
        return Hidden(m, "pixel_values"), torch.randn(1, 3, 32, 32)
    raise SystemExit("unknown model " + name)


class Logits(torch.nn.Module):
    def __init__(self, m, arg):
        super().__init__()
        self.m, self.arg = m.eval(), arg

    def forward(self, x):
        return self.m(**{self.arg: x}, use_cache=False).logits


class Hidden(torch.nn.Module):
    def __init__(self, m, arg):
        super().__init__()
        self.m, self.arg = m.eval(), arg

    def forward(self, x):
        return self.m(**{self.arg: x}).last_hidden_state


MODELS = ["gpt2", "llama", "mistral", "qwen2", "bert", "vit"]


def check(name, opset, bin_dir, work):
    m, x = build(name)
    m.eval()
    tag = "%s.opset%d" % (name, opset)
    path = os.path.join(work, tag + ".onnx")
    with torch.no_grad():
        ref = m(x).numpy()
    t0 = time.time()
    try:
        torch.onnx.export(m, (x,), path, dynamo=True, opset_version=opset, verbose=False)
    except Exception as e:  # the exporter's failure is not dfa's
        return False, "torch.onnx.export failed: %s" % str(e).splitlines()[0][:200]
    export_s = time.time() - t0
    np.save(os.path.join(work, name + ".in.npy"), x.numpy())
    ok, scale, detail = exports.run_cpu(path, bin_dir, work, tag, name + ".in.npy", ref)
    if scale is None:
        return False, detail
    detail += ", export %.1f s" % export_s
    if opset == OPSETS[-1]:
        compiled, why = exports.compile_all(path, bin_dir, os.path.join(work, tag + ".sched"))
        simulated, how = exports.simulate_all(path, bin_dir, work, name, ref, scale)
        ok = ok and compiled and simulated
        detail += "; " + why + "; " + how
    return ok, detail


def main():
    bin_dir, work = sys.argv[1], sys.argv[2]
    names = sys.argv[3:] or MODELS
    os.makedirs(work, exist_ok=True)
    return exports.report(
        [("%s (dynamo, opset %d)" % (n, o), lambda n=n, o=o: check(n, o, bin_dir, work))
         for n in names for o in OPSETS], "hf exports")


if __name__ == "__main__":
    sys.exit(main())
