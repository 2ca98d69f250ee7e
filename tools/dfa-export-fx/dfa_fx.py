"""dfa_fx: export a torch.nn.Module to dfa's FX graph format (dfa.fx/1).

The graph goes to ``<out>.fx.json`` and the parameters and buffers to
``<out>.weights.bin``: raw little-endian tensors at the byte offsets the JSON
gives, or, with ``compress=True``, one zstd frame per tensor. The format is
specified in docs/fx-format.md.

    import dfa_fx
    dfa_fx.export(model, (torch.randn(1, 3, 224, 224),), "out/resnet")

Two capture methods:

- ``symbolic_trace``: ``torch.fx.symbolic_trace`` followed by shape
  propagation on the example inputs (what Debian's torch 1.13 has, and what
  torch 2.x keeps). Nodes are torch-level: modules, functions and methods.
- ``export``: ``torch.export.export`` (torch >= 2.1), decomposed to core
  ATen with torch's default decomposition table. Nodes are ATen operators
  (``aten.convolution.default``); parameters, buffers and lifted constants
  become ``get_attr`` nodes. Dynamic dims (``torch.export.Dim``) are kept as
  named symbolic sizes with their ranges.

``auto`` uses ``symbolic_trace`` and, on torch 2.x, falls back to ``export``
when the module cannot be traced.
"""

import contextlib
import dis
import inspect
import json
import operator
import os
import sys
import types

import torch
import torch.fx
from torch.fx.node import _get_qualified_name

SCHEMA = "dfa.fx/1"

_DTYPES = {
    torch.float64: "float64", torch.float32: "float32", torch.float16: "float16",
    torch.bfloat16: "bfloat16", torch.int64: "int64", torch.int32: "int32",
    torch.int16: "int16", torch.int8: "int8", torch.uint8: "uint8", torch.bool: "bool",
}
# Complex tensors: intermediates, dtype arguments and parameters (stored as
# their real view, torch.view_as_real's bytes); not graph inputs.
_COMPLEX = {torch.complex64: "complex64", torch.complex128: "complex128"}

# Module attributes the importer needs, by module class name.
_MODULE_ATTRS = {
    "Linear": ["in_features", "out_features"],
    "Conv1d": ["stride", "padding", "dilation", "groups", "padding_mode"],
    "Conv2d": ["stride", "padding", "dilation", "groups", "padding_mode"],
    "Conv3d": ["stride", "padding", "dilation", "groups", "padding_mode"],
    "ConvTranspose1d": ["stride", "padding", "output_padding", "dilation", "groups"],
    "ConvTranspose2d": ["stride", "padding", "output_padding", "dilation", "groups"],
    "ConvTranspose3d": ["stride", "padding", "output_padding", "dilation", "groups"],
    "BatchNorm1d": ["eps", "affine", "track_running_stats"],
    "BatchNorm2d": ["eps", "affine", "track_running_stats"],
    "BatchNorm3d": ["eps", "affine", "track_running_stats"],
    "InstanceNorm1d": ["eps", "affine", "track_running_stats"],
    "InstanceNorm2d": ["eps", "affine", "track_running_stats"],
    "InstanceNorm3d": ["eps", "affine", "track_running_stats"],
    "LayerNorm": ["normalized_shape", "eps", "elementwise_affine"],
    "Embedding": ["num_embeddings", "embedding_dim", "padding_idx"],
    "Dropout": ["p"],
    "GELU": ["approximate"],
    "Softmax": ["dim"],
    "LogSoftmax": ["dim"],
    "LeakyReLU": ["negative_slope"],
    "Hardtanh": ["min_val", "max_val"],
    "ReLU6": [],
    "MaxPool2d": ["kernel_size", "stride", "padding", "dilation", "ceil_mode",
                  "return_indices"],
    "AvgPool2d": ["kernel_size", "stride", "padding", "ceil_mode", "count_include_pad"],
    "AdaptiveAvgPool1d": ["output_size"],
    "AdaptiveAvgPool2d": ["output_size"],
    "AdaptiveAvgPool3d": ["output_size"],
    "Fold": ["output_size", "kernel_size", "dilation", "padding", "stride"],
    "Unfold": ["kernel_size", "dilation", "padding", "stride"],
    "PixelShuffle": ["upscale_factor"],
    "PixelUnshuffle": ["downscale_factor"],
    "Flatten": ["start_dim", "end_dim"],
    "Upsample": ["size", "scale_factor", "mode", "align_corners", "recompute_scale_factor"],
    "UpsamplingNearest2d": ["size", "scale_factor", "mode", "align_corners", "recompute_scale_factor"],
    "UpsamplingBilinear2d": ["size", "scale_factor", "mode", "align_corners", "recompute_scale_factor"],
    "MultiheadAttention": ["embed_dim", "num_heads", "batch_first", "dropout", "add_zero_attn"],
    "ELU": ["alpha"],
    "CELU": ["alpha"],
    "Softplus": ["beta", "threshold"],
    "Hardshrink": ["lambd"],
    "Softshrink": ["lambd"],
    "Threshold": ["threshold", "value"],
    "GLU": ["dim"],
    "Softmin": ["dim"],
    "RReLU": ["lower", "upper"],
    "PReLU": ["num_parameters"],
}

# The torch.nn modules the importer takes whole (a call_module node):
# those whose attributes it reads and those that need none. symbolic_trace
# keeps every torch.nn module as one node; any other one (GroupNorm, the
# Pad modules, InstanceNorm, RMSNorm, ...) is traced through into the
# functions its forward calls, so that the graph holds only targets the
# importer knows or names precisely.
_LEAF_MODULES = set(_MODULE_ATTRS) | {
    "NonDynamicallyQuantizableLinear", "Identity", "ReLU", "SiLU", "Sigmoid", "Tanh",
    "Hardswish", "Mish", "Softsign", "Hardsigmoid", "SELU", "LogSigmoid", "Softmax2d",
    "Tanhshrink", "Dropout1d", "Dropout2d", "Dropout3d", "AlphaDropout",
    "FeatureAlphaDropout",
}


