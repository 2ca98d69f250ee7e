#!/usr/bin/env python3
"""Every export path on real architectures.

Each model (torchvision classifiers, Hugging Face architectures and timm
models, built from their configs with random weights: nothing is
downloaded) goes through up to three paths:

  fx-trace   dfa-export-fx, torch.fx.symbolic_trace (torch-level nodes)
  fx-export  dfa-export-fx --method export: torch.export, core ATen
  onnx       torch.onnx.export(..., dynamo=True), opset 18

and the mixtures of experts also through

  fx-kv      one decoder step with its KV cache as inputs and outputs,
             through torch.export with symbolic batch, token and cache
             Dims: dfa-run at bound dims against torch, and dfa-roofline
             --llm must find the roles and count the KV cache from the
             graph (the ONNX exporter cannot write these models)

and is imported by dfa, run on the CPU reference and compared with torch
eager: max |dfa - torch| must be <= 1e-4 * max |torch|. Each row gives the
error, dfa's op count after import, and the time dfa-compile takes to
compile it for gpu-h100; the Hugging Face and timm models' torch.export
graphs also compile for every target and run through one target of each
family (test_torch_exports.py's checks). fx-trace only runs where
symbolic_trace itself
succeeds (a model with data-dependent Python control flow cannot be
traced; that is torch's limit, reported as 'not traceable').

usage: test_export_paths.py BUILD_DIR WORK_DIR [--models a,b] [--paths p,q]
                            [--all] [--table FILE.md]
With no --models, a default set that covers every family and path in a few
minutes; --all takes every torchvision classification model too, and one
model of each of timm's model files (its smallest variant by name: the
sweep docs/validation.md reports).
--table writes the results as a markdown table.
"""
import argparse
import os
import re
import subprocess
import sys
import time

import numpy as np
import torch

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)

PATHS = ["fx-trace", "fx-export", "onnx"]

HF = ["gpt2", "llama", "mistral", "qwen2", "bert", "vit", "t5-encoder",
      "whisper-encoder", "fnet", "llama-use-cache"]
# Mixtures of experts (and complex rotary embeddings: DeepSeek-V2, Llama 4),
# with transformers' default experts implementation
# (tokens sorted by expert, torch.histc counts, a grouped product:
# transformers::grouped_mm_fallback for f32) and, for Mixtral, its
# "batched_mm" one (each token's experts' weights gathered, bmm). Only
# torch.export captures them: the ONNX exporter has no function for the
# grouped product (a torch limit, not run), and symbolic_trace cannot
# trace the models.
MOE = ["mixtral", "mixtral-batched-mm", "qwen3-moe", "olmoe", "gpt-oss", "deepseek-v3",
       "deepseek-v2", "llama4"]
MOE_PATHS = ["fx-export", "fx-kv"]
TIMM = ["timm/convnext_atto", "timm/efficientnet_b0", "timm/vit_tiny_patch16_224"]
DEFAULT = ["resnet18", "mobilenet_v3_small", "efficientnet_b0", "convnext_tiny",
           "vit_b_32", "swin_t", "maxvit_t"] + HF + MOE + TIMM


def torchvision_models():
    import torchvision
    return sorted(torchvision.models.list_models(module=torchvision.models))


def timm_families():
    """One model of each of timm's model files: the smallest variant by name
    (atto, femto, pico, nano, xxs, tiny, ...), 'timm/<name>'."""
    import timm
    order = ["atto", "femto", "pico", "nano", "xxs", "tiny", "xs", "_t", "small", "b0", "18",
             "_s", "base"]

    def size(n):
        return (next((i for i, p in enumerate(order) if p in n), len(order)), len(n), n)
    out = []
    for module in sorted(timm.list_modules()):
        names = [n for n in timm.list_models(module=module) if "_in22k" not in n]
        if names:
            out.append("timm/" + min(names, key=size))
    return out


def build(name):
    """(module in eval mode returning one tensor, example input)."""
    m, x = _build(name)
    # Some classifiers start with a zero head (torchvision's ViT): the
    # output would be all zeros and any comparison would pass.
    with torch.no_grad():
        for p in m.parameters():
            if p.dim() > 1 and not p.any():
                p.normal_(0, 0.02)
    return m, x


