"""What an autograd graph says, for the torch probe (imports torch: runs only in the traced
process). Pure queries: walks from a loss to the nodes and leaf tensors behind it, the line a
node was recorded at (`node.metadata["gl"]`, set by torch_probe.Mode), saved tensors, freed
buffers, non-finite values; nothing here keeps a graph alive or reports anything.
"""

from __future__ import annotations

import torch

Tensor = torch.Tensor

# node types whose backward can turn finite incoming gradients into NaN/Inf (sqrt at 0, log at
# 0, division by 0, norms at 0, inverse trigonometry at +-1, ...): only these get hooks.
RISKY_NODES = frozenset(
    n + "Backward0" for n in (
        "Sqrt", "Rsqrt", "Log", "Log2", "Log10", "Log1P", "Div", "Reciprocal", "Pow", "Acos", "Asin",
        "Atanh", "Acosh", "Atan2", "Norm", "LinalgVectorNorm", "Cdist", "Std", "Var", "Exp", "Exp2",
        "Expm1", "Lgamma", "Digamma", "Polygamma", "Erfinv", "Tan", "Sinh", "Cosh", "Logit", "Xlogy",
        "Hypot", "Where", "Prod", "Cholesky", "LinalgCholeskyEx", "LinalgEigh", "Svd", "LinalgSvd",
        "Dist", "Renorm", "Mvlgamma", "Logsumexp", "BinaryCrossEntropy", "Sigmoid", "Tanh",
        "Softplus", "Clamp", "Mul", "Cumprod", "Angle", "Atan", "Sgn",
    )
) | frozenset(("PowBackward1", "PowBackward2", "DivBackward1", "NormBackward1", "WhereBackward0",
               "StdBackward0", "VarBackward0", "LinalgVectorNormBackward0"))
# non-differentiable operations that still produce a gradient: zero everywhere
ZERO_GRAD_NODES = frozenset(("RoundBackward0", "RoundBackward1", "FloorBackward0", "CeilBackward0",
                             "SignBackward0", "TruncBackward0"))


def leaves_of(roots) -> set[int]:
    """ids of the leaf tensors (AccumulateGrad variables) reachable from autograd nodes."""
    out: set[int] = set()
    seen: set[int] = set()
    stack = [n for n in roots if n is not None]
    while stack:
        n = stack.pop()
        if id(n) in seen:
            continue
        seen.add(id(n))
        var = getattr(n, "variable", None)
        if var is not None:
            out.add(id(var))
            continue
        for child, _ in n.next_functions:
            if child is not None:
                stack.append(child)
    return out


def tensors_of(args, kwargs):
    """The tensors among a call's arguments (and inside list/tuple arguments)."""
    for a in args:
        if isinstance(a, Tensor):
            yield a
        elif isinstance(a, (list, tuple)):
            for b in a:
                if isinstance(b, Tensor):
                    yield b
    if kwargs:
        for a in kwargs.values():
            if isinstance(a, Tensor):
                yield a


def params_of(opt) -> list:
    """The tensors an optimizer holds."""
    return [p for g in opt.param_groups for p in g["params"] if isinstance(p, Tensor)]


def roots_of(func, args, kwargs) -> list:
    t = args[0] if args else kwargs.get("tensors", kwargs.get("outputs"))
    if isinstance(t, Tensor):
        return [t]
    if isinstance(t, (list, tuple)):
        return [x for x in t if isinstance(x, Tensor)]
    return []


def retain_of(func, args, kwargs) -> bool | None:
    if "retain_graph" in kwargs:
        return kwargs["retain_graph"]
    if func is torch.Tensor.backward:
        if len(args) > 2:
            return args[2]
        return bool(kwargs.get("create_graph", args[3] if len(args) > 3 else False)) or None
    if func is torch.autograd.backward and len(args) > 2:
        return args[2]
    if func is torch.autograd.grad and len(args) > 3:
        return args[3]
    return bool(kwargs.get("create_graph")) or None


def walk(roots):
    """All nodes reachable from `roots`, and the leaf tensors they accumulate into."""
    nodes = []
    reached: dict[int, Tensor] = {}
    seen: set[int] = set()
    stack = [n for n in roots if n is not None]
    while stack:
        n = stack.pop()
        if id(n) in seen:
            continue
        seen.add(id(n))
        nodes.append(n)
        var = getattr(n, "variable", None)
        if var is not None:
            reached[id(var)] = var
            continue
        for child, _ in n.next_functions:
            if child is not None:
                stack.append(child)
    return nodes, reached