# Runtime checks of shapes and values: they run on the example inputs while
# the graph is recorded, and are not exported.
_RUNTIME_CHECKS = {torch._assert} | ({torch._check} if hasattr(torch, "_check") else set())


class ExportError(Exception):
    """An export failure with the module and the reason."""


def _dtype(dt, where):
    if dt not in _DTYPES:
        raise ExportError("%s has unsupported dtype %s (dfa supports %s)"
                          % (where, dt, ", ".join(sorted(_DTYPES.values()))))
    return _DTYPES[dt]


def _encode(arg):
    """JSON for an FX argument: node references, literals and containers."""
    if isinstance(arg, torch.fx.Node):
        return {"node": arg.name}
    if arg is None or isinstance(arg, (bool, int, float, str)):
        # Non-finite floats, and integral ones (JSON cannot tell -2.0 from
        # -2 once parsed), are written as strings.
        if isinstance(arg, float) and (arg != arg or arg in (float("inf"), float("-inf"))
                                       or arg == int(arg)):
            return {"float": repr(arg)}
        return arg
    if isinstance(arg, (list, tuple)):
        return [_encode(a) for a in arg]
    if isinstance(arg, dict):
        return {"dict": {str(k): _encode(v) for k, v in arg.items()}}
    if isinstance(arg, slice):
        return {"slice": [_encode(arg.start), _encode(arg.stop), _encode(arg.step)]}
    if arg is Ellipsis:
        return {"ellipsis": True}
    if isinstance(arg, torch.dtype):
        return {"dtype": _COMPLEX[arg] if arg in _COMPLEX else _dtype(arg, "argument")}
    if isinstance(arg, (torch.device, torch.memory_format, torch.layout)):
        return {"opaque": str(arg)}
    raise ExportError("cannot encode argument %r of type %s" % (arg, type(arg).__name__))


class _Recorder(torch.fx.Interpreter):
    """Runs the graph on the example inputs, recording each node's value
    metadata, and names the node (and module) that fails."""

    def __init__(self, gm):
        super().__init__(gm)
        self.meta = {}
        self.sizes = _SymNames()  # symbolic_trace records concrete sizes
        # Calls of library functions that tracing kept opaque, with their
        # argument values: (node, args, kwargs).
        self.leaves = []

    def run_node(self, n):
        if _is_leaf_function(n):
            args, kwargs = self.fetch_args_kwargs_from_env(n)
            self.leaves.append((n, _mutable(args), _mutable(kwargs)))
        try:
            result = super().run_node(n)
        except ExportError:
            raise
        except Exception as e:  # torch raises many types; keep its message
            where = "node '%s'" % n.name
            if n.op == "call_module":
                mod = self.module.get_submodule(n.target)
                where = "module '%s' (%s)" % (n.target, type(mod).__name__)
            msg = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
            raise ExportError("%s failed on the example inputs: %s" % (where, msg))
        self.meta[n.name] = _meta(result, self.sizes)
        return result

    def call_function(self, target, args, kwargs):
        # A library function gets Python lists, as when the module runs: FX
        # hands its own immutable ones, which a function that edits its
        # argument (torchvision's Swin3d window sizes) cannot take.
        if _is_library_function(target):
            args, kwargs = _mutable(args), _mutable(kwargs)
        return super().call_function(target, args, kwargs)


def _mutable(v):
    """v with FX's immutable lists and dicts (at any depth) as plain ones."""
    if isinstance(v, list):
        return [_mutable(e) for e in v]
    if isinstance(v, tuple) and type(v) is tuple:
        return tuple(_mutable(e) for e in v)
    if isinstance(v, dict):
        return {k: _mutable(e) for k, e in v.items()}
    return v


@contextlib.contextmanager
def _unpacking_fix():
    """torch < 2.0 finds the UNPACK_SEQUENCE of `a, b = proxy` by indexing
    the instruction list with f_lasti // 2, which Python 3.11's inline
    caches break; look the instruction up by its offset instead."""
    Proxy = torch.fx.proxy.Proxy
    original = Proxy.__iter__

    def __iter__(self):
        frame = inspect.currentframe().f_back
        for inst in dis.get_instructions(frame.f_code):
            if inst.offset == frame.f_lasti:
                if inst.opname == "UNPACK_SEQUENCE":
                    return (self[i] for i in range(inst.argval))
                break
        return self.tracer.iter(self)

    patch = tuple(int(v) for v in torch.__version__.split(".")[:2]) < (2, 0)
    if patch:
        Proxy.__iter__ = __iter__
    try:
        yield
    finally:
        if patch:
            Proxy.__iter__ = original


class _Tracer(torch.fx.Tracer):
    """symbolic_trace's tracer, but buffers read in forward become get_attr
    nodes too (torch < 2.0 proxies parameters only), so that shape code can
    slice them (self.mask[:, :, :t, :t])."""

    def getattr(self, attr, attr_val, parameter_proxy_cache):
        if isinstance(attr_val, torch.Tensor) and not isinstance(attr_val, torch.nn.Parameter):
            for name, buf in self.root.named_buffers():
                if attr_val is buf:
                    if name not in parameter_proxy_cache:
                        parameter_proxy_cache[name] = self.create_proxy("get_attr", name, (), {})
                    return parameter_proxy_cache[name]
        return super().getattr(attr, attr_val, parameter_proxy_cache)

    def is_leaf_module(self, m, qualname):
        return (super().is_leaf_module(m, qualname) and
                type(m).__name__ in _LEAF_MODULES)


def _defaults(module, n_inputs, root_name):
    """forward's arguments past the example inputs, at their defaults: they
    are traced as constants."""
    try:
        params = list(inspect.signature(module.forward).parameters.values())
    except (TypeError, ValueError):
        return {}
    params = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    concrete = {}
    for p in params[n_inputs:]:
        if p.default is inspect.Parameter.empty:
            raise ExportError("module '%s' (%s): forward needs argument '%s'; give an "
                              "example input for it" % (root_name, type(module).__name__,
                                                        p.name))
        concrete[p.name] = p.default
    return concrete


