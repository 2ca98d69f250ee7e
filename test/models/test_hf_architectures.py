#!/usr/bin/env python3
"""A sweep of Hugging Face architectures as users call them.

Each model type below is built from its default config (transformers'
AutoConfig.for_model) shrunk to two layers of width 64, with random weights
(nothing is downloaded), and called with its default arguments (a decoder's
use_cache=True among them). It goes through two paths:

  fx    dfa-export-fx's Python API, method auto (symbolic_trace, and
        torch.export where tracing fails)
  onnx  torch.onnx.export(..., dynamo=True), opset 18

and runs on dfa's CPU reference against torch eager: max |dfa - torch| must
be <= 1e-4 * max |torch|. A model the installed transformers cannot build
from its config, or that torch's exporter cannot write, is a skip (torch's
limit, not dfa's), reported with the reason; anything dfa refuses or gets
wrong is a failure. docs/validation.md ("A sweep of architectures") has the
findings of the sweep this test keeps.

usage: test_hf_architectures.py BUILD_DIR WORK_DIR [--paths fx,onnx] [type ...]
Prints one line per (type, path) and 'N passed, N failed, N skipped'.
"""
import argparse
import os
import subprocess
import sys
import time

import numpy as np
import torch
import transformers as T

TYPES = """albert bart bert big_bird bloom camembert codegen convbert ctrl data2vec-text
deberta deberta-v2 deit distilbert electra ernie falcon gemma gemma2 gemma3_text gpt_neo
gpt_neox gptj granite levit llama m2m_100 marian mbart mistral mixtral mobilebert
mobilenet_v2 mpnet mpt olmo opt pegasus phi phi3 poolformer qwen2 qwen2_moe qwen3 regnet
resnet roberta roformer segformer squeezebert stablelm starcoder2 swin t5 mt5 vit wav2vec2
whisper xlm-roberta xglm yolos dinov2 beit bit efficientnet focalnet cvt hubert sew
unispeech layoutlm nystromformer xlnet canine luke splinter megatron-bert rembert persimmon
phimoe olmoe cohere mamba mamba2 rwkv""".split()

SMALL = dict(hidden_size=64, intermediate_size=128, num_hidden_layers=2, num_attention_heads=4,
             max_position_embeddings=128, vocab_size=256, num_key_value_heads=2, d_model=64,
             encoder_layers=2, decoder_layers=2, encoder_attention_heads=4,
             decoder_attention_heads=4, encoder_ffn_dim=128, decoder_ffn_dim=128, n_embd=64,
             n_layer=2, n_head=4, d_ff=128, num_layers=2, num_heads=4, d_kv=16,
             n_positions=128, embedding_size=64, head_dim=16)
# Configs whose sizes must agree with each other beyond SMALL.
EXTRA = {
    "codegen": dict(rotary_dim=8), "gptj": dict(rotary_dim=8),
    "whisper": dict(max_source_positions=16, num_mel_bins=16),
    "swin": dict(embed_dim=16, depths=[1, 1], num_heads=[2, 2], window_size=4),
    "mamba2": dict(num_heads=8, head_dim=16, expand=2, n_groups=1),
    "rwkv": dict(attention_hidden_size=64, intermediate_size=128),
}


def build(model_type):
    """(model in eval mode, config)."""
    cfg = T.AutoConfig.for_model(model_type)
    for k, v in list(SMALL.items()) + list(EXTRA.get(model_type, {}).items()):
        if hasattr(cfg, k) or k in EXTRA.get(model_type, {}):
            try:  # a derived property, or a field whose type differs (a list per stage)
                setattr(cfg, k, v)
            except Exception:
                pass
    if hasattr(cfg, "image_size"):
        try:
            cfg.image_size = 64
        except Exception:
            pass
    for k in ("pad_token_id", "bos_token_id", "eos_token_id", "decoder_start_token_id",
              "sep_token_id", "cls_token_id"):
        v = getattr(cfg, k, None)
        if isinstance(v, int) and v >= 256:
            setattr(cfg, k, 2)
    torch.manual_seed(0)
    m = T.AutoModel.from_config(cfg).eval()
    with torch.no_grad():  # a zero-initialized head would make any comparison pass
        for p in m.parameters():
            if p.dim() > 1 and not p.any():
                p.normal_(0, 0.02)
    return m, cfg


