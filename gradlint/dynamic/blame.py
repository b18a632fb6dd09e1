"""Who is at fault when the backward misbehaves: a custom autograd.Function's backward (which
class, which line, what it returned) or the graph itself.

- An input whose gradient is None (or zero) although the output changes with it: if the
  autograd graph still reaches the input, something on the way *returned* no gradient -- for a
  custom Function that is its backward, and the report names the line of its `return`. Only if
  the graph does not reach the input at all is the graph cut (.detach(), .item(), ...).
- A backward that raised: the line that raised (the innermost frame in user code), and for the
  errors the autograd engine raises after a backward returned (a wrong number of gradients, a
  wrong shape) the Function and the line of its `return`, with the reason in words.

The lines come from running the backward once more under sys.setprofile, which sees every
`return` of the Functions' backward methods together with the value returned. That happens
only while explaining a failure.
"""

from __future__ import annotations

import inspect
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import torch

from .observe import display_path, user_location_of_traceback

_WRONG_COUNT = re.compile(r"function (\w+)Backward returned an incorrect number of gradients "
                          r"\(expected (\d+), got (\d+)\)")
_NAMED_NODE = re.compile(r"[Ff]unction (\w+)Backward\b")


@dataclass
class Return:
    """One call of a custom Function's backward: where it returned, and what."""

    cls: type
    where: str  # file:line of the return statement that ran
    value: Any


def custom_classes(outs: list[torch.Tensor]) -> dict[str, type]:
    """The custom autograd.Function classes in the graph of `outs`, by backward-node name."""
    found: dict[str, type] = {}
    for node in _nodes(outs):
        cls = getattr(node, "_forward_cls", None)
        if isinstance(cls, type):
            found.setdefault(type(node).__name__, cls)
    return found


def _nodes(outs: list[torch.Tensor]):
    seen: set = set()
    stack = [o.grad_fn for o in outs if o.grad_fn is not None]
    while stack:
        node = stack.pop()
        if node is None or node in seen:
            continue
        seen.add(node)
        yield node
        stack.extend(n for n, _ in node.next_functions if n is not None)


def paths_to(outs: list[torch.Tensor], leaf: torch.Tensor) -> list[tuple[Any, list[int]]] | None:
    """None if the graph of `outs` does not reach `leaf`; otherwise the custom-Function nodes on
    a path to it, each with the input slots whose edges lead there."""
    reach: dict[Any, bool] = {}
    order: list[Any] = []
    stack: list[tuple[Any, bool]] = [(o.grad_fn, False) for o in outs if o.grad_fn is not None]
    while stack:  # iterative post-order: graphs of real models are deeper than the recursion limit
        node, expanded = stack.pop()
        if node in reach and not expanded:
            continue
        if getattr(node, "variable", None) is leaf:
            reach[node] = True
            continue
        if not expanded:
            reach[node] = False
            stack.append((node, True))
            stack.extend((n, False) for n, _ in node.next_functions if n is not None and n not in reach)
            continue
        reach[node] = any(reach.get(n, False) for n, _ in node.next_functions if n is not None)
        order.append(node)
    if not any(reach.get(o.grad_fn, False) for o in outs if o.grad_fn is not None):
        return None
    found = []
    for node in order:
        if reach[node] and isinstance(getattr(node, "_forward_cls", None), type):
            slots = [i for i, (n, _) in enumerate(node.next_functions) if n is not None and reach.get(n, False)]
            found.append((node, slots))
    return found


def record_returns(classes: list[type], run: Callable[[], Any]) -> list[Return]:
    """Run `run` (a backward pass) and record every return of these classes' backward."""
    codes = {}
    for cls in classes:
        fn = inspect.unwrap(getattr(cls, "backward", None) or (lambda: None))
        code = getattr(fn, "__code__", None)
        if code is not None:
            codes[code] = cls
    found: list[Return] = []

    def profile(frame, event, arg):
        if event == "return" and frame.f_code in codes:
            found.append(Return(codes[frame.f_code], f"{display_path(frame.f_code.co_filename)}:{frame.f_lineno}", arg))

    old = sys.getprofile()
    sys.setprofile(profile)
    try:
        run()
    except Exception:  # noqa: BLE001, S110 - the returns seen before it raised are what we want
        pass
    finally:
        sys.setprofile(old)
    return found