def _drop_constant_args(gm, n_inputs, concrete):
    """Replaces the placeholders of arguments traced as constants by their
    values, dropping the checks symbolic_trace adds that they keep them."""
    extra = [n for n in gm.graph.nodes if n.op == "placeholder"][n_inputs:]
    def is_check(node):
        return node.op == "call_function" and "assert" in getattr(node.target, "__name__", "")

    for ph, value in zip(extra, concrete.values()):
        for user in list(ph.users):
            if is_check(user):
                gm.graph.erase_node(user)
            elif user.op == "call_function" and user.target is operator.eq and \
                    user.users and all(is_check(u) for u in user.users):
                # symbolic_trace checks a str/int default as eq -> _assert.
                for u in list(user.users):
                    gm.graph.erase_node(u)
                gm.graph.erase_node(user)
            else:
                user.args = torch.fx.node.map_arg(user.args, lambda a: value if a is ph else a)
                user.kwargs = torch.fx.node.map_arg(user.kwargs,
                                                    lambda a: value if a is ph else a)
        gm.graph.erase_node(ph)
    gm.recompile()


def _trace(module, root_name, n_inputs=None):
    concrete = _defaults(module, n_inputs, root_name) if n_inputs is not None else {}
    try:
        with _unpacking_fix():
            tracer = _Tracer()
            tracer.record_stack_traces = True  # each node's source line
            graph = tracer.trace(module, concrete_args=concrete or None)
            gm = torch.fx.GraphModule(tracer.root, graph, root_name)
    except ExportError:
        raise
    except torch.fx.proxy.TraceError as e:
        raise ExportError("module '%s' (%s) cannot be traced: %s (data-dependent "
                          "control flow: make the branch a static choice or "
                          "mark the function torch.fx.wrap)"
                          % (root_name, type(module).__name__, e))
    except Exception as e:
        raise ExportError("module '%s' (%s) cannot be traced: %s"
                          % (root_name, type(module).__name__, e))
    if concrete:
        _drop_constant_args(gm, n_inputs, concrete)
    return gm


def _torch_version():
    return tuple(int(v) for v in torch.__version__.split("+")[0].split(".")[:2])


def _first_line(e):
    text = str(e).strip()
    return text.splitlines()[0] if text else type(e).__name__


def _user_frame(trace):
    """The innermost frame of a stack trace outside torch and this exporter
    (the model's code): 'File "f.py", line 3, in g', or None."""
    lines = [l.strip() for l in (trace or "").strip().splitlines()
             if l.strip().startswith("File") and not l.strip().startswith('File "<')]
    skip = (os.path.dirname(torch.__file__) + os.sep, os.path.realpath(__file__),
            os.path.abspath(__file__))
    for l in reversed(lines):
        if not any(d in l for d in skip):
            return l
    return None


def _weights(named, compress):
    """The tensors table and the weight blobs, in the order given. A tensor
    held under several names (a tied embedding and LM head) is written once,
    every name pointing at the same bytes."""
    tensors, blobs, offset = {}, [], 0
    written = {}
    cctx = None
    if compress:
        import zstandard
        cctx = zstandard.ZstdCompressor(level=3)
    for name, t in named:
        key = (t.data_ptr(), tuple(t.shape), tuple(t.stride()), t.dtype) \
            if t.numel() and t.device.type != "meta" else None
        if key is not None and key in written:
            tensors[name] = dict(written[key])
            continue
        if t.dtype in _COMPLEX:
            dt, t = _COMPLEX[t.dtype], torch.view_as_real(t.detach().resolve_conj())
        else:
            dt = _dtype(t.dtype, "parameter '%s'" % name)
        data = t.detach().contiguous().cpu().numpy().tobytes() if t.dtype != torch.bfloat16 \
            else t.detach().contiguous().cpu().view(torch.int16).numpy().tobytes()
        shape = list(t.shape)[:-1] if dt in _COMPLEX.values() else list(t.shape)
        entry = {"dtype": dt, "shape": shape, "offset": offset, "nbytes": len(data)}
        if cctx is not None:
            data = cctx.compress(data)
            entry["stored_bytes"] = len(data)
        tensors[name] = entry
        if key is not None:
            written[key] = entry
        blobs.append(data)
        offset += len(data)
    return tensors, blobs


def _is_library_function(target):
    """A Python function outside torch (and outside Python's operators)."""
    if not isinstance(target, types.FunctionType):
        return False
    mod = getattr(target, "__module__", "") or ""
    return not (mod == "torch" or mod.startswith("torch.") or
                mod in ("_operator", "operator", "builtins", "math"))


def _is_leaf_function(n):
    """A call of a Python function outside torch that symbolic_trace kept
    as one node (a torch.fx.wrap-ped library helper)."""
    return n.op == "call_function" and _is_library_function(n.target)


def _functionalize(fn):
    """fn with its in-place updates made functional (torch.func on torch 2,
    functorch on 1.13), or fn itself where neither exists."""
    if hasattr(torch, "func") and hasattr(torch.func, "functionalize"):
        return torch.func.functionalize(fn, remove="mutations")
    try:
        from functorch import functionalize
    except ImportError:
        return fn
    return functionalize(fn, remove="mutations")


