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

The decoders (GPT-2, Llama, Mistral, Qwen2) are also exported as one
decoder step with the KV cache as inputs and outputs (Optimum's layout:
input_ids [batch, sequence_length], per layer past keys and values
[batch, kv_heads, past_sequence_length, head_dim]); the step must match
torch on the CPU reference, and `dfa-roofline --llm` must find the roles
and count the KV cache from the graph's own key/value heads (so GQA's two
KV heads give half of MHA's bytes).

BERT and GPT-2 are also quantized by onnxruntime's quantize_dynamic (int8
weights per output channel: DynamicQuantizeLinear and MatMulInteger) and
must match onnxruntime's run of the quantized model.

usage: test_hf_exports.py BUILD_DIR WORK_DIR [model ...]
Needs the project's environment (scripts/pyenv.sh: torch 2.x,
transformers). Prints one line per export and 'N passed, N failed'.
"""
import json
import os
import subprocess
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
    if name == "fnet":  # token mixing by a 2-d Fourier transform (ONNX DFT)
        m = T.FNetModel(T.FNetConfig(vocab_size=256, hidden_size=64, intermediate_size=128,
                                     num_hidden_layers=2, max_position_embeddings=64))
        return Hidden(m, "input_ids"), ids
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


MODELS = ["gpt2", "llama", "mistral", "qwen2", "bert", "vit", "fnet"]


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


DECODERS = ["gpt2", "llama", "mistral", "qwen2"]
QUANTIZED = ["bert", "gpt2"]


def check_quantized(name, bin_dir, work):
    """onnxruntime's quantize_dynamic of the opset-18 export (int8 weights
    per output channel: DynamicQuantizeLinear, MatMulInteger, the scales'
    Mul): dfa must match onnxruntime's run of the quantized model, on the
    CPU reference and through one target of each family."""
    import onnxruntime as ort
    from onnxruntime.quantization import QuantType, quantize_dynamic
    m, x = build(name)
    m.eval()
    path = os.path.join(work, name + ".opset18.onnx")
    qpath = os.path.join(work, name + ".int8.onnx")
    try:
        torch.onnx.export(m, (x,), path, dynamo=True, opset_version=18, verbose=False)
        # reduce_range (7-bit weights): onnxruntime's u8 x s8 kernels are
        # exact on every host then (without VNNI, AVX2 sums pairs of
        # products in int16, which 8-bit weights can saturate).
        quantize_dynamic(path, qpath, weight_type=QuantType.QInt8, per_channel=True,
                         reduce_range=True)
    except Exception as e:  # the exporter's or the quantizer's failure is not dfa's
        return False, "export or quantize_dynamic failed: %s" % str(e).splitlines()[0][:200]
    s = ort.InferenceSession(qpath, providers=["CPUExecutionProvider"])
    ref = s.run(None, {s.get_inputs()[0].name: x.numpy()})[0]
    np.save(os.path.join(work, name + ".in.npy"), x.numpy())
    ok, scale, detail = exports.run_cpu(qpath, bin_dir, work, name + ".int8", name + ".in.npy", ref)
    if scale is None:
        return False, detail
    simulated, how = exports.simulate_all(qpath, bin_dir, work, name, ref, scale)
    return ok and simulated, "against onnxruntime: " + detail + "; " + how


class DecoderStep(torch.nn.Module):
    """One decoder step, the KV cache as flat inputs and outputs."""

    def __init__(self, m, layers):
        super().__init__()
        self.m, self.layers = m, layers

    def forward(self, input_ids, *past):
        cache = T.DynamicCache()
        for i in range(self.layers):
            cache.update(past[2 * i], past[2 * i + 1], i)
        out = self.m(input_ids=input_ids, past_key_values=cache, use_cache=True)
        new = []
        for layer in out.past_key_values.layers[:self.layers]:
            new += [layer.keys, layer.values]
        return (out.logits, *new)


def roofline_llm(bin_dir, path):
    """dfa-roofline --llm's `llm` object for a decoder step (prefill and
    decode, batches 1 and 4, context 64, gpu-h100): (llm, None), or (None,
    why not)."""
    p = subprocess.run([os.path.join(bin_dir, "dfa-roofline"), path, "--llm", "prefill,decode",
                        "--batch", "1,4", "--context", "64", "--target", "gpu-h100", "--json"],
                       capture_output=True, text=True)
    try:
        return json.loads(p.stdout)["llm"], None
    except (ValueError, KeyError):
        return None, "dfa-roofline --llm exit %d: %s" % (p.returncode, p.stderr.strip()[-300:])


def check_llm(name, bin_dir, work):
    m, _ = build(name)
    lm = m.m
    cfg = lm.config
    layers = cfg.num_hidden_layers
    heads = cfg.num_attention_heads
    kv_heads = getattr(cfg, "num_key_value_heads", None) or heads
    head_dim = cfg.hidden_size // heads
    step = DecoderStep(lm, layers).eval()
    torch.manual_seed(1)
    B, S, P = 1, 4, 6
    ids = torch.randint(0, 256, (B, S))
    past = [torch.randn(B, kv_heads, P, head_dim) for _ in range(2 * layers)]
    with torch.no_grad():
        ref = step(ids, *past)[0].numpy()
    Dim = torch.export.Dim
    batch, seq, cached = Dim("batch"), Dim("sequence_length"), Dim("past_sequence_length")
    shapes = ({0: batch, 1: seq}, tuple({0: batch, 2: cached} for _ in range(2 * layers)))
    path = os.path.join(work, name + ".kv.onnx")
    try:
        torch.onnx.export(step, (ids, *past), path, dynamo=True, opset_version=18,
                          dynamic_shapes=shapes, verbose=False,
                          input_names=["input_ids"] + ["past_%d" % i for i in range(2 * layers)])
    except Exception as e:  # the exporter's failure is not dfa's
        return False, "torch.onnx.export failed: %s" % str(e).splitlines()[0][:200]
    files = []
    for i, t in enumerate([ids] + past):
        files.append(os.path.join(work, "%s.kv.in%d.npy" % (name, i)))
        np.save(files[-1], t.numpy())
    out = os.path.join(work, name + ".kv.out")
    p = subprocess.run([os.path.join(bin_dir, "dfa-run"), path, "--dim", "batch=%d" % B,
                        "--dim", "sequence_length=%d" % S, "--dim", "past_sequence_length=%d" % P,
                        "--inputs"] + files + ["--outputs", out], capture_output=True, text=True)
    if p.returncode != 0:
        return False, "dfa-run exit %d: %s" % (p.returncode, p.stderr.strip()[-300:])
    got = np.load(os.path.join(out, "output_0.npy"))
    err, scale = float(np.max(np.abs(got - ref))), float(np.max(np.abs(ref)))
    if got.shape != ref.shape or not err <= 1e-4 * scale:
        return False, "decoder step: max abs error %.3g of %.3g" % (err, scale)
    llm, why = roofline_llm(bin_dir, path)
    if llm is None:
        return False, why
    want = layers * 2 * kv_heads * head_dim * 4  # K and V per layer, f32
    if llm["kv_cache_bytes_per_token"] != want:
        return False, "KV cache %s B per token, the config gives %d" % (
            llm["kv_cache_bytes_per_token"], want)
    return True, ("decoder step max abs error %.2g (%.1e x max|output|); --llm: dims %s, "
                  "KV cache %d B per token (%d layers x K,V x %d KV heads x %d)" % (
                      err, err / scale, ",".join(sorted(llm["dims"].values())), want, layers,
                      kv_heads, head_dim))


def main():
    bin_dir, work = sys.argv[1], sys.argv[2]
    names = sys.argv[3:] or MODELS
    os.makedirs(work, exist_ok=True)
    cases = [("%s (dynamo, opset %d)" % (n, o), lambda n=n, o=o: check(n, o, bin_dir, work))
             for n in names for o in OPSETS]
    cases += [("%s (KV-cache step, --llm)" % n, lambda n=n: check_llm(n, bin_dir, work))
              for n in names if n in DECODERS]
    cases += [("%s (quantize_dynamic, int8)" % n, lambda n=n: check_quantized(n, bin_dir, work))
              for n in names if n in QUANTIZED]
    return exports.report(cases, "hf exports")


if __name__ == "__main__":
    sys.exit(main())
