"""gradlint: a linter and language server for the bugs that autograd code hides.

Static API (no deep-learning framework is imported):
    check_source(text, path=...) -> list[Diagnostic]
    check_paths(paths, config) -> list[Diagnostic]
Dynamic API (imports torch lazily, in the calling process):
    gradcheck(fn, *inputs, ...) -> GradcheckReport
"""

# First, before any other import: under `python -m gradlint` the working directory is first on
# sys.path (see _startpath.py). No `from __future__ import annotations` in this file: it would
# import a module before that.
from . import _startpath

_startpath.drop_start_dir(__file__)

from typing import Any  # noqa: E402

__version__ = "0.1.0"

from .config import Config, ConfigError, load_config  # noqa: E402
from .diagnostics import Applicability, Diagnostic, Edit, Fix, Position, Severity  # noqa: E402
from .engine import check_source  # noqa: E402


def check_paths(paths, config: Config | None = None, **kw: Any) -> list[Diagnostic]:
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