def forward_names(cls: type) -> list[str]:
    """The names of the inputs of a Function's apply, from its forward's signature."""
    try:
        params = list(inspect.signature(cls.forward).parameters.values())
    except (TypeError, ValueError):
        return []
    takes_ctx = getattr(cls, "setup_context", torch.autograd.Function.setup_context) is \
        torch.autograd.Function.setup_context
    if takes_ctx and params:
        params = params[1:]
    return [p.name for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]


def _slot_name(cls: type, slot: int) -> str:
    names = forward_names(cls)
    return f"`{names[slot]}`" if slot < len(names) else f"number {slot + 1}"


def missing_gradient(outs: list[torch.Tensor], leaf: torch.Tensor, name: str,
                     run: Callable[[], Any]) -> str | None:
    """Why `leaf` got no gradient, in words: the backward that returned None or zeros for it,
    with its line; None when the graph does not reach the leaf (a cut graph)."""
    paths = paths_to(outs, leaf)
    if paths is None:
        return None
    if not paths:
        return (f"autograd gives no gradient for {name}, although the graph reaches it: an operation on "
                "the way returned no gradient")
    returns = record_returns([type(n)._forward_cls for n, _ in paths], run)
    for node, slots in paths:
        cls = type(node)._forward_cls
        for ret in (r for r in returns if r.cls is cls):
            value = ret.value if isinstance(ret.value, tuple) else (ret.value,)
            for slot in slots:
                g = value[slot] if slot < len(value) else None
                what = "None" if g is None else ("zeros" if isinstance(g, torch.Tensor) and not bool(g.any())
                                                 else None)
                if what is None:
                    continue
                return (f"the backward of the autograd.Function {cls.__name__} returns {what} as the "
                        f"gradient of its input {_slot_name(cls, slot)} ({ret.where}), and {name} "
                        f"reaches the output only through it: the cause is that backward, not a cut "
                        f"graph. Return the gradient there, or, if {name} is deliberately not "
                        f"differentiated, leave it out of the check with --constant {name} "
                        f"(# gradlint: constant={name})")
    names = ", ".join(sorted({type(n)._forward_cls.__name__ for n, _ in paths}))
    return (f"autograd gives no gradient for {name} although the graph reaches it, through the "
            f"custom Function(s) {names}: their backward returns no gradient for it")


def backward_error(e: BaseException, outs: list[torch.Tensor], run: Callable[[], Any]) -> str:
    """`The backward raised ...` with where and, for the engine's own errors, why."""
    first = str(e).splitlines()[0] if str(e) else ""
    text = f"The backward raised {type(e).__name__}: {first}"
    where = user_location_of_traceback(e.__traceback__)
    if where:
        return f"{text} (at {where})"
    classes = custom_classes(outs)
    m = _WRONG_COUNT.search(first)
    named = _NAMED_NODE.search(first)
    cls = classes.get(f"{(m or named).group(1)}Backward") if (m or named) else None
    if cls is None:
        return text
    returns = [r for r in record_returns([cls], run) if r.cls is cls]
    at = f" ({returns[-1].where})" if returns else _defined_at(cls.backward)
    if m:
        expected, got = int(m.group(2)), int(m.group(3))
        names = forward_names(cls)
        shown = f" ({', '.join(names)})" if names else ""
        return (f"{text}. {cls.__name__}.backward{at} returns {got} gradient{'s' if got != 1 else ''}, "
                f"but apply was given {expected} input{'s' if expected != 1 else ''}{shown}: backward must "
                "return one value per input of apply, in order (None for an input that gets no "
                "gradient, e.g. a number such as a scale).")
    return f"{text}. The value comes from {cls.__name__}.backward{at}."


def _defined_at(fn: Any) -> str:
    try:
        fn = inspect.unwrap(fn)
        return f" (defined at {display_path(inspect.getsourcefile(fn) or '?')}:{inspect.getsourcelines(fn)[1]})"
    except (OSError, TypeError):
        return ""