# Functions and methods whose result is always a new tensor, never an
# operand or a view of one: a tensor they make can be updated in place with
# no other value seeing it.
_FRESH = {
    "add", "sub", "mul", "div", "truediv", "floordiv", "floor_divide", "mod", "remainder",
    "fmod", "pow", "rsub", "neg", "abs", "exp", "expm1", "log", "log1p", "log2", "sqrt", "rsqrt",
    "sin", "cos", "tanh", "sigmoid", "relu", "gelu", "silu", "softmax", "log_softmax", "erf",
    "matmul", "mm", "bmm", "baddbmm", "addmm", "linear", "conv1d", "conv2d", "conv3d",
    "conv_transpose1d", "conv_transpose2d", "conv_transpose3d", "cat", "concat", "stack",
    "repeat", "repeat_interleave", "tile", "clone", "zeros", "ones", "full", "zeros_like",
    "ones_like", "full_like", "empty", "empty_like", "arange", "linspace", "tensor",
    "new_zeros", "new_ones", "new_full", "new_empty", "new_tensor", "where", "masked_fill",
    "sum", "mean", "amax", "amin", "prod", "einsum", "layer_norm", "group_norm", "batch_norm",
    "instance_norm", "interpolate", "pad", "cumsum", "cumprod", "maximum", "minimum", "clamp",
    "clip", "sign", "floor", "ceil", "round", "square", "roll", "flip", "gather",
    "index_select", "scatter", "scatter_add", "scatter_reduce", "embedding", "lerp",
    "addcmul", "addcdiv", "max_pool1d", "max_pool2d", "max_pool3d", "avg_pool1d",
    "avg_pool2d", "avg_pool3d", "adaptive_avg_pool1d", "adaptive_avg_pool2d",
    "adaptive_avg_pool3d", "scaled_dot_product_attention", "outer", "diff", "eq", "ne", "lt",
    "le", "gt", "ge", "logical_not", "logical_and", "logical_or", "bitwise_not", "invert",
    "and_", "or_", "xor", "sort", "topk", "nan_to_num", "hardtanh", "leaky_relu", "elu",
    "softplus", "mish", "hardswish", "hardsigmoid", "relu6", "normalize", "index_put", "iadd",
    "isub", "imul", "itruediv", "ifloordiv", "imod", "ipow", "iand", "ior", "ixor"}
# torch.nn modules that may return their input itself or a view of it.
_ALIASING_MODULES = {"Identity", "Dropout", "Dropout1d", "Dropout2d", "Dropout3d",
                     "AlphaDropout", "FeatureAlphaDropout", "Flatten", "Unflatten"}
_INPLACE_OPERATORS = {operator.iadd, operator.isub, operator.imul, operator.itruediv,
                      operator.ifloordiv, operator.imod, operator.ipow, operator.iand,
                      operator.ior, operator.ixor}


def _target_name(node):
    return node.target if isinstance(node.target, str) else getattr(node.target, "__name__", "")


def _fresh(gm, node):
    """Whether `node`'s value is a tensor nothing else shares storage with:
    a graph input, a parameter or buffer, or the result of an op that always
    allocates."""
    if node.op in ("placeholder", "get_attr"):
        return True
    if node.kwargs.get("inplace") is True or "out" in node.kwargs:
        return False
    if node.op == "call_module":
        m = gm.get_submodule(node.target)
        return type(m).__name__ not in _ALIASING_MODULES and not getattr(m, "inplace", False)
    if node.op == "call_function" and node.target in _INPLACE_OPERATORS:
        return False
    return node.op in ("call_function", "call_method") and _target_name(node) in _FRESH


def _updated(gm, n):
    """The tensor node that `n` updates in place (its result is then that
    tensor), or None: x.add_(...), x += y, F.relu(x, inplace=True),
    torch.relu_(x), nn.ReLU(inplace=True)(x)."""
    if not n.args or not isinstance(n.args[0], torch.fx.Node):
        return None
    if n.op == "call_method" and n.target.endswith("_") and not n.target.startswith("_"):
        return n.args[0]
    if n.op == "call_function":
        name = _target_name(n)
        if (n.target in _INPLACE_OPERATORS or n.kwargs.get("inplace") is True or
                (name.endswith("_") and not name.startswith("_") and
                 getattr(n.target, "__module__", "") in ("torch", "torch._C._VariableFunctions"))):
            return n.args[0]
    if n.op == "call_module" and getattr(gm.get_submodule(n.target), "inplace", False) is True:
        return n.args[0]
    return None


def _aliases(gm, x, owners, update):
    """The values that may share x's storage: x's base when x may be a view
    (or the same tensor) of its operands, and every value made from one of
    them by an op that may return a view or its operand, transitively (not
    through `update`, the node updating x)."""
    group, todo = {x}, [x]
    while todo:
        m = todo.pop()
        if m not in owners and not _fresh(gm, m):
            # A view, an update or an aliasing module shares its first
            # operand's storage; a library helper may share any argument's.
            bases = m.all_input_nodes if (m.op == "call_function" and _is_library_function(
                m.target)) else [a for a in m.args[:1] if isinstance(a, torch.fx.Node)]
            for a in bases:
                if a not in group:
                    group.add(a)
                    todo.append(a)
        for u in m.users:
            if u is update:
                continue
            if u.op != "output" and u not in group and u not in owners and not _fresh(gm, u):
                if _updated(gm, u) not in (None, m) and u.args[0] is not m:
                    continue  # updates another tensor, reading m
                group.add(u)
                todo.append(u)
    return group


def _seen_elsewhere(gm, x, n, order, owners):
    """The first node after `n` that reads a value made before n which
    shares x's storage, other than x itself (it would see n's in-place
    update of x; what derives from x after n reads the rebound result), or
    None."""
    for m in _aliases(gm, x, owners, n):
        if m is x or m is n or order.get(m, -1) >= order[n]:
            continue
        for u in m.users:
            if u is not n and order.get(u, -1) > order[n]:
                return u
    return None


