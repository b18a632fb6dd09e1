"""Imports to files: `pkg.mod` under one of the roots is `pkg/mod.py` or `pkg/mod/__init__.py`
(a regular package; a namespace directory without `__init__.py` resolves its submodules too).
A relative import is made absolute from the importing module's own name."""

from __future__ import annotations

import os

from .roots import package_base


# (name, roots) -> file: the same imports are resolved by every check of a process. The
# language server drops it when the editor reports files created or deleted (`forget`).
_FOUND: dict[tuple[str, tuple[str, ...]], str | None] = {}


def find_module(name: str, roots: tuple[str, ...]) -> str | None:
    """The file that defines the module `name` under the first root that has it."""
    key = (name, roots)
    if key in _FOUND:
        return _FOUND[key]
    found = None
    if name and all(part.isidentifier() for part in name.split(".")):
        rel = name.replace(".", os.sep)
        for root in roots:
            base = os.path.join(root, rel)
            found = next((c for c in (base + ".py", os.path.join(base, "__init__.py")) if os.path.isfile(c)), None)
            if found is not None:
                break
    if len(_FOUND) > 100_000:
        _FOUND.clear()
    _FOUND[key] = found
    return found


def forget() -> None:
    _FOUND.clear()


def module_name(path: str, roots: tuple[str, ...]) -> str | None:
    """The dotted name `path` has: within a package (an `__init__.py` chain) its name from
    the top of the chain; otherwise its name under the first root, other than its own
    directory, that contains it (a namespace package such as `trainer/loop.py` without
    `__init__.py` is `trainer.loop`, which relative imports in it need); else its stem."""
    path = os.path.abspath(path)
    here = os.path.dirname(path)
    top = package_base(here)
    candidates = [top] if top != here else [r for r in roots if r != here] + [here]
    for root in candidates:
        rel = os.path.relpath(path, root)
        if rel.startswith(os.pardir) or os.path.isabs(rel) or not rel.endswith(".py"):
            continue
        parts = rel[:-3].split(os.sep)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        if parts and all(p.isidentifier() for p in parts):
            return ".".join(parts)
    return None


def absolute(module: str | None, level: int, importer: str | None, importer_is_package: bool) -> str | None:
    """`from ..a import b` in `pkg.sub.mod` is `pkg.a`; None when it climbs above the top."""
    if level == 0:
        return module
    if importer is None:
        return None
    parts = importer.split(".")
    if not importer_is_package:
        parts = parts[:-1]
    if level - 1 > len(parts) or (level - 1 == len(parts) and not module):
        return None
    base = parts[: len(parts) - (level - 1)]
    if module:
        base = base + [module]
    return ".".join(base) or None
