"""Inputs for a check: an explicit expression, shapes from annotations, the first layer of a
module, or small probed shapes -- and, when none works, exactly what to pass instead.

Named dimensions get distinct small sizes (3, 4, 5, ...): a square input hides a transposed
backward, which is one of the bugs the check exists to catch.
"""

from __future__ import annotations

import builtins
import inspect
import math
import re
import typing
from dataclasses import dataclass, field
from typing import Any

import torch

from .targets import Resolved


class InputsError(Exception):
    """No inputs could be built; the message says what to pass."""


@dataclass
class Built:
    args: list[Any]
    source: str  # explicit | config | annotations | module | probed
    expr: str  # an expression that rebuilds inputs of the same shapes
    names: list[str]
    notes: list[str] = field(default_factory=list)


SIZES = (3, 4, 5, 6, 7, 2, 8, 9, 10, 11)
PROBE_SHAPES = ((4,), (3, 4), (4, 4), (2, 3, 4), (2, 3, 8, 8), (5,), ())
FLOAT_WORDS = {"Float", "Float16", "Float32", "Float64", "BFloat16", "Shaped", "Real", "Inexact",
               "Num", "Tensor", "Array"}
INT_WORDS = {"Int", "Int8", "Int16", "Int32", "Int64", "Integer", "UInt", "UInt8", "Long"}
JAX_STR = re.compile(r"^\s*(?P<word>\w+)\s*\[\s*(?P<arr>[\w.]+)\s*,\s*(?P<q>['\"])(?P<dims>.*?)(?P=q)\s*\]\s*$")
TENSOR_HINT = re.compile(r"^\s*(torch\.)?(Tensor|FloatTensor|DoubleTensor)\s*$")


def evaluate_expression(expr: str) -> list[Any]:
    """`--inputs EXPR`: a Python expression with torch, np and math in scope. A tuple is the
    list of positional arguments; anything else is the single argument."""
    scope: dict[str, Any] = {"torch": torch, "math": math, "__builtins__": builtins}
    try:
        import numpy as np

        scope["np"] = scope["numpy"] = np
    except ImportError:
        pass
    try:
        value = eval(compile(expr, "<--inputs>", "eval"), scope)
    except SyntaxError as e:
        raise InputsError(f"--inputs is not a Python expression: {e.msg} in {expr!r}") from e
    except Exception as e:
        raise InputsError(f"--inputs {expr!r} raised {type(e).__name__}: {e}") from e
    return list(value) if isinstance(value, tuple) else [value]


def required_params(resolved: Resolved) -> list[inspect.Parameter]:
    try:
        sig = inspect.signature(resolved.signature_of)
    except (TypeError, ValueError):
        return []
    params = list(sig.parameters.values())
    if resolved.skip_first and params:
        params = params[1:]
    out = []
    for p in params:
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) and p.default is p.empty:
            out.append(p)
        elif p.kind == p.VAR_POSITIONAL and not out:
            out.append(p)  # f(*xs): try one argument
    return out