def _functional_methods(gm):
    """Removes symbolic_trace's in-place updates: x.add_(y), x.zero_(),
    x.fill_(v), x += y, F.relu(x, inplace=True), nn.ReLU(inplace=True), ...
    The method forms become their out-of-place methods converted back to x's
    dtype (type_as); the nodes after an update read its result instead of x:
    the same values without mutation. Only where x is its storage's sole
    owner (fresh, with no view or alias of it taken): an update of a view,
    or of a tensor something aliases, would change those too. Such a method
    stays and the importer names it; a function or module form is refused
    here when the tensor is read afterwards."""
    order = {node: i for i, node in enumerate(gm.graph.nodes)}
    owners = set()  # results of rewritten updates: they own x's storage
    for n in list(gm.graph.nodes):
        x = _updated(gm, n)
        if x is None:
            continue
        later = [u for u in x.users if order.get(u, -1) > order[n]]
        elsewhere = _seen_elsewhere(gm, x, n, order, owners)
        if elsewhere is not None:
            # A method stays (the importer names it); a function or module
            # form would import as out-of-place, silently stale.
            if n.op != "call_method":
                raise ExportError(
                    "node '%s' updates '%s' in place, which shares its storage with a value "
                    "that '%s' reads afterwards (a view or an alias)"
                    % (n.name, x.name, elsewhere.name))
            continue
        typed = n
        if n.op == "call_method":
            name = n.target[:-1]
            if name == "zero":
                n.op, n.target, n.args, n.kwargs = "call_function", torch.zeros_like, (x,), {}
            elif name == "fill" and len(n.args) == 2 and isinstance(n.args[1], torch.fx.Node):
                n.target, n.args = "expand_as", (n.args[1], x)   # a 0-d tensor value
            elif name == "fill" and len(n.args) == 2:
                n.op, n.target = "call_function", torch.full_like
            elif hasattr(torch.Tensor, name) and name not in (
                    "copy", "resize", "resize_as", "set", "requires_grad", "share_memory"):
                n.target = name
            else:
                continue
        elif n.op == "call_function" and _target_name(n).endswith("_") and hasattr(
                torch, _target_name(n)[:-1]) and n.target not in _INPLACE_OPERATORS:
            n.target = getattr(torch, _target_name(n)[:-1])   # torch.relu_ -> torch.relu
        if n.op == "call_method" or n.target in _INPLACE_OPERATORS:
            # An in-place result keeps x's dtype (x.add_(f32) of an f16 x
            # is f16); the out-of-place one promotes.
            with gm.graph.inserting_after(n):
                typed = gm.graph.call_method("type_as", (n, x))
            for u in list(n.users):
                if u is not typed:
                    u.replace_input_with(n, typed)
        owners.add(typed)
        order[typed] = order[n] + 0.5
        for u in later:
            u.replace_input_with(x, typed)
    gm.graph.lint()
    gm.recompile()


def _inline_leaves(gm, leaves):
    """Traces each opaque library call into its body on the values it
    received (torch's make_fx, decomposed to core ATen), and splices the
    body into the graph in its place."""
    from torch.fx.experimental.proxy_tensor import make_fx
    from torch.utils import _pytree as pytree
    decomps = torch._decomp.core_aten_decompositions() if hasattr(
        torch._decomp, "core_aten_decompositions") else None
    for n, args, kwargs in leaves:
        flat, spec = pytree.tree_flatten((args, kwargs))
        tensor_at = [i for i, v in enumerate(flat) if isinstance(v, torch.Tensor)]
        arg_nodes, _ = pytree.tree_flatten((n.args, n.kwargs))

        def body(*tensors, flat=flat, spec=spec, target=n.target):
            vals = list(flat)
            for i, t in zip(tensor_at, tensors):
                vals[i] = t
            a, k = pytree.tree_unflatten(vals, spec)
            return target(*a, **k)

        try:
            # In-place updates (x[...] = v) become slice_scatter and copy.
            fn = _functionalize(body)
            # On copies: the body's in-place updates stay out of the model.
            sub = make_fx(fn, decomposition_table=decomps)(*[flat[i].clone() for i in tensor_at])
        except Exception as e:
            raise ExportError("node '%s' (%s) cannot be traced into: %s"
                              % (n.name, _get_qualified_name(n.target), _first_line(e)))
        # The tensor leaves of the call's arguments, as nodes of the graph.
        node_leaves = arg_nodes if len(arg_nodes) == len(flat) else None
        if node_leaves is None or not all(isinstance(node_leaves[i], torch.fx.Node)
                                          for i in tensor_at):
            raise ExportError("node '%s' (%s): its tensor arguments are not graph "
                              "values" % (n.name, _get_qualified_name(n.target)))
        env, phs = {}, iter(node_leaves[i] for i in tensor_at)
        order = {node: i for i, node in enumerate(gm.graph.nodes)}
        owned = {node_leaves[i]: _seen_elsewhere(gm, node_leaves[i], n, order, set()) is None
                 for i in tensor_at}
        written = {}  # the value written back -> its functional copy
        out = None
        with gm.graph.inserting_before(n):
            for sn in sub.graph.nodes:
                if (sn.op == "call_function" and sn.target is torch.ops.aten.copy_.default and
                        sn.args[0].op == "placeholder"):
                    # functionalize writes an argument the body updated in
                    # place back with copy_: the node is the value written
                    # (a functional copy), and what reads the argument after
                    # the call reads it (torchvision's MViT adds its
                    # shortcut in place). An argument something else shares
                    # storage with (a view, an alias taken before the call)
                    # would change too, which is refused.
                    arg = env[sn.args[0]]
                    if not owned.get(arg, False):
                        raise ExportError(
                            "node '%s' (%s) updates its argument '%s' in place, which shares "
                            "its storage with another value (a view or an alias)"
                            % (n.name, _get_qualified_name(n.target), arg.name))
                    env[sn] = gm.graph.call_function(torch.ops.aten.copy.default,
                                                     (arg, env[sn.args[1]]))
                    env[sn].name = gm.graph._graph_namespace.create_name(
                        "%s_%s" % (n.name, sn.name), None)
                    written[env[sn.args[1]]] = env[sn]
                    for u in [u for u in arg.users if order.get(u, -1) > order[n]]:
                        u.replace_input_with(arg, env[sn])
                    continue
                if sn.op == "placeholder":
                    env[sn] = next(phs)
                elif sn.op == "get_attr":
                    name = "%s.%s" % (n.name, sn.target)
                    gm.register_buffer(name.replace(".", "_"), getattr(sub, sn.target))
                    env[sn] = gm.graph.get_attr(name.replace(".", "_"))
                elif sn.op == "output":
                    # A helper that returns the argument it updated returns
                    # the argument: its copy, which later updates rebind.
                    out = torch.fx.node.map_arg(sn.args[0],
                                                lambda a: written.get(env[a], env[a]))
                else:
                    env[sn] = gm.graph.node_copy(sn, lambda a: env[a])
                    env[sn].name = gm.graph._graph_namespace.create_name(
                        "%s_%s" % (n.name, sn.name), None)
        if isinstance(out, torch.fx.Node):
            n.replace_all_uses_with(out)
        else:
            for user in list(n.users):
                if user.target is operator.getitem and isinstance(user.args[1], int):
                    user.replace_all_uses_with(out[user.args[1]])
                    gm.graph.erase_node(user)
            if n.users:
                raise ExportError("node '%s' (%s): its result is used whole" %
                                  (n.name, _get_qualified_name(n.target)))
        gm.graph.erase_node(n)
    gm.graph.lint()
    gm.recompile()


