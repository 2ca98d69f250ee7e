"""Writes a small hand-made PyTorch Profiler trace (Chrome JSON, as
torch.profiler's export_chrome_trace writes it with CUDA activities) of
examples/gpt_block.onnx's eager forward on a GPU: cpu_op events for the
aten operators (views among them, which launch nothing), the CUDA kernels
each launched (linked by "External id"), and nn.Module python_function
events around them. Times are made up but shaped like an H100's: small
kernels of a few microseconds, the GEMMs longest.

usage: gpu_trace.py OUT.json [--kernels-only | --cpu-only] [--label-proj]

--label-proj leaves out the first aten::linear (the qkv projection) and
wraps the attention's output projection in record_function("attn.proj"):
the label, not the order, then says which nodes it is.
"""
import json
import sys

out = sys.argv[1]
kernels_only = "--kernels-only" in sys.argv
cpu_only = "--cpu-only" in sys.argv  # a CPU trace: operators, no kernels
label_proj = "--label-proj" in sys.argv
# (operator, module chain, [(kernel, microseconds)]); no kernels: a view.
ops = [
    ("aten::layer_norm", "LayerNorm_0", [("void at::native::vectorized_layer_norm_kernel<float>", 3.1)]),
    ("aten::linear", "CausalSelfAttention_0/Linear_0", [("sm90_xmma_gemm_f32f32_tf32f32_f32_nn_n_tilesize64x64x32", 6.2)]),
    ("aten::split", "CausalSelfAttention_0", []),
    ("aten::view", "CausalSelfAttention_0", []),
    ("aten::transpose", "CausalSelfAttention_0", []),
    ("aten::matmul", "CausalSelfAttention_0", [("ampere_sgemm_32x32_sliced1x4_nn", 4.0)]),
    ("aten::div", "CausalSelfAttention_0", [("void at::native::vectorized_elementwise_kernel<4, at::native::BinaryFunctor>", 1.9)]),
    ("aten::masked_fill", "CausalSelfAttention_0", [("void at::native::elementwise_kernel<128, 2, masked_fill>", 2.2)]),
    ("aten::softmax", "CausalSelfAttention_0", [("void at::native::cunn_SoftMaxForward<4, float>", 2.8)]),
    ("aten::matmul", "CausalSelfAttention_0", [("ampere_sgemm_32x32_sliced1x4_nn", 3.9)]),
    ("aten::contiguous", "CausalSelfAttention_0", [("void at::native::elementwise_kernel<128, 4, copy>", 2.0)]),
    ("aten::linear", "CausalSelfAttention_0/Linear_1", [("sm90_xmma_gemm_f32f32_tf32f32_f32_nn_n_tilesize64x32x32", 5.1)]),
    ("aten::add", "", [("void at::native::vectorized_elementwise_kernel<4, at::native::AddFunctor>", 1.8)]),
    ("aten::layer_norm", "LayerNorm_1", [("void at::native::vectorized_layer_norm_kernel<float>", 3.0)]),
    ("aten::linear", "Sequential_0/Linear_2", [("sm90_xmma_gemm_f32f32_tf32f32_f32_nn_n_tilesize128x64x32", 7.4)]),
    ("aten::gelu", "Sequential_0/GELU_0", [("void at::native::vectorized_elementwise_kernel<4, GeluCUDAKernelImpl>", 2.4)]),
    ("aten::linear", "Sequential_0/Linear_3", [("sm90_xmma_gemm_f32f32_tf32f32_f32_nn_n_tilesize64x64x32", 7.0)]),
    ("aten::add", "", [("void at::native::vectorized_elementwise_kernel<4, at::native::AddFunctor>", 1.7)]),
]
events = [{"ph": "X", "cat": "python_function", "name": "nn.Module: GPTBlock_0",
           "pid": 1, "tid": 1, "ts": 0.0, "dur": 1000.0, "args": {}}]
if label_proj:
    ops = [o for o in ops if o[1] != "CausalSelfAttention_0/Linear_0"]
t, gpu, ext = 10.0, 20.0, 1
for name, module, kernels in ops:
    start = t
    if label_proj and module == "CausalSelfAttention_0/Linear_1":
        events.append({"ph": "X", "cat": "user_annotation", "name": "attn.proj",
                       "pid": 1, "tid": 1, "ts": start - 1, "dur": 28.0, "args": {}})
    if not kernels_only:
        if module:
            parts = module.split("/")
            for depth, m in enumerate(parts):
                events.append({"ph": "X", "cat": "python_function", "name": "nn.Module: " + m,
                               "pid": 1, "tid": 1, "ts": start - 2 + 0.1 * depth,
                               "dur": 30.0 - 0.2 * depth, "args": {}})
        events.append({"ph": "X", "cat": "cpu_op", "name": name, "pid": 1, "tid": 1,
                       "ts": start, "dur": 25.0, "args": {"External id": ext}})
        # A nested operator (aten::addmm under aten::linear) launches the kernel.
        events.append({"ph": "X", "cat": "cpu_op", "name": name + "_inner", "pid": 1,
                       "tid": 1, "ts": start + 1, "dur": 20.0,
                       "args": {"External id": ext + 1}})
    for kname, us in ([] if cpu_only else kernels):
        events.append({"ph": "X", "cat": "kernel", "name": kname, "pid": 0, "tid": 7,
                       "ts": gpu, "dur": us,
                       "args": {"External id": ext + 1, "correlation": ext + 1000}})
        gpu += us + 0.5
    t += 32
    ext += 2
json.dump({"schemaVersion": 1, "traceEvents": events}, open(out, "w"), indent=1)
