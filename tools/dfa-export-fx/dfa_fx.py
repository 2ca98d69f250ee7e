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
    "MaxPool2d": ["kernel_size", "stride", "padding", "dilation", "ceil_mode"],
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
        return {"dtype": _dtype(arg, "argument")}
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
    """The tensors table and the weight blobs, in the order given."""
    tensors, blobs, offset = {}, [], 0
    cctx = None
    if compress:
        import zstandard
        cctx = zstandard.ZstdCompressor(level=3)
    for name, t in named:
        dt = _dtype(t.dtype, "parameter '%s'" % name)
        data = t.detach().contiguous().cpu().numpy().tobytes() if t.dtype != torch.bfloat16 \
            else t.detach().contiguous().cpu().view(torch.int16).numpy().tobytes()
        entry = {"dtype": dt, "shape": list(t.shape), "offset": offset, "nbytes": len(data)}
        if cctx is not None:
            data = cctx.compress(data)
            entry["stored_bytes"] = len(data)
        tensors[name] = entry
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


_VIEWS = {"getitem", "view", "reshape", "transpose", "permute", "narrow", "select",
          "squeeze", "unsqueeze", "expand", "t", "flatten", "unflatten", "split", "chunk",
          "unbind", "contiguous", "view_as", "reshape_as", "swapaxes", "movedim",
          "as_strided", "diagonal", "detach", "T", "mT", "real", "imag"}


def _may_alias(node):
    """Whether `node`'s value may share storage with another graph value (a
    view: updating it in place would change its base too)."""
    name = node.target if isinstance(node.target, str) else getattr(node.target, "__name__", "")
    return node.op in ("call_method", "call_function") and (
        name in _VIEWS or name.split(".")[-1] in _VIEWS)


def _functional_methods(gm):
    """Rewrites symbolic_trace's in-place tensor methods (x.add_(y),
    x.mul_(s), x.zero_(), x.fill_(v), ...) as their out-of-place forms, the
    nodes after one reading the result instead of x: the same values
    without mutation. An update of a view is left as it is (the importer
    names it as unsupported): its base would change too."""
    order = {node: i for i, node in enumerate(gm.graph.nodes)}
    for n in list(gm.graph.nodes):
        if (n.op != "call_method" or not n.target.endswith("_") or n.target.startswith("_") or
                not n.args or not isinstance(n.args[0], torch.fx.Node) or _may_alias(n.args[0])):
            continue
        name, self_ = n.target[:-1], n.args[0]
        if name == "zero":
            n.op, n.target, n.args, n.kwargs = "call_function", torch.zeros_like, (self_,), {}
        elif name == "fill" and len(n.args) == 2:
            n.op, n.target = "call_function", torch.full_like
        elif hasattr(torch.Tensor, name) and name not in ("copy", "resize", "set", "requires_grad"):
            n.target = name
        else:
            continue
        users = [u for u in self_.users if order.get(u, -1) > order[n]]
        # An in-place result keeps x's dtype (x.add_(f32) of an f16 x is
        # f16); the out-of-place one promotes.
        with gm.graph.inserting_after(n):
            typed = gm.graph.call_method("type_as", (n, self_))
        for u in list(n.users):
            if u is not typed:
                u.replace_input_with(n, typed)
        for u in users:
            u.replace_input_with(self_, typed)
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
            sub = make_fx(fn, decomposition_table=decomps)(*[flat[i] for i in tensor_at])
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
        out = None
        with gm.graph.inserting_before(n):
            for sn in sub.graph.nodes:
                if (sn.op == "call_function" and sn.target is torch.ops.aten.copy_.default and
                        sn.args[0].op == "placeholder"):
                    # functionalize writes an argument the body updated in
                    # place back with copy_: the node is the value written
                    # (a functional copy), and what reads the argument after
                    # the call reads it (torchvision's MViT adds its
                    # shortcut in place). A view's update would change its
                    # base too, which is refused.
                    arg = env[sn.args[0]]
                    env[sn] = gm.graph.call_function(torch.ops.aten.copy.default,
                                                     (arg, env[sn.args[1]]))
                    env[sn].name = gm.graph._graph_namespace.create_name(
                        "%s_%s" % (n.name, sn.name), None)
                    later = [u for u in arg.users if order.get(u, -1) > order[n]]
                    if later and _may_alias(arg):
                        raise ExportError(
                            "node '%s' (%s) updates its argument '%s' in place, a view that "
                            "'%s' reads afterwards" % (n.name, _get_qualified_name(n.target),
                                                       arg.name, later[0].name))
                    for u in later:
                        u.replace_input_with(arg, env[sn])
                    continue
                if sn.op == "placeholder":
                    env[sn] = next(phs)
                elif sn.op == "get_attr":
                    name = "%s.%s" % (n.name, sn.target)
                    gm.register_buffer(name.replace(".", "_"), getattr(sub, sn.target))
                    env[sn] = gm.graph.get_attr(name.replace(".", "_"))
                elif sn.op == "output":
                    out = torch.fx.node.map_arg(sn.args[0], lambda a: env[a])
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


def _record(gm, example_inputs):
    rec = _Recorder(gm)
    try:
        with torch.no_grad():
            rec.run(*example_inputs)
    except ExportError as e:
        # torch.fx appends the node's trace to the message; keep ours.
        raise ExportError(str(e).split("\n\nWhile executing")[0].strip()) from None
    return rec


def _capture_symbolic(module, example_inputs, root_name):
    """symbolic_trace: (nodes, named tensors, modules)."""
    gm = _trace(module, root_name, len(example_inputs))
    _functional_methods(gm)
    rec = _record(gm, example_inputs)
    if rec.leaves:
        _inline_leaves(gm, rec.leaves)
        rec = _record(gm, example_inputs)
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
        entry["args"] = _encode(n.args)
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
    """The dynamic_shapes argument as one entry per example input."""
    if dynamic_shapes is None:
        return [None] * len(example_inputs)
    if isinstance(dynamic_shapes, dict):
        params = list(inspect.signature(module.forward).parameters)
        return [dynamic_shapes.get(p) for p in params[:len(example_inputs)]]
    return list(dynamic_shapes)


def _capture_export(module, example_inputs, root_name, dynamic_shapes):
    """torch.export, decomposed to core ATen: (nodes, named tensors,
    modules, dims)."""
    if _torch_version() < (2, 1):
        raise ExportError("method 'export' needs torch.export (torch >= 2.1); "
                          "torch here is %s" % torch.__version__)
    from torch.export.graph_signature import InputKind, OutputKind
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