def _unchanged(a, b):
    """torch.equal, also for dtypes it has no kernel for (complex32): by bytes."""
    try:
        return torch.equal(a, b)
    except (RuntimeError, NotImplementedError):
        return torch.equal(a.contiguous().view(torch.uint8), b.contiguous().view(torch.uint8))


def _record(gm, example_inputs):
    """Runs gm on copies of the example inputs, its buffers restored after:
    an in-place update in the model changes neither the caller's inputs nor
    the weights that are exported."""
    rec = _Recorder(gm)
    saved = {name: b.clone() for name, b in gm.named_buffers()}
    try:
        with torch.no_grad():
            rec.output = rec.run(*[x.clone() for x in example_inputs])
    except ExportError as e:
        # torch.fx appends the node's trace to the message; keep ours.
        raise ExportError(str(e).split("\n\nWhile executing")[0].strip()) from None
    finally:
        with torch.no_grad():
            for name, b in gm.named_buffers():
                if not _unchanged(b, saved[name]):  # (an expanded constant is never written)
                    b.data = saved[name]
    return rec


def _tensors(v):
    """The tensors of a (nested) result, in order."""
    if isinstance(v, torch.Tensor):
        return [v]
    if isinstance(v, dict):
        v = list(v.values())
    if isinstance(v, (tuple, list)):
        return [t for e in v for t in _tensors(e)]
    return []


def _check_faithful(module, traced_output, example_inputs, root_name):
    """symbolic_trace records what Python code does to proxies, not what it
    does to tensors: an in-place update of a value something else aliases
    (`z = y; y += 1`, `v = x.view(...); v.mul_(2)` then x read) is recorded
    as out-of-place, and the graph then computes another result than the
    module. Run the module itself on the example inputs and refuse a graph
    whose result differs (the `auto` method then uses torch.export)."""
    saved = {name: b.clone() for name, b in module.named_buffers()}
    try:
        with torch.no_grad():
            eager = module(*[x.clone() for x in example_inputs])
    except Exception:  # the graph ran; a module that cannot run eagerly twice is not ours to judge
        return
    finally:
        with torch.no_grad():
            for name, b in module.named_buffers():
                if not _unchanged(b, saved[name]):
                    b.data = saved[name]
    got, want = _tensors(traced_output), _tensors(eager)
    bad = len(got) != len(want)
    for g, w in zip(got, want):
        if bad:
            break
        if g.shape != w.shape or g.dtype != w.dtype:
            bad = True
        elif g.is_floating_point() or g.is_complex():
            # A loose bound: what aliasing breaks is not an ulp or two (the
            # rewrite of in-place methods may round a half-precision value
            # once more).
            scale = float(w.abs().nan_to_num(0, 0, 0).max()) if w.numel() else 0.0
            rtol = max(1e-4, 16 * torch.finfo(w.dtype).eps)
            bad = not torch.allclose(g, w, rtol=rtol, atol=rtol * max(scale, 1e-30),
                                     equal_nan=True)
        else:
            bad = not torch.equal(g, w)
    if bad:
        raise ExportError("module '%s' (%s) cannot be traced faithfully: symbolic_trace's "
                          "graph computes another result than the module on the example "
                          "inputs (an in-place update of a value another one aliases, which "
                          "torch.fx records as out-of-place)" % (root_name, root_name))


def _capture_symbolic(module, example_inputs, root_name):
    """symbolic_trace: (nodes, named tensors, modules)."""
    gm = _trace(module, root_name, len(example_inputs))
    _functional_methods(gm)
    rec = _record(gm, example_inputs)
    if rec.leaves:
        _inline_leaves(gm, rec.leaves)
        rec = _record(gm, example_inputs)
    _check_faithful(module, rec.output, example_inputs, root_name)
    named = list(gm.named_parameters()) + list(gm.named_buffers())

    modules = {}
    nodes = []
    checks = []
    for n in gm.graph.nodes:
        if n.op == "call_function" and n.target in _RUNTIME_CHECKS and not n.users:
            checks.append(n.name)
            continue
        entry = {"name": n.name, "op": n.op}
        if n.op == "call_function":
            entry["target"] = str(n.target) if isinstance(
                n.target, torch._ops.OpOverload) else _get_qualified_name(n.target)
        elif n.op in ("call_module", "get_attr", "call_method", "placeholder"):
            entry["target"] = str(n.target)
        args = n.args
        if n.op == "call_function" and n.target is operator.getitem and len(args) == 2 \
                and isinstance(args[1], list) \
                and all(type(e) in (int, bool) for e in args[1]):
            # x[[0, 2]] indexes dim 0 by a list, x[(0, 2)] two dims; JSON
            # cannot tell a list from a tuple, and torch reads a list of
            # numbers x[[0, 2]] as x[([0, 2],)] (a list holding tensors,
            # slices or None it reads as the tuple).
            args = (args[0], (args[1],))
        entry["args"] = _encode(args)
        entry["kwargs"] = {k: _encode(v) for k, v in n.kwargs.items()}
        if n.op == "call_module":
            mod = gm.get_submodule(n.target)
            kind = type(mod).__name__
            entry["module_type"] = "%s.%s" % (type(mod).__module__, kind)
            if n.target not in modules:
                attrs = {}
                for a in _MODULE_ATTRS.get(kind, []):
                    v = getattr(mod, a)
                    attrs[a] = list(v) if isinstance(v, tuple) else v
                params = {p: "%s.%s" % (n.target, p)
                          for p, _ in list(mod.named_parameters()) +
                          list(mod.named_buffers())}
                modules[n.target] = {"type": kind, "attrs": attrs, "tensors": params}
        entry["module_path"] = n.target if n.op == "call_module" else \
            n.meta.get("nn_module_stack", None) and list(n.meta["nn_module_stack"])[-1]
        if entry["module_path"] is None:
            del entry["module_path"]
        meta = rec.meta.get(n.name)
        if meta is not None:
            entry["meta"] = meta
        stack = _user_frame(n.meta.get("stack_trace"))
        if stack:
            entry["stack"] = stack
        nodes.append(entry)
    if checks:
        print("dfa-export-fx: note: dropped %d runtime check%s (torch._assert: %s%s); they "
              "held on the example inputs" % (len(checks), "s" if len(checks) > 1 else "",
                                              checks[0], ", ..." if len(checks) > 1 else ""),
              file=sys.stderr)
    return nodes, named, modules, {}