def inputs(m, cfg):
    """The model's example inputs, by its main input's name."""
    torch.manual_seed(1)
    name = m.main_input_name
    if name == "input_ids":
        xs = {"input_ids": torch.randint(3, 200, (1, 16))}
        if cfg.is_encoder_decoder:
            xs["decoder_input_ids"] = torch.randint(3, 200, (1, 8))
        return xs
    if name == "pixel_values":
        return {"pixel_values": torch.randn(1, getattr(cfg, "num_channels", 3), 64, 64)}
    if name == "input_values":
        return {"input_values": torch.randn(1, 4000)}
    if name == "input_features":
        xs = {"input_features": torch.randn(1, cfg.num_mel_bins, 2 * cfg.max_source_positions)}
        if cfg.is_encoder_decoder:
            xs["decoder_input_ids"] = torch.randint(3, 200, (1, 4))
        return xs
    raise ValueError("no example input for main input '%s'" % name)


class FirstOutput(torch.nn.Module):
    """The model called with keyword inputs, returning its first tensor."""

    def __init__(self, m, names):
        super().__init__()
        self.m, self.names = m, names

    def forward(self, *xs):
        out = self.m(**dict(zip(self.names, xs)))
        if getattr(out, "last_hidden_state", None) is not None:
            return out.last_hidden_state
        return out[0]


def first_line(e):
    return (str(e).strip().splitlines() or [type(e).__name__])[0][:200]


def check(model_type, path, bin_dir, work):
    """('PASS' | 'FAIL' | 'SKIP', detail)."""
    try:
        m, cfg = build(model_type)
        xs = inputs(m, cfg)
        w = FirstOutput(m, list(xs)).eval()
        args = tuple(xs.values())
        with torch.no_grad():
            ref = w(*args).float().numpy()
    except Exception as e:  # the installed transformers cannot build it
        return "SKIP", "build: " + first_line(e)
    scale = float(np.max(np.abs(ref))) if ref.size else 0.0
    if not scale > 1e-30:
        return "SKIP", "degenerate output (max |output| %.2g): nothing to compare" % scale
    prefix = os.path.join(work, "%s.%s" % (model_type, path))
    t0 = time.time()
    try:
        if path == "fx":
            import dfa_fx
            f = dfa_fx.export(w, args, prefix)
        else:
            f = prefix + ".onnx"
            torch.onnx.export(w, args, f, dynamo=True, opset_version=18, verbose=False)
    except Exception as e:  # torch's exporter's limit, or dfa_fx naming one
        return "SKIP", "export: " + first_line(e)
    files = []
    for i, a in enumerate(args):
        files.append("%s.in%d.npy" % (prefix, i))
        np.save(files[-1], a.numpy())
    p = subprocess.run([os.path.join(bin_dir, "dfa-run"), f, "--inputs"] + files +
                       ["--outputs", prefix + ".out"], capture_output=True, text=True)
    if p.returncode != 0:
        return "FAIL", "dfa-run exit %d: %s" % (p.returncode, p.stderr.strip()[-300:])
    got = np.load(os.path.join(prefix + ".out", "output_0.npy"))
    if got.shape != ref.shape:
        return "FAIL", "shape %s, torch gives %s" % (got.shape, ref.shape)
    err = float(np.max(np.abs(got - ref)))
    ok = err <= 1e-4 * scale
    return ("PASS" if ok else "FAIL"), "max abs error %.2g x max|output| (%.0f s)" % (
        err / scale, time.time() - t0)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("bin_dir")
    ap.add_argument("work")
    ap.add_argument("--paths", default="fx,onnx")
    ap.add_argument("types", nargs="*")
    args = ap.parse_args()
    sys.path.insert(0, args.bin_dir)
    os.makedirs(args.work, exist_ok=True)
    counts = {"PASS": 0, "FAIL": 0, "SKIP": 0}
    for t in args.types or TYPES:
        for path in args.paths.split(","):
            try:
                status, detail = check(t, path, args.bin_dir, args.work)
            except Exception as e:  # the harness itself: a failure to look at
                status, detail = "FAIL", "harness: " + first_line(e)
            counts[status] += 1
            print("%s %s (%s): %s" % (status, t, path, detail), flush=True)
    print("hf architectures: %d passed, %d failed, %d skipped" % (
        counts["PASS"], counts["FAIL"], counts["SKIP"]))
    return 1 if counts["FAIL"] else 0


if __name__ == "__main__":
    sys.exit(main())
