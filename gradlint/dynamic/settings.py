"""Inputs from the project's configuration: `[tool.gradlint.gradcheck.inputs]` in the nearest
pyproject.toml above the target file.

    [tool.gradlint.gradcheck.inputs]
    "model.py::loss" = "torch.randn(140, 120), torch.randn(140, 120)"
    Net = "torch.randn(8, 3)"

Keys are matched against the target as given, as `path::name` relative to the pyproject.toml's
folder, and as the bare name (`Net`, `Net.forward`). Read in the child process (so the CLI and
the language server get it alike) with tomllib, or tomli on Python 3.10; without either the
configuration is skipped.
"""

from __future__ import annotations

import os
from typing import Any


def _load_toml(path: str) -> dict[str, Any] | None:
    try:
        import tomllib  # Python 3.11+
    except ImportError:
        try:
            import tomli as tomllib  # type: ignore[no-redef]
        except ImportError:
            return None
    try:
        with open(path, "rb") as f:
            return tomllib.load(f)
    except (OSError, ValueError):
        return None


def find_pyproject(start: str) -> str | None:
    folder = os.path.abspath(start)
    while True:
        candidate = os.path.join(folder, "pyproject.toml")
        if os.path.isfile(candidate):
            return candidate
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent


def configured_inputs(target: str, cwd: str) -> tuple[str, str] | None:
    """-> (inputs expression, pyproject path) configured for `target`, or None."""
    path, sep, qual = target.partition("::")
    if sep:
        file = path if os.path.isabs(path) else os.path.join(cwd, path)
        start = os.path.dirname(os.path.abspath(file))
    else:  # package.module:name
        qual = target.rpartition(":")[2]
        file, start = None, cwd
    pyproject = find_pyproject(start)
    if pyproject is None:
        return None
    data = _load_toml(pyproject) or {}
    table = data.get("tool", {}).get("gradlint", {}).get("gradcheck", {}).get("inputs", {})
    if not isinstance(table, dict):
        return None
    keys = [target, qual]
    if file is not None:
        rel = os.path.relpath(os.path.abspath(file), os.path.dirname(pyproject)).replace(os.sep, "/")
        keys.insert(1, f"{rel}::{qual}")
    for key in keys:
        expr = table.get(key)
        if isinstance(expr, str) and expr.strip():
            return expr, pyproject
    return None
