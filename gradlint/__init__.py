"""gradlint: a linter and language server for the bugs that autograd code hides.

Static API (no deep-learning framework is imported):
    check_source(text, path=...) -> list[Diagnostic]
    check_paths(paths, config) -> list[Diagnostic]
Dynamic API (imports torch lazily, in the calling process):
    gradcheck(fn, *inputs, ...) -> GradcheckReport
"""

# No `from __future__ import annotations` here: it imports the module `__future__`, and under
# `python -m gradlint` that would be looked up in the working directory before the lines below
# could take the directory off the path.
import sys as _sys

if _sys.argv[:1] == ["-m"] and _sys.path:  # `python -m gradlint ...` while it finds gradlint
    import os as _os  # loaded at start-up already, never looked up on the path

    def _drop_start_dir() -> None:
        """`-m` put the working directory first on sys.path. A repository checked in CI (or a
        folder an editor opened) then shadows every module imported from here on: `json.py`,
        `dataclasses.py`... Unless gradlint itself came from there (a source checkout), the entry
        goes. Best effort only: a `gradlint/` there already replaced this package, and what
        Python imported before this line (`runpy` on 3.10, `types` on 3.12+) was looked up there
        too. `gradlint check`, the console script, never has the directory on its path."""
        first = _os.path.realpath(_sys.path[0] or _os.curdir)
        here = _os.path.dirname(_os.path.dirname(_os.path.realpath(__file__)))
        if first == _os.path.realpath(_os.getcwd()) and first != here:
            del _sys.path[0]

    _drop_start_dir()

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
