"""gradlint: a linter and language server for the bugs that autograd code hides.

Static API (no deep-learning framework is imported):
    check_source(text, path=...) -> list[Diagnostic]
    check_paths(paths, config) -> list[Diagnostic]
Dynamic API (imports torch lazily, in the calling process):
    gradcheck(fn, *inputs, ...) -> GradcheckReport

The names are loaded on first use (module `__getattr__`): `import gradlint.cli` must not pay
for libcst and the analysis before a command needs them.
"""

# First, before any other import: under `python -m gradlint` the working directory is first on
# sys.path (see _startpath.py). No `from __future__ import annotations` in this file: it would
# import a module before that.
from . import _startpath

_startpath.drop_start_dir(__file__)

from typing import TYPE_CHECKING, Any  # noqa: E402

from ._version import __version__  # noqa: E402

if TYPE_CHECKING:  # pragma: no cover
    from .config import Config, ConfigError, load_config
    from .diagnostics import Applicability, Diagnostic, Edit, Fix, Position, Severity
    from .engine import check_source

# name -> module it comes from
_LAZY = {
    "Config": "config", "ConfigError": "config", "load_config": "config",
    "Applicability": "diagnostics", "Diagnostic": "diagnostics", "Edit": "diagnostics", "Fix": "diagnostics",
    "Position": "diagnostics", "Severity": "diagnostics",
    "check_source": "engine",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'gradlint' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


def check_paths(paths, config: "Config | None" = None, **kw: Any) -> "list[Diagnostic]":
    """Lint files and directories (discovery honours .gitignore and the config's excludes)."""
    from .files import run_paths

    return run_paths(paths, config, **kw).diagnostics


def gradcheck(fn, *inputs, **kw: Any):
    """Check the gradients of `fn` at `inputs` (see gradlint.dynamic). Imports torch."""
    from .dynamic import gradcheck as _gradcheck

    return _gradcheck(fn, *inputs, **kw)


__all__ = [
    "Applicability", "Config", "ConfigError", "Diagnostic", "Edit", "Fix", "Position",
    "Severity", "check_paths", "check_source", "gradcheck", "load_config", "__version__",
]