class _SymNames:
    """Names torch.export's size symbols by the user's Dims and prints size
    expressions with them ('2*batch', 'seq + 1')."""

    def __init__(self):
        self.names = {}

    def name_inputs(self, placeholders, specs):
        for ph, spec in zip(placeholders, specs):
            val = ph.meta.get("val")
            if not isinstance(spec, dict) or not isinstance(val, torch.Tensor):
                continue
            for d, dim in spec.items():
                size = val.shape[d] if d < val.dim() else None
                name = getattr(dim, "__name__", None)
                if isinstance(size, torch.SymInt) and name and \
                        size.node.expr.is_Symbol:
                    self.names.setdefault(size.node.expr, name)

    def expr(self, v):
        if isinstance(v, getattr(torch, "SymInt", ())):  # torch 1.13 has none
            e = v.node.expr
            if e.is_number:
                return int(e)
            import sympy
            e = e.xreplace({s: sympy.Symbol(self.names.get(s, str(s)))
                            for s in e.free_symbols})
            return str(e)
        return int(v)


def _bound(v):
    """A range bound as an int, or None when it is unbounded (sympy's oo,
    torch's int_oo)."""
    try:
        f = float(v)
    except (TypeError, ValueError):
        return None
    return int(f) if f == f and abs(f) != float("inf") else None


def _meta(val, sym):
    """A node's recorded result: shape, dtype and stride (sizes printed by
    `sym`), the storage offset of a view, a list of these for tuples. An
    intermediate of a dtype dfa lacks is recorded as torch names it; the
    importer reports it at the node that needs it."""
    if isinstance(val, torch.Tensor):
        dt = _DTYPES.get(val.dtype, str(val.dtype).replace("torch.", ""))
        meta = {"shape": [sym.expr(d) for d in val.shape], "dtype": dt,
                "stride": [sym.expr(d) for d in val.stride()]}
        offset = sym.expr(val.storage_offset())
        if offset != 0:
            meta["storage_offset"] = offset
        return meta
    if isinstance(val, (tuple, list)) and any(isinstance(v, torch.Tensor) for v in val):
        return [_meta(v, sym) for v in val]
    return None


def _dynamic_specs(module, example_inputs, dynamic_shapes):
    """The dynamic_shapes argument as one entry per example input.

    torch.export takes it in the structure of forward's signature, by
    position or by parameter name; a *args parameter takes a tuple with one
    entry per input it gathers (a decoder step's forward(ids, *past))."""
    n = len(example_inputs)
    if dynamic_shapes is None:
        return [None] * n
    params = list(inspect.signature(module.forward).parameters.values())
    if isinstance(dynamic_shapes, dict):
        specs = [dynamic_shapes.get(p.name) for p in params]
    else:
        specs = list(dynamic_shapes)
    flat = []
    for i, spec in enumerate(specs):
        if i < len(params) and params[i].kind == inspect.Parameter.VAR_POSITIONAL:
            rest = n - len(flat)
            flat += list(spec) if isinstance(spec, (list, tuple)) else [spec] * rest
        else:
            flat.append(spec)
    return (flat + [None] * n)[:n]


def _structured_specs(module, n_inputs, dynamic_shapes):
    """dynamic_shapes in the structure torch.export wants: a flat tuple with
    one entry per example input (the CLI's --dynamic-dim) becomes forward's
    signature, the entries a *args parameter gathers as one tuple."""
    if not isinstance(dynamic_shapes, (list, tuple)) or len(dynamic_shapes) != n_inputs:
        return dynamic_shapes
    params = list(inspect.signature(module.forward).parameters.values())
    for i, p in enumerate(params[:n_inputs]):
        if p.kind == inspect.Parameter.VAR_POSITIONAL:
            if isinstance(dynamic_shapes[i], (list, tuple)):
                return dynamic_shapes  # already in the signature's structure
            return tuple(dynamic_shapes[:i]) + (tuple(dynamic_shapes[i:]),)
    return dynamic_shapes