def _build(name):
    torch.manual_seed(0)
    if name in MOE:
        return build_hf_moe(name)
    if name in HF:
        import test_hf_exports as hf
        if name == "llama-use-cache":
            # Called as users call it: use_cache defaults to True, so each
            # layer concatenates its keys onto a DynamicCache's empty
            # torch.tensor([]) (torch.cat leaves a 1-d empty tensor out).
            m, x = hf.build("llama")
            return _DefaultCall(m.m).eval(), x
        if name in hf.MODELS:
            return hf.build(name)
        return build_hf_encoder(name)
    if name.startswith("timm/"):
        import timm
        m = timm.create_model(name[5:], pretrained=False).eval()
        cfg = m.pretrained_cfg.get("input_size", (3, 224, 224))
        return m, torch.randn(1, *cfg)
    import torchvision
    m = torchvision.models.get_model(name, weights=None).eval()
    size = 299 if name == "inception_v3" else 224
    if name.startswith("vit_h"):
        size = 224
    return m, torch.randn(1, 3, size, size)


class _Encoder(torch.nn.Module):
    def __init__(self, enc, arg):
        super().__init__()
        self.enc, self.arg = enc.eval(), arg

    def forward(self, x):
        return self.enc(**{self.arg: x}).last_hidden_state


class _DefaultCall(torch.nn.Module):
    def __init__(self, lm):
        super().__init__()
        self.lm = lm.eval()

    def forward(self, x):
        return self.lm(input_ids=x).logits


def build_hf_encoder(name):
    import transformers as T
    if name == "t5-encoder":
        cfg = T.T5Config(vocab_size=256, d_model=64, d_kv=16, d_ff=128, num_layers=2,
                         num_heads=4)
        return _Encoder(T.T5EncoderModel(cfg), "input_ids"), torch.randint(0, 256, (1, 16))
    if name == "whisper-encoder":
        cfg = T.WhisperConfig(d_model=64, encoder_layers=2, encoder_attention_heads=4,
                              decoder_layers=1, decoder_attention_heads=4,
                              encoder_ffn_dim=128, decoder_ffn_dim=128, num_mel_bins=16,
                              max_source_positions=32, vocab_size=256, pad_token_id=0,
                              bos_token_id=1, eos_token_id=2, decoder_start_token_id=1)
        enc = T.WhisperModel(cfg).get_encoder()
        return _Encoder(enc, "input_features"), torch.randn(1, 16, 64)
    raise SystemExit("unknown model " + name)


def export(name, path, m, x, prefix):
    """Writes the model through `path`: (model file, None) or (None, why)."""
    import dfa_fx
    try:
        if path == "onnx":
            f = prefix + ".onnx"
            with torch.no_grad():
                torch.onnx.export(m, (x,), f, dynamo=True, opset_version=18, verbose=False)
            return f, None
        method = "symbolic_trace" if path == "fx-trace" else "export"
        return dfa_fx.export(m, (x,), prefix, method=method), None
    except dfa_fx.ExportError as e:
        return None, str(e).splitlines()[0][:300]
    except Exception as e:  # the torch exporter's failure, not dfa's
        return None, "torch: " + (str(e).strip().splitlines() or [type(e).__name__])[0][:300]


def op_count(module_text):
    return len(re.findall(r"= graph\.(?!weight|constant)", module_text))


def check(name, path, bin_dir, work, families=False):
    """One row: dict with ok, error ratio, ops, compile seconds, detail."""
    m, x = build(name)
    tag = "%s.%s" % (name.replace("/", "_"), path)
    prefix = os.path.join(work, tag)
    with torch.no_grad():
        ref = m(x)
        ref = (ref[0] if isinstance(ref, (tuple, list)) else ref).numpy()
    row = {"model": name, "path": path, "ok": False, "err": None, "ops": None,
           "compile_s": None}
    t0 = time.time()
    f, why = export(name, path, m, x, prefix)
    row["export_s"] = time.time() - t0
    if f is None:
        traceable = path != "fx-trace" or "cannot be traced" not in why
        row["skip"] = not traceable
        row["detail"] = why
        return row
    np.save(prefix + ".in.npy", x.numpy())
    out = prefix + ".out"
    p = subprocess.run([os.path.join(bin_dir, "dfa-run"), f, "--inputs", prefix + ".in.npy",
                        "--outputs", out], capture_output=True, text=True)
    if p.returncode != 0:
        row["detail"] = "dfa-run exit %d: %s" % (p.returncode, p.stderr.strip()[-300:])
        return row
    got = np.load(os.path.join(out, "output_0.npy"))
    if got.shape != ref.shape:
        row["detail"] = "shape %s, torch gives %s" % (got.shape, ref.shape)
        return row
    err = float(np.max(np.abs(got - ref)))
    scale = float(np.max(np.abs(ref))) or 1.0
    row["err"] = err / scale
    row["ok"] = err <= 1e-4 * scale
    p = subprocess.run([os.path.join(bin_dir, "dfa-compile"), f, "--no-weights"],
                       capture_output=True, text=True)
    row["ops"] = op_count(p.stdout) if p.returncode == 0 else None
    t0 = time.time()
    p = subprocess.run([os.path.join(bin_dir, "dfa-compile"), f, "--no-weights", "--target",
                        "gpu-h100", "-o", prefix + ".sched"], capture_output=True, text=True)
    row["compile_s"] = time.time() - t0
    if p.returncode != 0:
        row["ok"] = False
        row["detail"] = "dfa-compile --target gpu-h100 exit %d: %s" % (
            p.returncode, p.stderr.strip()[-300:])
        return row
    row["detail"] = "max abs error %.2g x max|output|, %s ops, compiled in %.2f s" % (
        row["err"], row["ops"], row["compile_s"])
    if families and path == "fx-export":
        # Every target compiles it; one target per family runs it.
        import test_torch_exports as exports
        compiled, why = exports.compile_all(f, bin_dir, prefix + ".all")
        simulated, how = exports.simulate_all(f, bin_dir, work, tag, ref, scale)
        row["ok"] = row["ok"] and compiled and simulated
        row["detail"] += "; " + why + "; " + how
    return row


