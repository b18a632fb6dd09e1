"""gradlint: a linter and language server for the bugs that autograd code hides.

Static API (no deep-learning framework is imported):
    check_source(text, path=...) -> list[Diagnostic]
    check_paths(paths, config) -> list[Diagnostic]
Dynamic API (imports torch lazily, in the calling process):
    gradcheck(fn, *inputs, ...) -> GradcheckReport
"""

from __future__ import annotations

from typing import Any

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