def _parameters(fn: Any) -> tuple[inspect.Parameter, ...]:
    try:
        return tuple(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        return ()


def param_names(resolved: Resolved, n: int) -> list[str]:
    params = list(_parameters(resolved.signature_of))
    if resolved.skip_first and params:
        params = params[1:]
    names = [p.name for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    star = next((p.name for p in params if p.kind == p.VAR_POSITIONAL), None)
    names += [f"{star}[{i}]" if star else f"input{i}" for i in range(len(names), n)]
    return names[:n]


# -- annotations --------------------------------------------------------------------------------


def _hints(resolved: Resolved, params: list[inspect.Parameter]) -> list[Any]:
    try:
        hints = typing.get_type_hints(resolved.signature_of, include_extras=True)
    except Exception:  # noqa: BLE001 - unresolvable string annotations: fall back to the raw text
        hints = {}
    return [hints.get(p.name, p.annotation) for p in params]


def _shape_spec(hint: Any) -> tuple[str, str] | None:
    """-> (dtype word, dims string) for a jaxtyping-style hint, object or string."""
    if hint is inspect.Parameter.empty or hint is None:
        return None
    dims = getattr(hint, "dim_str", None)
    if isinstance(dims, str):
        word = re.match(r"\w+", getattr(hint, "__name__", "") or "Float")
        return (word.group(0) if word else "Float"), dims
    text = hint if isinstance(hint, str) else None
    if text is None:
        return None
    m = JAX_STR.match(text)
    return (m.group("word"), m.group("dims")) if m else None


def _is_tensor_hint(hint: Any) -> bool:
    if hint is torch.Tensor:
        return True
    return isinstance(hint, str) and bool(TENSOR_HINT.match(hint))


def _dims_to_shape(dims: str, sizes: dict[str, int], taken: set[int]) -> tuple[int, ...]:
    """Named dims get a size of their own, different from every other named or literal size:
    equal sizes would let a transposed backward pass unnoticed."""
    shape: list[int] = []
    for tok in dims.split():
        tok = tok.strip(",")
        if not tok or tok == "...":
            continue
        if tok.isdigit():
            shape.append(int(tok))
            continue
        name = tok.lstrip("*#?").split("=")[0] or "_"
        anonymous = name.startswith("_")
        if anonymous or name not in sizes:
            size = next(s for s in SIZES + tuple(range(12, 64)) if s not in taken)
            taken.add(size)
            if anonymous:
                shape.append(size)
                continue
            sizes[name] = size
        shape.append(sizes[name])
    return tuple(shape)


def from_annotations(resolved: Resolved, gen: torch.Generator) -> Built | None:
    params = required_params(resolved)
    if not params:
        return None
    hints = _hints(resolved, params)
    sizes: dict[str, int] = {}
    specs = [_shape_spec(h) for h in hints]
    taken = {int(t) for sp in specs if sp for t in sp[1].split() if t.strip(",").isdigit()}
    args, exprs, notes = [], [], []
    for p, hint, spec in zip(params, hints, specs):
        if spec is None:
            if hint is float:
                args.append(0.7)
                exprs.append("0.7")
                continue
            if hint is int:
                args.append(2)
                exprs.append("2")
                continue
            return None  # at least one input without a usable shape: probe instead
        word, dims = spec
        shape = _dims_to_shape(dims, sizes, taken)
        if word in INT_WORDS or word == "Bool":
            hi = 2 if word == "Bool" else 5
            args.append(torch.randint(0, hi, shape, generator=gen).to(torch.bool if word == "Bool" else torch.int64))
            exprs.append(f"torch.randint(0, {hi}, {shape!r})" + (".bool()" if word == "Bool" else ""))
            notes.append(f"{p.name} is annotated as {word}, so it is not differentiated.")
        else:
            args.append(torch.randn(shape, generator=gen))
            exprs.append(_randn(shape))
    if sizes:
        notes.append("Input sizes from the annotations: " + ", ".join(f"{k}={v}" for k, v in sizes.items()) + ".")
    return Built(args, "annotations", ", ".join(exprs), [p.name for p in params], notes)


def _randn(shape: tuple[int, ...]) -> str:
    return f"torch.randn({', '.join(map(str, shape))})" if shape else "torch.randn(())"


# -- modules: the first layer says what goes in --------------------------------------------------


def from_first_layer(module: torch.nn.Module, gen: torch.Generator) -> tuple[list[Any], str, list[str]] | None:
    nn = torch.nn
    for layer in module.modules():
        batch = 3
        if isinstance(layer, nn.Linear):
            shape = (batch if layer.in_features != batch else 4, layer.in_features)
            return [torch.randn(shape, generator=gen)], _randn(shape), [_first_layer_note(shape, layer)]
        if isinstance(layer, (nn.Conv1d, nn.Conv2d, nn.Conv3d, nn.ConvTranspose1d, nn.ConvTranspose2d,
                              nn.ConvTranspose3d)):
            d = len(layer.kernel_size)
            side = [8 + (k - 1) * dl for k, dl in zip(layer.kernel_size, layer.dilation)]
            shape = (2, layer.in_channels, *side[:d])
            return [torch.randn(shape, generator=gen)], _randn(shape), [_first_layer_note(shape, layer)]
        if isinstance(layer, (nn.Embedding, nn.EmbeddingBag)):
            shape = (2, 5)
            idx = torch.randint(0, layer.num_embeddings, shape, generator=gen)
            note = (f"The first layer is {type(layer).__name__}: its input is integer indices, which "
                    "are not differentiable, so only the parameters are checked.")
            return [idx], f"torch.randint(0, {layer.num_embeddings}, {shape!r})", [note]
        if isinstance(layer, (nn.RNN, nn.LSTM, nn.GRU)):
            shape = (2, 5, layer.input_size) if layer.batch_first else (5, 2, layer.input_size)
            return [torch.randn(shape, generator=gen)], _randn(shape), [_first_layer_note(shape, layer)]
        if isinstance(layer, nn.LayerNorm):
            shape = (3, *layer.normalized_shape)
            return [torch.randn(shape, generator=gen)], _randn(shape), [_first_layer_note(shape, layer)]
        if isinstance(layer, (nn.BatchNorm1d, nn.BatchNorm2d, nn.BatchNorm3d)):
            extra = {nn.BatchNorm1d: (), nn.BatchNorm2d: (6, 6), nn.BatchNorm3d: (4, 4, 4)}[type(layer)]
            shape = (4, layer.num_features, *extra)
            return [torch.randn(shape, generator=gen)], _randn(shape), [_first_layer_note(shape, layer)]
    return None


def _first_layer_note(shape: tuple[int, ...], layer: torch.nn.Module) -> str:
    return f"Input shape {tuple(shape)} from the first layer, {layer}."


# -- probing -----------------------------------------------------------------------------------

_MATMUL = re.compile(r"shapes cannot be multiplied \((\d+)x(\d+) and (\d+)x(\d+)\)")
_CHANNELS = re.compile(r"expected input\[[^\]]*\] to have (\d+) channels")


def _runs(fn, args: list[Any]) -> tuple[bool, str]:
    """Does `fn(*args)` run and give a finite floating output? Called on copies (a forward that
    writes its input in place must not change the inputs the check then uses); first without
    autograd (cheap), then, if the forward needs it (it registers a gradient hook, or calls
    autograd itself), with inputs that require grad."""
    try:
        with torch.no_grad():
            out = fn(*_copies(args, grad=False))
    except Exception as e:  # noqa: BLE001 - a probe that fails is expected
        if not _needs_grad(e):
            return False, _why(e)
        try:
            with torch.enable_grad():
                out = fn(*_copies(args, grad=True))
        except Exception as e2:  # noqa: BLE001
            return False, _why(e2)
    from .problem import all_finite, float_leaves

    leaves = float_leaves(out)
    if not leaves:
        return False, f"returned {type(out).__name__}, no floating-point tensor"
    if not all(all_finite(t) for t in leaves):
        return False, "the output is not finite"
    return True, ""


def _copies(args: list[Any], grad: bool) -> list[Any]:
    out = []
    for a in args:
        if isinstance(a, torch.Tensor):
            a = a.detach().clone()
            if grad and a.is_floating_point():
                a = a.requires_grad_(True).clone()  # not a leaf: in-place writes stay allowed
        out.append(a)
    return out


def _needs_grad(e: Exception) -> bool:
    text = str(e)
    return "does not require grad" in text or "doesn't require grad" in text or \
        "element 0 of tensors does not require grad" in text


def _why(e: Exception) -> str:
    return f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"


def probe(fn, n: int, gen: torch.Generator, limit: int = 24,
          numbers: dict[int, Any] | None = None) -> tuple[list[Any], str, list[str]] | tuple[None, str, list[str]]:
    """Try small shapes (all tensor inputs alike, then matmul-shaped pairs), normal then positive
    values. `numbers`: positions that take a plain number (scalars.py), passed as given."""
    numbers = numbers or {}
    k = max(0, n - len(numbers))  # tensor arguments
    candidates: list[tuple[tuple[int, ...], ...]] = [tuple([s] * k) for s in PROBE_SHAPES] if k else [()]
    if k == 2:
        candidates += [((3, 4), (4, 5)), ((2, 3, 4), (2, 4, 5)), ((4,), (3, 4))]
    last = ""
    tried = 0
    queue = list(candidates)
    while queue and tried < limit:
        shapes = queue.pop(0)
        for positive in (False, True):
            tensors = [(torch.rand(s, generator=gen) + 0.5) if positive else torch.randn(s, generator=gen)
                       for s in shapes]
            args = _merge(tensors, numbers, n)
            tried += 1
            ok, why = _runs(fn, args)
            if ok:
                exprs = [(f"torch.rand({', '.join(map(str, s))}) + 0.5" if positive else _randn(s)) for s in shapes]
                expr = ", ".join(str(a) for a in _merge(exprs, {i: repr(v) for i, v in numbers.items()}, n))
                notes = [f"Inputs found by probing: shapes {', '.join(str(tuple(s)) for s in shapes)}."]
                if positive:
                    notes.append("Positive values were used: the output is not finite at negative inputs.")
                return args, expr, notes
            if why != "the output is not finite":
                break  # the shape is wrong; positive values will not help
            last = why
        last = why or last
        fixed = _fix_from_error(why, shapes)
        if fixed and fixed not in queue:
            queue.insert(0, fixed)
    return None, last, []


def _merge(tensors: list[Any], numbers: dict[int, Any], n: int) -> list[Any]:
    """Arguments in order: the numbers at their positions, the tensors in the others."""
    it = iter(tensors)
    return [numbers[i] if i in numbers else next(it) for i in range(n)]


def _fix_from_error(msg: str, shapes: tuple[tuple[int, ...], ...]) -> tuple[tuple[int, ...], ...] | None:
    """Read the size the target wanted out of a shape error (a Linear's in_features, a conv's
    channels) and retry with it."""
    m = _MATMUL.search(msg)
    if m and shapes and len(shapes[0]) >= 1:
        want = int(m.group(3))
        return tuple(tuple(s[:-1]) + (want,) if s else s for s in shapes)
    m = _CHANNELS.search(msg)
    if m and shapes and len(shapes[0]) >= 2:
        want = int(m.group(1))
        return tuple((s[0], want, *s[2:]) for s in shapes)
    return None


# -- the entry point ---------------------------------------------------------------------------


def _numbers(resolved: Resolved, params: list[inspect.Parameter]) -> dict[int, Any]:
    """{position: number} for the required parameters that take plain numbers (scalars.py)."""
    from .scalars import scalar_values

    names = [p.name for p in params if p.kind != p.VAR_POSITIONAL]
    if not names:
        return {}
    owner = getattr(resolved.fn, "__self__", None)  # Function.apply is bound to the class
    setup = None
    if isinstance(owner, type) and issubclass(owner, torch.autograd.Function):
        custom = getattr(owner, "setup_context", None)
        if custom is not None and custom is not torch.autograd.Function.setup_context:
            setup = custom
    ctx = None
    if resolved.skip_first:
        try:
            ctx = next(iter(inspect.signature(resolved.signature_of).parameters))
        except (TypeError, ValueError, StopIteration):
            ctx = None
    values = scalar_values(resolved.signature_of, names, _hints(resolved, params), setup, ctx)
    return {i: values[name] for i, name in enumerate(names) if name in values}


def build(resolved: Resolved, expr: str | None, seed: int) -> Built:
    gen = torch.Generator().manual_seed(seed)
    torch.manual_seed(seed)
    if expr:
        args = evaluate_expression(expr)
        return Built(args, "explicit", expr, param_names(resolved, len(args)))
    built = from_annotations(resolved, gen)
    if built is not None:
        ok, why = _runs(resolved.fn, built.args)
        if ok:
            return built
        annotation_failure = why
    else:
        annotation_failure = None
    params = required_params(resolved)
    n = max(1, len(params))
    notes: list[str] = []
    numbers = _numbers(resolved, params)
    if resolved.module is not None:
        first = from_first_layer(resolved.module, gen)
        if first is not None:
            args, e, notes = first
            args = args * n if n > 1 else args
            if _runs(resolved.fn, args)[0]:
                return Built(args, "module", ", ".join([e] * n), param_names(resolved, n), notes)
    args, e, pnotes = probe(resolved.fn, n, gen, numbers=numbers)
    if args is not None and numbers:
        names = param_names(resolved, n)
        pnotes.append(", ".join(f"{names[i]} = {v!r}" for i, v in sorted(numbers.items()))
                      + ": the target uses " + ("it" if len(numbers) == 1 else "them")
                      + " as a plain number (kept on ctx, or as a size or dim), so "
                      + ("it is" if len(numbers) == 1 else "they are") + " not probed as a tensor.")
    if args is not None:
        return Built(args, "probed", e, param_names(resolved, n), notes + pnotes)
    names = param_names(resolved, n)
    example = ", ".join("torch.randn(3, 4)" for _ in range(n))
    why = annotation_failure or e
    raise InputsError(
        f"Could not build inputs for {', '.join(names) or 'the target'}: "
        + ("the annotated shapes did not run" if annotation_failure else
           "there are no shape annotations and none of the probed shapes ran")
        + (f" (last error: {why})" if why else "")
        + f". Pass them explicitly, e.g. --inputs \"{example}\" (a Python expression; a tuple "
        "gives the positional arguments), or annotate the parameters with jaxtyping shapes, "
        "e.g. x: Float[Tensor, \"batch 3\"].")