def _capture_export(module, example_inputs, root_name, dynamic_shapes):
    """torch.export, decomposed to core ATen: (nodes, named tensors,
    modules, dims)."""
    if _torch_version() < (2, 1):
        raise ExportError("method 'export' needs torch.export (torch >= 2.1); "
                          "torch here is %s" % torch.__version__)
    from torch.export.graph_signature import InputKind, OutputKind
    dynamic_shapes = _structured_specs(module, len(example_inputs), dynamic_shapes)
    try:
        ep = torch.export.export(module, tuple(example_inputs),
                                 dynamic_shapes=dynamic_shapes, strict=False)
        ep = ep.run_decompositions()
    except Exception as e:  # torch raises many types; keep its first line
        raise ExportError("module '%s' (%s) cannot be exported by torch.export: %s"
                          % (root_name, type(module).__name__, _first_line(e)))
    sig = ep.graph_signature
    state, consts = ep.state_dict, ep.constants
    lifted, named, user = {}, [], []
    for spec in sig.input_specs:
        if spec.kind == InputKind.USER_INPUT:
            user.append(spec.arg.name)
        elif spec.kind in (InputKind.PARAMETER, InputKind.BUFFER,
                           InputKind.CONSTANT_TENSOR):
            t = state[spec.target] if spec.target in state else consts[spec.target]
            if not isinstance(t, torch.Tensor):
                raise ExportError("input '%s' (%s) is not a tensor"
                                  % (spec.target, spec.kind.name.lower()))
            lifted[spec.arg.name] = spec.target
            named.append((spec.target, t))
        else:
            raise ExportError("module '%s' (%s): torch.export input kind %s is "
                              "not supported" % (root_name, type(module).__name__,
                                                 spec.kind.name))
    outputs = [i for i, o in enumerate(sig.output_specs)
               if o.kind == OutputKind.USER_OUTPUT]

    sym = _SymNames()
    placeholders = [n for n in ep.graph.nodes if n.op == "placeholder" and n.name in user]
    sym.name_inputs(placeholders,
                    _dynamic_specs(module, example_inputs, dynamic_shapes))
    dims = {}
    for s, r in ep.range_constraints.items():
        name = sym.names.get(s, str(s))
        dims[name] = {"min": _bound(r.lower), "max": _bound(r.upper)}

    nodes = []
    for n in ep.graph.nodes:
        entry = {"name": n.name, "op": n.op}
        if n.op == "placeholder":
            if n.name in lifted:
                entry["op"], entry["target"] = "get_attr", lifted[n.name]
            else:
                entry["target"] = n.name
        elif n.op == "call_function":
            entry["target"] = str(n.target) if isinstance(
                n.target, torch._ops.OpOverload) else _get_qualified_name(n.target)
        elif n.op == "output":
            outs = n.args[0]
            n_args = ([outs[i] for i in outputs],)
        else:
            raise ExportError("node '%s': torch.export op '%s' is not supported"
                              % (n.name, n.op))
        args = n_args if n.op == "output" else n.args
        entry["args"] = _encode(args)
        entry["kwargs"] = {k: _encode(v) for k, v in n.kwargs.items()
                           if k not in ("device", "pin_memory", "layout")}
        stack = n.meta.get("nn_module_stack")
        if stack:
            path = list(stack.values())[-1][0]
            path = path.replace("L['self'].", "").replace("L['self']", "")
            if path and not path.startswith("_"):
                entry["module_path"] = path
        meta = _meta(n.meta.get("val"), sym)
        if meta is not None:
            entry["meta"] = meta
        where = _user_frame(n.meta.get("stack_trace"))
        if where:
            entry["stack"] = where
        nodes.append(entry)
    return nodes, named, {}, dims


def export(module, example_inputs, out, *, compress=False, method="auto",
           dynamic_shapes=None):
    """Exports `module` run on `example_inputs` (a tuple of tensors) to
    `out`.fx.json and `out`.weights.bin. Returns the JSON path.

    method: "symbolic_trace", "export" (torch.export to core ATen), or
    "auto" (symbolic_trace, and torch.export where tracing fails on torch
    2.x). dynamic_shapes: torch.export's argument (per input, a dict from
    dim to torch.export.Dim); those dims stay symbolic, by the Dim's name.
    """
    if isinstance(example_inputs, torch.Tensor):
        example_inputs = (example_inputs,)
    root_name = type(module).__name__
    if method not in ("auto", "symbolic_trace", "export"):
        raise ExportError("unknown capture method '%s' (expected auto, "
                          "symbolic_trace or export)" % method)
    if dynamic_shapes is not None and method != "export":
        raise ExportError("dynamic shapes need method 'export'")
    module = module.eval()
    for i, x in enumerate(example_inputs):
        if not isinstance(x, torch.Tensor):
            raise ExportError("example input %d is a %s, not a tensor" % (i, type(x).__name__))
        _dtype(x.dtype, "example input %d" % i)
    used = method
    if method == "export":
        captured = _capture_export(module, example_inputs, root_name, dynamic_shapes)
    else:
        try:
            captured = _capture_symbolic(module, example_inputs, root_name)
            used = "symbolic_trace"
        except ExportError as e:
            if method != "auto" or _torch_version() < (2, 1) or "cannot be traced" not in str(e):
                raise
            try:
                captured = _capture_export(module, example_inputs, root_name, None)
            except ExportError as e2:
                raise ExportError("%s; torch.export fails too: %s"
                                  % (e, str(e2).split(": ", 1)[-1])) from None
            print("dfa-export-fx: note: %s; exported with torch.export instead"
                  % str(e).split(" (data-dependent")[0], file=sys.stderr)
            used = "export"
    nodes, named, modules, dims = captured
    tensors, blobs = _weights(named, compress)

    doc = {
        "schema": SCHEMA,
        "producer": {"torch": torch.__version__, "method": used,
                     "module": root_name},
        "weights": {"file": os.path.basename(out) + ".weights.bin",
                    "compression": "zstd" if compress else "none",
                    "byte_order": "little"},
        "tensors": tensors,
        "modules": modules,
    }
    if dims:
        doc["dims"] = dims
    doc["nodes"] = nodes
    d = os.path.dirname(os.path.abspath(out))
    os.makedirs(d, exist_ok=True)
    with open(out + ".weights.bin", "wb") as f:
        for b in blobs:
            f.write(b)
    path = out + ".fx.json"
    with open(path, "w") as f:
        json.dump(doc, f, indent=1, sort_keys=False)
        f.write("\n")
    return path
