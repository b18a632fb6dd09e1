"""Targets: load `path.py::name`, `path.py::Class.method` or `package.module:name`, and turn
a function, a torch.autograd.Function subclass or an nn.Module into something callable.

Loading runs the user's module, so it happens only in the child process (or in the caller's
process through the Python API, where the caller already trusts the code).
"""

from __future__ import annotations

import copy
import importlib
import importlib.util
import inspect
import os
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


class TargetError(Exception):
    """The target spec is malformed, or names nothing usable."""


@dataclass
class Resolved:
    fn: Callable[..., Any]  # what the check calls with the positional inputs
    kind: str  # function | autograd.Function | nn.Module | method | callable
    signature_of: Callable[..., Any]  # whose signature/annotations describe the inputs
    skip_first: bool = False  # signature_of takes ctx/self first
    module: Any = None  # the nn.Module instance whose parameters are checked


def parse_spec(spec: str) -> tuple[str, str, str]:
    """-> ("file", path, qualname) or ("module", dotted, qualname)."""
    spec = spec.strip()
    if "::" in spec:
        path, _, qual = spec.partition("::")
        if not path or not qual:
            raise TargetError(f"malformed target {spec!r}: expected path.py::name")
        return "file", path, qual
    mod, sep, qual = spec.rpartition(":")
    if sep and qual and re.fullmatch(r"[A-Za-z_][\w]*(\.[A-Za-z_][\w]*)*", mod):
        return "module", mod, qual
    raise TargetError(f"malformed target {spec!r}: expected path.py::name, path.py::Class.method "
                      "or package.module:name")


_counter = 0


def load_module(kind: str, where: str, cwd: str | None = None):
    """Import the user's module. A file is loaded under a fresh name each time, so a warm worker
    sees edits; its directory goes first on sys.path, as when running the file as a script."""
    global _counter
    base = cwd or os.getcwd()
    if kind == "module":
        if base not in sys.path:
            sys.path.insert(0, base)
        return importlib.import_module(where)
    path = where if os.path.isabs(where) else os.path.join(base, where)
    if not os.path.isfile(path):
        raise TargetError(f"no such file: {path}")
    folder = os.path.dirname(os.path.abspath(path))
    if folder not in sys.path:
        sys.path.insert(0, folder)
    _counter += 1
    stem = os.path.splitext(os.path.basename(path))[0]
    name = f"_gradlint_target_{_counter}_{stem}".replace("-", "_")
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise TargetError(f"cannot import {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses and pickling look the module up by name
    spec.loader.exec_module(module)
    return module


def lookup(module: Any, qualname: str) -> tuple[Any, Any]:
    """-> (object, its owner class or None) for `name` or `Class.method`."""
    obj, owner = module, None
    for part in qualname.split("."):
        if not hasattr(obj, part):
            where = getattr(module, "__file__", None) or getattr(module, "__name__", "the module")
            names = [n for n in dir(obj) if not n.startswith("_")]
            near = [n for n in names if n.lower() == part.lower() or part.lower() in n.lower()][:3]
            hint = f" (did you mean {', '.join(near)}?)" if near else ""
            raise TargetError(f"{part!r} not found in {where}{hint}")
        owner = obj if inspect.isclass(obj) else owner
        obj = getattr(obj, part)
    return obj, owner


def resolve(obj: Any, owner: Any = None) -> Resolved:
    """Decide how to call `obj`. Classes are instantiated without arguments."""
    import torch

    if inspect.isclass(obj) and issubclass(obj, torch.autograd.Function):
        _check_new_style(obj)
        return Resolved(obj.apply, "autograd.Function", obj.forward, skip_first=_takes_ctx(obj))
    if inspect.isclass(obj) and issubclass(obj, torch.nn.Module):
        inst = _instantiate(obj)
        return Resolved(inst, "nn.Module", inst.forward, module=inst)
    if isinstance(obj, torch.nn.Module):
        inst = copy.deepcopy(obj)  # the check converts dtypes and moves parameters: not the user's
        return Resolved(inst, "nn.Module", inst.forward, module=inst)
    if owner is not None and inspect.isclass(owner) and (inspect.isfunction(obj) or inspect.ismethod(obj)):
        static = isinstance(inspect.getattr_static(owner, obj.__name__, None), staticmethod)
        if static or inspect.ismethod(obj):  # staticmethod / classmethod: call as is
            return Resolved(obj, "method", obj)
        if issubclass(owner, torch.autograd.Function):
            _check_new_style(owner)
            return Resolved(owner.apply, "autograd.Function", owner.forward, skip_first=_takes_ctx(owner))
        inst = _instantiate(owner)
        bound = getattr(inst, obj.__name__)
        module = inst if isinstance(inst, torch.nn.Module) else None
        return Resolved(bound, "method", bound, module=module)
    if inspect.isfunction(obj) or inspect.isbuiltin(obj):
        return Resolved(obj, "function", obj)
    if callable(obj):
        return Resolved(obj, "callable", obj.__call__ if not inspect.isfunction(obj) else obj)
    raise TargetError(f"{obj!r} is not callable")


def _takes_ctx(fn_cls: Any) -> bool:
    # New-style Functions (with setup_context) have forward(*args) without ctx.
    import torch

    return getattr(fn_cls, "setup_context", torch.autograd.Function.setup_context) is \
        torch.autograd.Function.setup_context


def _check_new_style(fn_cls: Any) -> None:
    """A Function that defines setup_context is new-style: torch calls its forward *without*
    ctx. A forward that still takes ctx first then gets the first input as ctx and misses its
    last argument, and the error torch raises (`missing a required argument`) does not say why."""
    if _takes_ctx(fn_cls):
        return
    try:
        first = next(iter(inspect.signature(fn_cls.forward).parameters), None)
    except (TypeError, ValueError):
        return
    if first == "ctx":
        raise TargetError(
            f"{fn_cls.__name__} defines setup_context, so torch calls its forward without ctx (a "
            f"new-style autograd.Function), but {fn_cls.__name__}.forward still takes ctx as its first "
            "parameter: remove ctx from forward and do the ctx work (ctx.save_for_backward, ctx.name = "
            "...) in setup_context(ctx, inputs, output), or delete setup_context to keep the old style")


def _instantiate(cls: type) -> Any:
    try:
        return cls()
    except TypeError as e:
        raise TargetError(f"cannot instantiate {cls.__name__}() without arguments ({e}); name a "
                          "function that builds it, e.g. def make(): return "
                          f"{cls.__name__}(...), or a module-level instance") from e


def load(spec: str, cwd: str | None = None) -> tuple[Resolved, str]:
    """-> (resolved target, display name)."""
    kind, where, qual = parse_spec(spec)
    module = load_module(kind, where, cwd)
    obj, owner = lookup(module, qual)
    return resolve(obj, owner), qual
