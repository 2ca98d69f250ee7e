#!/usr/bin/env python3
"""Models that onnxruntime's own tools rewrote, against onnxruntime.

Users bring ONNX files that onnxruntime's tools have already been through:
the transformer optimizer (`onnxruntime.transformers.optimizer`, which
fuses SkipLayerNormalization, Gelu, Attention ...), a session's saved
optimized graph (`SessionOptions.optimized_model_filepath` at the extended
level: FusedConv, FusedMatMul, FastGelu, QuickGelu ...), the 4-bit
weight quantizer (`MatMulNBitsQuantizer`: MatMulNBits) and the GenAI
model builder (`onnxruntime_genai.models.builder`: GroupQueryAttention with
rotary embedding and a KV cache, run as a prompt and as a decode step over
a past of other lengths per sequence; in float32, and its int4 CPU model,
whose MatMulNBits code A to int8 at accuracy_level 4, with and without a
tied embedding, which it gathers from the LM head's 4-bit weights:
GatherBlockQuantized; and a gpt-oss, whose experts are one MoE a layer). Each case here
builds a small model with seeded random weights (nothing is downloaded),
exports it with torch.onnx, runs the tool, and checks that:

  - the rewritten model holds the onnxruntime operators the case is for
    (so a change in the tools cannot make the test vacuous);
  - `dfa-run` on the CPU reference and through one target of each family
    gives onnxruntime's outputs for the same inputs, within TOL of the
    largest output value.

usage: test_ort_tools.py BUILD_DIR WORK_DIR [--models a,b] [--targets t1,t2]
"""
import argparse
import collections
import logging
import os
import subprocess
import sys
import warnings

import numpy as np
import onnx
import onnxruntime as ort
import torch

from qk_norm import unfuse_qk_norm

warnings.filterwarnings("ignore")
logging.disable(logging.INFO)  # the tools log every rewrite
TARGETS = ["gpu-h100", "tpu-v5e", "wse-2", "groq-tsp", "spyre"]
TOL = 2e-5
# A quantized network's output may differ from onnxruntime's by a step of
# its 8-bit scale: a float convolution between a dequantize and a quantize
# (the QDQ model keeps some) sums in another order, and a value on a
# rounding tie goes the other way (onnxruntime's own unfused QDQ model
# shows the same step against dfa). The QOperator form, all integer
# arithmetic, matches exactly.
CASE_TOL = {"resnet18-qdq-session": 0.025,
            # float16 end to end (float16's epsilon is 9.8e-4): onnxruntime's
            # CPU kernels compute some float16 ops in float32; measured
            # 1.1-1.4e-3, 2.0-2.7e-3 on Spyre (its device fp16 keeps 9
            # mantissa bits).
            "qwen3-genai-cuda": 5e-3}


def hf(name):
    import transformers as t
    small = dict(num_hidden_layers=2, num_attention_heads=4, intermediate_size=128,
                 vocab_size=100)
    if name == "bert":
        return t.BertModel(t.BertConfig(hidden_size=64, **small))
    if name == "gpt2":
        return t.GPT2Model(t.GPT2Config(n_embd=64, n_layer=2, n_head=4, vocab_size=100))
    if name == "llama":
        return t.LlamaModel(t.LlamaConfig(hidden_size=64, num_key_value_heads=2, **small))
    if name == "vit":
        return t.ViTModel(t.ViTConfig(hidden_size=64, image_size=32, patch_size=8,
                                      **{k: v for k, v in small.items() if k != "vocab_size"}))
    raise KeyError(name)