def check_kv(name, bin_dir, work):
    """The fx-kv row: a decoder step exported with Dims, run and sized."""
    import dfa_fx
    import test_hf_exports as hf
    lm = build(name)[0].m
    layers = lm.config.num_hidden_layers
    step = hf.DecoderStep(lm, layers).eval()
    torch.manual_seed(1)
    B, S, P = 2, 3, 5  # torch.export specializes a size of 1
    ids = torch.randint(0, 256, (B, S))
    # The cache's shapes as the model writes them (multi-head latent
    # attention caches keys and values of different head sizes).
    with torch.no_grad():
        cache = lm(input_ids=ids, use_cache=True).past_key_values.layers[:layers]
    shapes_kv = [t.shape for c in cache for t in (c.keys, c.values)]
    past = [torch.randn(B, sh[1], P, sh[3]) for sh in shapes_kv]
    with torch.no_grad():
        ref = step(ids, *past)[0].numpy()
    Dim = torch.export.Dim
    batch, seq, cached = Dim("batch"), Dim("seq"), Dim("past")
    shapes = ({0: batch, 1: seq}, tuple({0: batch, 2: cached} for _ in past))
    row = {"model": name, "path": "fx-kv", "ok": False, "err": None, "ops": None,
           "compile_s": None}
    prefix = os.path.join(work, name + ".kv")
    try:
        f = dfa_fx.export(step, (ids, *past), prefix, method="export", dynamic_shapes=shapes)
    except dfa_fx.ExportError as e:
        row["detail"] = str(e).splitlines()[0][:300]
        return row
    files = []
    for i, t in enumerate([ids] + past):
        files.append("%s.in%d.npy" % (prefix, i))
        np.save(files[-1], t.numpy())
    p = subprocess.run([os.path.join(bin_dir, "dfa-run"), f, "--dim", "batch=%d" % B,
                        "--dim", "seq=%d" % S, "--dim", "past=%d" % P, "--inputs"] + files +
                       ["--outputs", prefix + ".out"], capture_output=True, text=True)
    if p.returncode != 0:
        row["detail"] = "dfa-run exit %d: %s" % (p.returncode, p.stderr.strip()[-300:])
        return row
    got = np.load(os.path.join(prefix + ".out", "output_0.npy"))
    err, scale = float(np.max(np.abs(got - ref))), float(np.max(np.abs(ref))) or 1.0
    row["err"] = err / scale
    if got.shape != ref.shape or not err <= 1e-4 * scale:
        row["detail"] = "decoder step: max abs error %.3g of %.3g" % (err, scale)
        return row
    llm, why = hf.roofline_llm(bin_dir, f)
    if llm is None:
        row["detail"] = why
        return row
    want = sum(sh[1] * sh[3] * 4 for sh in shapes_kv)  # f32 keys and values
    if llm["kv_cache_bytes_per_token"] != want:
        row["detail"] = "KV cache %s B per token, the model's cache holds %d" % (
            llm["kv_cache_bytes_per_token"], want)
        return row
    row["ok"] = True
    row["detail"] = ("decoder step max abs error %.2g x max|output|; --llm: KV cache %d B per "
                     "token (%d layers; keys %s, values %s)" % (
                         row["err"], want, layers, list(shapes_kv[0]), list(shapes_kv[1])))
    return row