def nonzero(grads: list) -> list[bool]:
    present = [g for g in grads if g is not None]
    if not present:
        return [False] * len(grads)
    try:
        flags = torch.stack([g.detach().ne(0).any() for g in present]).tolist()
    except RuntimeError:  # different devices: one by one
        flags = [bool(g.detach().ne(0).any()) for g in present]
    it = iter(flags)
    return [False if g is None else bool(next(it)) for g in grads]


def norms(grads: list) -> list[float]:
    try:
        return torch.stack([torch.linalg.vector_norm(g.detach().float()) for g in grads]).tolist()
    except RuntimeError:
        return [float(torch.linalg.vector_norm(g.detach().float())) for g in grads]


def entry_site(nodes, before: int):
    """The site of a node created after op counter `before` whose input was created before it:
    where an old value enters the current graph."""
    for n in nodes:
        meta = node_meta(n)
        if meta is None or meta[1] <= before:
            continue
        # look through the unrecorded nodes inside a composite op (an RNN cell, a loss)
        stack, seen = [c for c, _ in n.next_functions if c is not None], set()
        while stack:
            c = stack.pop()
            if id(c) in seen:
                continue
            seen.add(id(c))
            cm = node_meta(c)
            if cm is not None:
                if cm[1] <= before:
                    return meta[0]
                continue
            stack.extend(x for x, _ in c.next_functions if x is not None)
    return None


def all_finite(ts) -> bool:
    for t in ts:
        if isinstance(t, Tensor) and t.is_floating_point() and not bool(torch.isfinite(t).all()):
            return False
    return True


def node_meta(node):
    try:
        return node.metadata.get("gl")
    except (AttributeError, RuntimeError):
        return None


def node_site(node):
    """The line that created a node; nodes made inside a composite op (no record of their
    own) take the line of the nearest recorded node above them."""
    meta = node_meta(node)
    if meta is not None:
        return meta[0]
    return None


def op_name(node) -> str:
    name = type(node).__name__
    for suffix in ("Backward0", "Backward1", "Backward2"):
        if name.endswith(suffix):
            name = name[: -len(suffix)]
    return name.lower()


def is_freed(node) -> bool:
    for attr in dir(node):
        if attr.startswith("_saved_"):
            try:
                getattr(node, attr)
            except RuntimeError as e:
                if "second time" in str(e) or "already been freed" in str(e):
                    return True
    return False


def saved_tensors(node):
    for attr in dir(node):
        if attr.startswith("_saved_"):
            try:
                v = getattr(node, attr)
            except RuntimeError:
                continue
            if isinstance(v, Tensor):
                yield attr, v
            elif isinstance(v, (tuple, list)):
                for x in v:
                    if isinstance(x, Tensor):
                        yield attr, x


def finite(t: Tensor) -> bool:
    return not t.is_floating_point() or bool(torch.isfinite(t).all())


def nonfinite_producer(roots):
    """Before backward: the recorded forward op whose output is the first non-finite value."""
    order, seen, stack = [], set(), [(n, 0) for n in roots if n is not None]
    while stack:
        n, d = stack.pop()
        if id(n) in seen:
            continue
        seen.add(id(n))
        order.append((d, n))
        for child, _ in n.next_functions:
            if child is not None and getattr(child, "variable", None) is None:
                stack.append((child, d + 1))
    bad = []
    for d, n in order:
        saved = list(saved_tensors(n))
        if any(not finite(t) for _, t in saved):
            bad.append((d, n, saved))
    if not bad:
        return None
    bad.sort(key=lambda x: -x[0])
    d, n, saved = bad[0]
    results = [t for a, t in saved if a == "_saved_result"]
    inputs = [t for a, t in saved if a != "_saved_result"]
    if results and all(finite(t) for t in inputs) and node_meta(n) is not None:
        return n  # it saved its own non-finite output from finite inputs (exp overflow)
    for child, _ in n.next_functions:
        if child is not None and getattr(child, "variable", None) is None:
            child_saved = [t for _, t in saved_tensors(child)]
            if all(finite(t) for t in child_saved) and node_meta(child) is not None:
                return child
    return n if node_meta(n) is not None else None