class ClassicBert(torch.nn.Module):
    """BERT as Hugging Face wrote it before SDPA (scores, an additive
    -10000 mask from the 0/1 attention mask, softmax, LayerNorm after each
    residual): the pattern onnxruntime's optimizer fuses into Attention
    (with the mask's key counts as its 1-d mask_index)."""

    H, N, V, P = 64, 4, 100, 32

    class Layer(torch.nn.Module):
        def __init__(self, H, N):
            super().__init__()
            self.H, self.N = H, N
            self.q, self.k, self.v, self.o = (torch.nn.Linear(H, H) for _ in range(4))
            self.ln1 = torch.nn.LayerNorm(H, eps=1e-12)
            self.ln2 = torch.nn.LayerNorm(H, eps=1e-12)
            self.f1, self.f2 = torch.nn.Linear(H, 4 * H), torch.nn.Linear(4 * H, H)

        def split(self, x):
            b, t, _ = x.shape
            return x.view(b, t, self.N, self.H // self.N).permute(0, 2, 1, 3)

        def forward(self, x, mask):
            q, k, v = self.split(self.q(x)), self.split(self.k(x)), self.split(self.v(x))
            a = torch.matmul(q, k.transpose(-1, -2)) / (self.H // self.N) ** 0.5 + mask
            c = torch.matmul(torch.softmax(a, -1), v).permute(0, 2, 1, 3).contiguous()
            c = c.view(c.size(0), c.size(1), self.H)
            x = self.ln1(self.o(c) + x)
            return self.ln2(self.f2(torch.nn.functional.gelu(self.f1(x))) + x)

    def __init__(self):
        super().__init__()
        H = self.H
        self.word = torch.nn.Embedding(self.V, H)
        self.pos = torch.nn.Embedding(self.P, H)
        self.typ = torch.nn.Embedding(2, H)
        self.ln = torch.nn.LayerNorm(H, eps=1e-12)
        self.layers = torch.nn.ModuleList(self.Layer(H, self.N) for _ in range(2))

    def forward(self, ids, mask, types):
        pos = torch.arange(ids.size(1)).unsqueeze(0)
        x = self.ln(self.word(ids) + self.pos(pos) + self.typ(types))
        m = (1.0 - mask[:, None, None, :].float()) * -10000.0
        for layer in self.layers:
            x = layer(x, m)
        return x


def save_hf_llama(path, tied=False, kind="llama"):
    """A small decoder saved as Hugging Face writes one (config, weights and
    a word-level tokenizer, which the builder copies): a Llama (`tied`: its
    embedding is its LM head's weights, as in Llama 3.2, Qwen2.5, Gemma)
    or, for `kind` "gptoss", a gpt-oss (a mixture of 4 experts, top 2,
    clamped SwiGLU with biases; a sliding layer of window 4 and a full
    one), or for "qwen3" a Qwen3 (per-head RMS norms of Q and K, with
    trained gains)."""
    import transformers as t
    from tokenizers import Tokenizer, models, pre_tokenizers
    if kind == "gptoss":
        cfg = t.GptOssConfig(hidden_size=64, num_hidden_layers=2, num_attention_heads=4,
                             num_key_value_heads=2, head_dim=16, intermediate_size=64,
                             num_local_experts=4, num_experts_per_tok=2, vocab_size=256,
                             max_position_embeddings=128, sliding_window=4)
        model = t.GptOssForCausalLM(cfg).eval()
    elif kind == "qwen3":
        cfg = t.Qwen3Config(hidden_size=128, num_hidden_layers=2, num_attention_heads=4,
                            num_key_value_heads=2, head_dim=32, intermediate_size=256,
                            vocab_size=256, max_position_embeddings=128)
        model = t.Qwen3ForCausalLM(cfg).eval()
    else:
        cfg = t.LlamaConfig(hidden_size=128, num_hidden_layers=2, num_attention_heads=4,
                            num_key_value_heads=2, intermediate_size=256, vocab_size=256,
                            max_position_embeddings=128, tie_word_embeddings=tied)
        model = t.LlamaForCausalLM(cfg).eval()
    g = torch.Generator().manual_seed(3)
    with torch.no_grad():
        for name, p in model.named_parameters():
            if (tied or kind == "qwen3") and "norm" in name:
                # Trained norm gains, not the initial ones: with every gain
                # 1 the first layer's A is the 4-bit embedding row over its
                # RMS, values on a lattice where A's int8 coding
                # (MatMulNBits' accuracy_level 4) meets exact rounding ties
                # (4/8 x 127 = 63.5), so that a one-ulp difference in the
                # norm's sum moves a code (docs/validation.md).
                p.copy_(0.5 + torch.rand(p.shape, generator=g))
            elif kind == "gptoss" and not p.abs().sum():
                # gpt-oss initializes its experts' weights and biases to 0.
                p.copy_(0.05 * torch.randn(p.shape, generator=g))
    model.save_pretrained(path)
    vocab = {"<unk>": 0, "<s>": 1, "</s>": 2}
    vocab.update({"w%d" % i: i for i in range(3, 256)})
    tk = Tokenizer(models.WordLevel(vocab=vocab, unk_token="<unk>"))
    tk.pre_tokenizer = pre_tokenizers.Whitespace()
    t.PreTrainedTokenizerFast(tokenizer_object=tk, bos_token="<s>", eos_token="</s>",
                              unk_token="<unk>").save_pretrained(path)


def export(name, path, dynamo):
    torch.manual_seed(0)
    if name in ("hf-llama", "hf-llama-tied", "hf-gptoss", "hf-qwen3"):
        save_hf_llama(path, tied=name == "hf-llama-tied",
                      kind={"hf-gptoss": "gptoss", "hf-qwen3": "qwen3"}.get(name, "llama"))
        return
    if name == "classic-bert":
        ids = torch.randint(0, 100, (2, 8))
        torch.onnx.export(ClassicBert().eval(), (ids, torch.ones_like(ids), torch.zeros_like(ids)),
                          path, dynamo=False, opset_version=17,
                          input_names=["input_ids", "attention_mask", "token_type_ids"])
        return
    if name == "resnet18":
        import torchvision
        m = torchvision.models.resnet18(num_classes=10).eval()
        args, kwargs = (torch.randn(1, 3, 64, 64),), {}
    else:
        m = hf(name).eval()
        if name == "vit":
            args, kwargs = (torch.randn(1, 3, 32, 32),), {}
        else:
            args, kwargs = (), {"input_ids": torch.randint(0, 100, (1, 8)), "use_cache": False}
    torch.onnx.export(m, args, path, kwargs=kwargs, dynamo=dynamo,
                      opset_version=18 if dynamo else 17)


def transformer_optimizer(name, src, dst):
    from onnxruntime.transformers.optimizer import optimize_model
    kind = {"bert": "bert", "classic-bert": "bert", "vit": "vit"}.get(name, "gpt2")
    optimize_model(src, model_type=kind, num_heads=4, hidden_size=64,
                   opt_level=1).save_model_to_file(dst)


def session_extended(name, src, dst):
    so = ort.SessionOptions()
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_EXTENDED
    so.optimized_model_filepath = dst
    ort.InferenceSession(src, so, providers=["CPUExecutionProvider"])


def nbits(name, src, dst):
    from onnxruntime.quantization.matmul_nbits_quantizer import MatMulNBitsQuantizer
    q = MatMulNBitsQuantizer(onnx.load(src), bits=4, block_size=32, is_symmetric=False)
    q.process()
    onnx.save(q.model.model, dst)


def static_quantizer(fmt):
    """onnxruntime's static quantization (8-bit, calibrated on four seeded
    images), in the QOperator format or as QDQ pairs that a session then
    fuses (the extended level)."""
    def tool(name, src, dst):
        from onnxruntime.quantization import CalibrationDataReader, QuantFormat, quantize_static
        from onnxruntime.quantization.shape_inference import quant_pre_process

        class Images(CalibrationDataReader):
            def __init__(self, model):
                i = model.graph.input[0]
                shape = [d.dim_value for d in i.type.tensor_type.shape.dim]
                self.batches = iter([{i.name: np.random.default_rng(k).standard_normal(shape)
                                      .astype(np.float32)} for k in range(4)])

            def get_next(self):
                return next(self.batches, None)

        pre = dst + ".pre.onnx"
        quant_pre_process(src, pre)
        q = dst if fmt == "qop" else dst + ".qdq.onnx"
        quantize_static(pre, q, Images(onnx.load(pre)),
                        quant_format=QuantFormat.QOperator if fmt == "qop" else QuantFormat.QDQ)
        if fmt != "qop":
            session_extended(name, q, dst)
    return tool


def dynamic_quantizer(name, src, dst):
    """onnxruntime's dynamic quantization (int8 weights, activations
    quantized at run time), then a session's extended-level fusions."""
    from onnxruntime.quantization import QuantType, quantize_dynamic
    # reduce_range: 7-bit weights, so that onnxruntime's u8 x s8 kernels on
    # a host without VNNI (AVX2's vpmaddubsw sums pairs in int16, which
    # saturates at 255 x 127 x 2) compute the exact products dfa does; with
    # 8-bit weights its answer depends on the host's CPU (5e-2 apart on an
    # AVX2-only AMD EPYC).
    quantize_dynamic(src, dst + ".dyn.onnx", weight_type=QuantType.QInt8, reduce_range=True)
    session_extended(name, dst + ".dyn.onnx", dst)


def genai_builder(name, src, dst, precision="fp32", extra=(), ep="cpu"):
    out = os.path.join(os.path.dirname(dst), "genai")
    p = subprocess.run([sys.executable, "-m", "onnxruntime_genai.models.builder", "-i", src,
                        "-o", out, "-p", precision, "-e", ep, "-c", os.path.join(out, "cache")]
                       + (["--extra_options", *extra] if extra else []),
                       capture_output=True, text=True)
    if p.returncode:
        raise RuntimeError("the GenAI builder failed: " + p.stderr[-300:])
    model = onnx.load(os.path.join(out, "model.onnx"), load_external_data=False)
    onnx.save(model, dst)  # the weights stay in genai/model.onnx.data
    os.replace(os.path.join(out, "model.onnx.data"),
               os.path.join(os.path.dirname(dst), "model.onnx.data"))


# name: (model, dynamo export, tool, onnxruntime ops the result must hold)
CASES = {
    "bert-optimizer": ("bert", True, transformer_optimizer,
                       {"SkipLayerNormalization", "Gelu"}),
    "classic-bert-optimizer": ("classic-bert", False, transformer_optimizer,
                               {"Attention", "SkipLayerNormalization", "Gelu"}),
    "bert-session": ("bert", True, session_extended,
                     {"SkipLayerNormalization", "FusedMatMul", "FusedGemm"}),
    "gpt2-session": ("gpt2", True, session_extended, {"FastGelu", "FusedMatMul"}),
    "llama-optimizer": ("llama", True, transformer_optimizer,
                        {"SimplifiedLayerNormalization", "SkipSimplifiedLayerNormalization"}),
    "llama-session": ("llama", True, session_extended, {"QuickGelu", "FusedMatMul"}),
    "llama-4bit": ("llama", True, nbits, {"MatMulNBits"}),
    "vit-optimizer": ("vit", False, transformer_optimizer, {"SkipLayerNormalization", "Gelu"}),
    "vit-session": ("vit", True, session_extended, {"FusedMatMul", "FusedGemm"}),
    "resnet18-session": ("resnet18", False, session_extended, {"FusedConv"}),
    "resnet18-qoperator": ("resnet18", False, static_quantizer("qop"),
                           {"QLinearConv", "QLinearAdd", "QLinearGlobalAveragePool", "QGemm"}),
    "resnet18-qdq-session": ("resnet18", False, static_quantizer("qdq"),
                             {"QLinearConv", "QLinearGlobalAveragePool", "QGemm"}),
    "classic-bert-dynamic": ("classic-bert", False, dynamic_quantizer,
                             {"MatMulIntegerToFloat", "DynamicQuantizeMatMul"}),
    "llama-genai": ("hf-llama", False, genai_builder,
                    {"GroupQueryAttention", "SkipSimplifiedLayerNormalization"}),
    # The builder's int4 CPU model: MatMulNBits at accuracy_level 4, where
    # onnxruntime codes each product's A to int8 by blocks.
    "llama-genai-int4": ("hf-llama", False,
                         lambda name, src, dst: genai_builder(name, src, dst, "int4"),
                         {"GroupQueryAttention", "MatMulNBits"}),
    # The same with a tied embedding: the builder gathers the embedding from
    # the LM head's 4-bit weights (GatherBlockQuantized).
    "llama-tied-genai-int4": ("hf-llama-tied", False,
                              lambda name, src, dst: genai_builder(name, src, dst, "int4"),
                              {"GatherBlockQuantized", "MatMulNBits"}),
    # gpt-oss in float32: each layer's experts one MoE (top 2 of 4,
    # clamped SwiGLU with biases); its sliding layer keeps a window-sized
    # cache (GroupQueryAttention's sliding_window_cache, the builder's
    # default).
    "gptoss-genai": ("hf-gptoss", False, genai_builder, {"MoE", "GroupQueryAttention"}),
    # Qwen3 built for CUDA in float16: the builder fuses its Q/K norms into
    # GroupQueryAttention (q_norm_weight, k_norm_weight), which onnxruntime's
    # CPU kernel rejects; the reference runs the same model with the norms
    # unfused (REFERENCE).
    "qwen3-genai-cuda": ("hf-qwen3", False,
                         lambda name, src, dst: genai_builder(name, src, dst, "fp16", ep="cuda"),
                         {"GroupQueryAttention"}),
}
# Dynamic dims of a case's inputs, one run each (B sequences of S new
# tokens after a past of P): a prompt, and a decode step with one
# sequence padded (its attention mask's last past position 0).
SCENARIOS = {
    "llama-genai": [dict(batch_size=2, sequence_length=6, past_sequence_length=0, kv_cache_dim=32),
                    dict(batch_size=2, sequence_length=1, past_sequence_length=7, kv_cache_dim=32)],
}
SCENARIOS["llama-genai-int4"] = SCENARIOS["llama-genai"]
SCENARIOS["qwen3-genai-cuda"] = SCENARIOS["llama-genai"]
SCENARIOS["llama-tied-genai-int4"] = SCENARIOS["llama-genai"]
# The sliding layer's cache holds its window of 4 (the builder adds no
# slack); after a past of 7 it holds the latest 4 positions.
SCENARIOS["gptoss-genai"] = [dict(d, kv_cache_dim=16, past_sliding_length=4)
                             for d in SCENARIOS["llama-genai"]]
# LLM mode on a case's model (dfa-roofline --llm): its extra flags, the
# KV cache bytes per token it must find (2 x full layers x KV heads x head
# x 4 B) and the bytes a sequence holds in window-sized caches (2 x
# sliding layers x KV heads x window x head x 4 B). The GenAI builder
# names the cache's head dim (kv_cache_dim), and the attention's whole
# length total_sequence_length, which LLM mode binds to the cache plus the
# new tokens.
LLM_CHECKS = {"gptoss-genai": (["--dim", "kv_cache_dim=16"], 2 * 1 * 2 * 16 * 4,
                               2 * 1 * 2 * 4 * 16 * 4)}
# An attribute a case is for: (operator, attribute, value) that some node of
# the rewritten model must have.
ATTRS = {"llama-genai-int4": ("MatMulNBits", "accuracy_level", 4),
         "gptoss-genai": ("GroupQueryAttention", "sliding_window_cache", 1)}


def feeds_for(model, dims):
    """Inputs for `model` in its input order, its dynamic dims from `dims`
    (total_sequence_length is the past plus the new tokens)."""
    g = np.random.default_rng(1)
    inits = {i.name for i in model.graph.initializer}
    feeds = {}
    for i in model.graph.input:
        if i.name in inits:
            continue
        tt = i.type.tensor_type
        shape = [d.dim_value or dims.get(d.dim_param, 1) for d in tt.shape.dim]
        dt = onnx.helper.tensor_dtype_to_np_dtype(tt.elem_type)
        if "mask" in i.name:
            # The last sequence padded: its last two keys masked.
            feeds[i.name] = np.ones(shape, dt)
            if dims.get("past_sequence_length", 0) > 1 and shape[0] > 1:
                # A decode step of a left-padded batch: the last sequence's
                # first past position is padding.
                feeds[i.name][-1, 0] = 0
            elif len(shape) == 2 and shape[0] > 1 and shape[1] > 2 and not dims:
                feeds[i.name][-1, -2:] = 0
        elif "type" in i.name:  # token types: segment 0 or 1
            feeds[i.name] = g.integers(0, 2, shape).astype(dt)
        elif np.issubdtype(dt, np.integer):
            feeds[i.name] = g.integers(0, 100, shape).astype(dt)
        else:
            feeds[i.name] = g.standard_normal(shape).astype(dt)
    return feeds


def shared_buffer_rows(model, feeds, ref):
    """The present caches as with past and present one buffer (the GenAI
    runtime's past_present_share_buffer), as dfa computes them: a
    sequence's rows after its T keys (T = its attention mask's sum) keep
    the past's rows, where onnxruntime given two buffers zeroes them."""
    mask = next((v for k, v in feeds.items() if "mask" in k and v.ndim == 2), None)
    if mask is None:
        return
    for out, r in zip(model.graph.output, ref):
        past = feeds.get(out.name.replace("present", "past_key_values"))
        if not out.name.startswith("present") or r.ndim != 4 or past is None:
            continue
        for b, t in enumerate(mask.sum(1)):
            r[b, :, t:] = 0
            r[b, :, t:past.shape[2]] = past[b, :, t:r.shape[2]]


def run_case(case, build, work, targets):
    name, dynamo, tool, want = CASES[case]
    d = os.path.join(work, case)
    os.makedirs(d, exist_ok=True)
    src, dst = os.path.join(d, "model.onnx"), os.path.join(d, "rewritten.onnx")
    export(name, src, dynamo)
    tool(name, src, dst)
    model = onnx.load(dst, load_external_data=False)
    ops = collections.Counter(n.op_type for n in model.graph.node
                              if n.domain == "com.microsoft" or n.op_type in want)
    if not want <= set(ops):
        return ["%s: the tool made %s, not %s" % (case, dict(ops), sorted(want - set(ops)))]
    if case in ATTRS:
        op, attr, value = ATTRS[case]
        if not any(n.op_type == op and any(a.name == attr and onnx.helper.get_attribute_value(a) == value
                                           for a in n.attribute) for n in model.graph.node):
            return ["%s: no %s with %s %s" % (case, op, attr, value)]
    if case in INPUTS:
        op, slot = INPUTS[case]
        if not any(n.op_type == op and len(n.input) > slot and n.input[slot] for n in model.graph.node):
            return ["%s: no %s with input %d" % (case, op, slot)]
    errors = []
    for dims in SCENARIOS.get(case, [{}]):
        errors += run_scenario(case, build, d, dst, model, ops, dict(dims), targets)
    if case in LLM_CHECKS:
        errors += llm_check(case, build, dst)
    return errors


def llm_check(case, build, dst):
    """dfa-roofline --llm on the model: every prefill and decode point runs
    and the cache is the model's."""
    import json
    flags, kv_bytes, window_bytes = LLM_CHECKS[case]
    p = subprocess.run([os.path.join(build, "dfa-roofline"), dst, "--target", "gpu-h100", "--llm",
                        "prefill,decode", "--batch", "1,4", "--context", "16", *flags, "--json"],
                       capture_output=True, text=True)
    if p.returncode:
        return ["%s --llm: exit %d: %s" % (case, p.returncode, p.stderr.strip()[-300:])]
    llm = json.loads(p.stdout)["llm"]
    points = llm["targets"][0]["points"]
    bad = [pt.get("error", "no time") for pt in points if "error" in pt or not pt["seconds"] > 0]
    window = llm["kv_cache"]["window_bytes_per_sequence"]
    if bad or len(points) != 4 or llm["kv_cache_bytes_per_token"] != kv_bytes or window != window_bytes:
        return ["%s --llm: %d points, %d failed (%s), KV %s B a token (want %d), %s B a sequence "
                "in windows (want %d)" % (case, len(points), len(bad), bad[:1],
                                          llm["kv_cache_bytes_per_token"], kv_bytes, window,
                                          window_bytes)]
    print("  %-22s --llm     prefill and decode at batch 1 and 4: KV %d B a token and %d B a "
          "sequence, decode %.3g ms" % (case, kv_bytes, window, 1e3 * points[-1]["seconds"]))
    return []


# An input a case is for: (operator, input index) that some node of the
# rewritten model must have.
INPUTS = {"qwen3-genai-cuda": ("GroupQueryAttention", 14)}
# Cases whose reference is onnxruntime on another form of the same model.
REFERENCE = {"qwen3-genai-cuda": unfuse_qk_norm}


def run_scenario(case, build, d, dst, model, ops, dims, targets):
    if dims:
        dims["total_sequence_length"] = dims["past_sequence_length"] + dims["sequence_length"]
    feeds = feeds_for(model, dims)
    so = ort.SessionOptions()
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    ref_path = dst
    if case in REFERENCE:
        ref_path = os.path.join(d, "reference.onnx")
        onnx.save(REFERENCE[case](onnx.load(dst, load_external_data=False)), ref_path)
    ref = ort.InferenceSession(ref_path, so, providers=["CPUExecutionProvider"]).run(None, feeds)
    shared_buffer_rows(model, feeds, ref)
    paths = []
    for k, v in feeds.items():
        p = os.path.join(d, "input_%d.npy" % len(paths))
        np.save(p, v)
        paths.append(p)
    flags = [f for k, v in dims.items() for f in ("--dim", "%s=%d" % (k, v))]
    label = case + ("" if not dims else " S=%d P=%d" % (dims["sequence_length"],
                                                        dims["past_sequence_length"]))
    errors = []
    for t in ["cpu"] + targets:
        out = os.path.join(d, "out-" + t)
        p = subprocess.run([os.path.join(build, "dfa-run"), dst, "--target", t, "--inputs",
                            *paths, "--outputs", out, *flags], capture_output=True, text=True)
        if p.returncode:
            errors.append("%s on %s: exit %d: %s" % (label, t, p.returncode, p.stderr.strip()[-300:]))
            continue
        worst = 0.0
        for k, r in enumerate(ref):
            a = np.load(os.path.join(out, "output_%d.npy" % k))
            if a.shape != r.shape:
                errors.append("%s on %s: output %d is %s, onnxruntime's %s" % (label, t, k, a.shape, r.shape))
                continue
            worst = max(worst, float(np.abs(a.astype(np.float64) - r).max() / max(1e-30, np.abs(r).max())))
        if worst > CASE_TOL.get(case, TOL):
            errors.append("%s on %s: error %.2e of max|output|" % (label, t, worst))
        print("  %-22s %-9s %s  error %.1e" % (label, t, " ".join(
            "%s x%d" % (k, v) for k, v in sorted(ops.items())), worst))
    return errors


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("build")
    ap.add_argument("work")
    ap.add_argument("--models", default=",".join(CASES))
    ap.add_argument("--targets", default=",".join(TARGETS))
    a = ap.parse_args()
    targets = [t for t in a.targets.split(",") if t]
    passed = failed = 0
    for case in a.models.split(","):
        try:
            errors = run_case(case, a.build, a.work, targets)
        except Exception as e:  # a tool or export that broke is a failure too
            errors = ["%s: %s: %s" % (case, type(e).__name__, str(e)[:300])]
        for e in errors:
            print("FAIL " + e)
        passed, failed = passed + (not errors), failed + bool(errors)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