def build_hf_moe(name):
    """A two-layer causal LM of a mixture-of-experts architecture, top-2."""
    import transformers as T
    import test_hf_exports as hf
    small = dict(vocab_size=256, hidden_size=64, intermediate_size=128, num_hidden_layers=2,
                 num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=64)
    if name.startswith("mixtral"):
        m = T.MixtralForCausalLM(T.MixtralConfig(num_local_experts=4, num_experts_per_tok=2,
                                                 **small))
        if name == "mixtral-batched-mm":
            m.config._experts_implementation = "batched_mm"
    elif name == "qwen3-moe":  # 8 experts of 32, routing weights renormalized
        m = T.Qwen3MoeForCausalLM(T.Qwen3MoeConfig(num_experts=8, num_experts_per_tok=2,
                                                   moe_intermediate_size=32, **small))
    elif name == "olmoe":
        m = T.OlmoeForCausalLM(T.OlmoeConfig(num_experts=8, num_experts_per_tok=2,
                                             eos_token_id=None, **small))
    elif name == "gpt-oss":  # experts with biases, a clamped SwiGLU, attention sinks
        m = T.GptOssForCausalLM(T.GptOssConfig(num_local_experts=4, num_experts_per_tok=2,
                                               head_dim=16, **small))
    elif name in ("deepseek-v3", "deepseek-v2"):
        # Multi-head latent attention, shared and group-routed experts; V2
        # writes its rotary embedding with complex numbers.
        mla = dict(small, num_key_value_heads=4, hidden_size=128, kv_lora_rank=64,
                   q_lora_rank=96, qk_rope_head_dim=32, qk_nope_head_dim=64, v_head_dim=64,
                   moe_intermediate_size=32, n_routed_experts=8, num_experts_per_tok=2,
                   n_shared_experts=1, first_k_dense_replace=1, n_group=1, topk_group=1)
        if name == "deepseek-v3":
            m = T.DeepseekV3ForCausalLM(T.DeepseekV3Config(**mla))
        else:
            m = T.DeepseekV2ForCausalLM(T.DeepseekV2Config(**mla))
    elif name == "llama4":  # complex rotary embeddings, a shared expert, top-1
        m = T.Llama4ForCausalLM(T.Llama4TextConfig(
            head_dim=16, intermediate_size_mlp=128, num_local_experts=4,
            num_experts_per_tok=1, **small))
    else:
        raise SystemExit("unknown model " + name)
    with torch.no_grad():  # a zero router ties every expert: torch's top-k order is unspecified
        for p in m.parameters():
            if p.dim() > 1 and not p.any():
                p.normal_(0, 0.02)
    return hf.Logits(m, "input_ids"), torch.randint(0, 256, (1, 16))


def table(rows):
    lines = ["| model | path | result | error / max\\|out\\| | ops | compile (s) |",
             "|---|---|---|---|---|---|"]
    for r in rows:
        result = "pass" if r["ok"] else ("not traceable" if r.get("skip") else "FAIL")
        err = "%.1e" % r["err"] if r["err"] is not None else ""
        ops = str(r["ops"]) if r["ops"] is not None else ""
        cs = "%.2f" % r["compile_s"] if r["compile_s"] is not None else ""
        lines.append("| %s | %s | %s | %s | %s | %s |" % (r["model"], r["path"], result, err,
                                                          ops, cs))
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("bin_dir")
    ap.add_argument("work")
    ap.add_argument("--models")
    ap.add_argument("--paths", default=",".join(PATHS + ["fx-kv"]))
    ap.add_argument("--all", action="store_true")
    ap.add_argument("--table")
    args = ap.parse_args()
    sys.path.insert(0, args.bin_dir)
    os.makedirs(args.work, exist_ok=True)
    names = args.models.split(",") if args.models else list(DEFAULT)
    if args.all:
        names = torchvision_models() + HF + MOE + sorted(set(TIMM) | set(timm_families()))
    rows, passed, failed, skipped = [], 0, 0, 0
    for name in names:
        for path in args.paths.split(","):
            if path not in (MOE_PATHS if name in MOE else PATHS):
                continue
            try:
                if path == "fx-kv":
                    r = check_kv(name, args.bin_dir, args.work)
                else:
                    r = check(name, path, args.bin_dir, args.work,
                              families=not args.all and (name in HF or name in MOE or
                                                         name in TIMM))
            except Exception as e:  # a model the installed library cannot build
                r = {"model": name, "path": path, "ok": False, "err": None, "ops": None,
                     "compile_s": None, "detail": "build failed: %s" % str(e)[:200]}
            rows.append(r)
            skip = r.get("skip", False)
            print("%s %s (%s): %s" % ("PASS" if r["ok"] else "SKIP" if skip else "FAIL",
                                      name, path, r["detail"]), flush=True)
            passed += r["ok"]
            skipped += skip
            failed += not r["ok"] and not skip
    if args.table:
        with open(args.table, "w") as f:
            f.write(table(rows))
    print("export paths: %d passed, %d failed, %d not traceable" % (passed, failed, skipped))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
