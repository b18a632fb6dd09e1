"""Install a framework's probe when the traced program first imports it.

Importing torch costs seconds and hundreds of MB: a TensorFlow script must not pay for it. A
meta-path finder lets the normal import of `torch`, `tensorflow` or `jax` run and then installs
the matching probe; a framework that is already imported (pytest imported it in a conftest)
is instrumented at once.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import sys
from collections.abc import Callable


def _torch() -> None:
    from . import torch_probe

    torch_probe.install()


def _tensorflow() -> None:
    from . import tf_probe

    tf_probe.install()


def _jax() -> None:
    from . import jax_probe

    jax_probe.install()


PROBES: dict[str, Callable[[], None]] = {"torch": _torch, "tensorflow": _tensorflow, "jax": _jax}


class _Loader(importlib.abc.Loader):
    def __init__(self, inner, after: Callable[[], None]) -> None:
        self.inner = inner
        self.after = after

    def create_module(self, spec):
        return self.inner.create_module(spec)

    def exec_module(self, module) -> None:
        self.inner.exec_module(module)
        self.after()

    def __getattr__(self, name):  # get_resource_reader, is_package, ...
        return getattr(self.inner, name)


class _PostImport(importlib.abc.MetaPathFinder):
    def __init__(self, pending: dict[str, Callable[[], None]], errors: list[str]) -> None:
        self.pending = pending
        self.errors = errors
        self._busy: set[str] = set()

    def find_spec(self, name, path=None, target=None):
        if name not in self.pending or name in self._busy:
            return None
        self._busy.add(name)
        try:
            spec = importlib.util.find_spec(name)
        finally:
            self._busy.discard(name)
        if spec is None or spec.loader is None:
            return None
        install = self.pending.pop(name)

        def after() -> None:
            try:
                install()
            except Exception as exc:  # noqa: BLE001 - the program must run even if a probe cannot
                self.errors.append(f"could not instrument {name}: {type(exc).__name__}: {exc}")

        spec.loader = _Loader(spec.loader, after)
        return spec


def install(errors: list[str]) -> None:
    """Instrument the frameworks already imported; arrange for the others on import."""
    pending = {}
    for name, fn in PROBES.items():
        if name in sys.modules:
            try:
                fn()
            except Exception as exc:  # noqa: BLE001
                errors.append(f"could not instrument {name}: {type(exc).__name__}: {exc}")
        else:
            pending[name] = fn
    if pending and not any(isinstance(f, _PostImport) for f in sys.meta_path):
        sys.meta_path.insert(0, _PostImport(pending, errors))
