"""What the graph forward does besides computing its outputs.

During the one forward that builds the autograd graph, a dispatch mode and a wrapper around
`Tensor.register_hook` record:

- the floating dtypes computed on the differentiable path (a float64 check of code that calls
  `.float()` inside can only resolve float32 precision, and the tolerances must follow);
- the arguments the forward writes in place, and the line that does it (a forward that changes
  its input makes every finite-difference evaluation see a different function);
- the gradient hooks it registers, and where (a hook that reverses or scales the gradient on
  purpose shows up as a constant factor, and the report says the hook is why).

The dispatch mode overrides TorchDispatchMode._should_skip_dynamo: by default the first mode a
process enters wraps its `__torch_dispatch__` in torch._dynamo.disable, which imports
torch._dynamo (sympy, fx: 1.5-3 s), and that was the whole cost of a cold check.
"""

from __future__ import annotations

import os
import sys
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import torch

from .floats import dtype_name

_TORCH_DIR = os.path.dirname(os.path.abspath(torch.__file__)) + os.sep
_OWN_DIR = os.path.dirname(os.path.abspath(__file__)) + os.sep


@dataclass
class Observation:
    dtypes: dict[str, str] = field(default_factory=dict)  # dtype name -> first op computing in it
    writes: dict[int, str] = field(default_factory=dict)  # id(argument) -> where it was written in place
    hooks: list[str] = field(default_factory=list)  # where register_hook was called


def user_location(depth: int = 1) -> str | None:
    """`file:line` of the innermost frame that is neither torch's nor gradlint's own code."""
    frame = sys._getframe(depth)
    while frame is not None:
        if _is_user_file(frame.f_code.co_filename):
            return f"{display_path(os.path.abspath(frame.f_code.co_filename))}:{frame.f_lineno}"
        frame = frame.f_back
    return None


def _is_user_file(name: str) -> bool:
    name = os.path.abspath(name)
    return not name.startswith((_TORCH_DIR, _OWN_DIR, "<frozen"))


def user_location_of_traceback(tb) -> str | None:
    """`file:line (in function)` of the innermost traceback frame in user code."""
    found = None
    while tb is not None:
        code = tb.tb_frame.f_code
        if _is_user_file(code.co_filename):
            found = f"{display_path(os.path.abspath(code.co_filename))}:{tb.tb_lineno}, in {code.co_name}"
        tb = tb.tb_next
    return found


def display_path(path: str) -> str:
    """A path as the user would write it: relative to the working directory when inside it."""
    try:
        rel = os.path.relpath(path)
    except ValueError:  # another drive (Windows)
        return path
    return path if rel.startswith("..") else rel


_MODE_CLASS: type | None = None


def _mode_class() -> type | None:
    global _MODE_CLASS
    if _MODE_CLASS is None:
        try:
            from torch.utils._python_dispatch import TorchDispatchMode
        except ImportError:  # pragma: no cover - very old torch
            return None

        class Mode(TorchDispatchMode):
            @classmethod
            def _should_skip_dynamo(cls) -> bool:  # see the module docstring
                return False

            def __init__(self, seen: Observation, tainted: set[int], watched: dict[int, int]) -> None:
                super().__init__()
                self.seen, self.tainted, self.watched = seen, tainted, watched

            def __torch_dispatch__(self, func, types, args=(), kwargs=None):
                kwargs = kwargs or {}
                if self.watched:
                    self._note_writes(func, args, kwargs)
                result = func(*args, **kwargs)
                if _touches(args, self.tainted) or (kwargs and _touches(kwargs.values(), self.tainted)):
                    for r in result if isinstance(result, (tuple, list)) else (result,):
                        if isinstance(r, torch.Tensor) and r.is_floating_point():
                            self.tainted.add(id(r))
                            if r.dtype != torch.float64:
                                self.seen.dtypes.setdefault(dtype_name(r.dtype), str(func).removesuffix(".default"))
                return result

            def _note_writes(self, func, args, kwargs) -> None:
                for i, a in enumerate(func._schema.arguments):
                    if a.alias_info is None or not a.alias_info.is_write:
                        continue
                    obj = args[i] if i < len(args) and not a.kwarg_only else kwargs.get(a.name)
                    owner = self.watched.get(_storage(obj)) if isinstance(obj, torch.Tensor) else None
                    if owner is not None and owner not in self.seen.writes:
                        self.seen.writes[owner] = user_location(2) or str(func)

        _MODE_CLASS = Mode
    return _MODE_CLASS


def _storage(t: torch.Tensor) -> int | None:
    try:
        return t.untyped_storage().data_ptr() or None
    except (RuntimeError, NotImplementedError):  # tensors without storage (meta, sparse...)
        return None


def _touches(args, tainted: set[int]) -> bool:
    for a in args:
        if isinstance(a, (list, tuple)):
            if any(id(b) in tainted for b in a):
                return True
        elif id(a) in tainted:
            return True
    return False


@contextmanager
def _hook_spy(seen: Observation):
    """Record where the forward calls Tensor.register_hook (the call itself is unchanged)."""
    original = torch.Tensor.register_hook

    def register_hook(self, hook):
        where = user_location(2)
        if where and where not in seen.hooks:
            seen.hooks.append(where)
        return original(self, hook)

    torch.Tensor.register_hook = register_hook  # type: ignore[method-assign]
    try:
        yield
    finally:
        torch.Tensor.register_hook = original  # type: ignore[method-assign]


@contextmanager
def observing(seen: Observation, leaves: list[torch.Tensor], arguments: list[Any]):
    """Observe the forward run inside: dtypes on the path from `leaves`, in-place writes to
    `arguments` (the tensor objects the target is called with), hooks."""
    cls = _mode_class()
    # by storage: a write through a view (`a[1:2] += b`) writes the argument too
    watched = {_storage(a): id(a) for a in arguments if isinstance(a, torch.Tensor)}
    watched.pop(None, None)
    with _hook_spy(seen):
        if cls is None:
            yield
        else:
            with cls(seen, {id(leaf) for leaf in leaves}, watched):
                yield


def versions(arguments: list[Any]) -> list[int | None]:
    """The version counters of the tensor arguments: an in-place write bumps them, even where a
    dispatch mode could not watch (code that does not run under one)."""
    return [a._version if isinstance(a, torch.Tensor) else None for a in arguments]
