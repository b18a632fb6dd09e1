"""The differentiation-evidence gate, project-wide: a file that shows no evidence itself is
still analysed when a project module it imports does (`scripts/train.py` builds the model and
hands it to `Trainer.fit`, which calls backward() in `mylib/trainer.py`). Only the file's own
imports are looked at, and only their text (no parse): the gate stays cheap."""

from __future__ import annotations

import re

from .. import limits, prefilter
from ..source import DecodeError, decode_source
from .loader import MAX_BYTES, ProjectModules
from .resolve import find_module

_IMPORT = re.compile(
    r"^[ \t]*(?:from[ \t]+(\.*)([\w.]*)[ \t]+import[ \t]+(?:\(([^)]*)\)|([\w., \t\\]+|\*))|import[ \t]+([\w., \t]+))", re.M
)


_IMPORT_STATEMENT = re.compile(r"^[ \t]*(?:from[ \t]+[\w.]+[ \t]+import[ \t]+\([^)]*\)|(?:from[ \t]+[\w.]+[ \t]+)?import[ \t]+[^\n]*)", re.M)


def imported_modules(mask: str, project: ProjectModules) -> list[str]:
    """Absolute names of what the file imports (and `from pkg import name` as `pkg.name`,
    which may be a submodule), from its code with strings and comments masked."""
    out: list[str] = []
    for m in _IMPORT.finditer(mask):
        if m.group(5) is not None:
            out.extend(part.split()[0] for part in m.group(5).split(",") if part.split())
            continue
        base = project.absolute(m.group(2) or None, len(m.group(1)), project.name, project.is_package)
        if base is None:
            continue
        out.append(base)
        for name in (m.group(3) or m.group(4) or "").replace("\\", " ").split(","):
            words = name.split()
            if words and words[0] != "*":
                out.append(f"{base}.{words[0]}")
    return out


def imports_differentiating(text: str, project: ProjectModules) -> bool:
    """Whether a project module the file imports shows differentiation evidence."""
    mask = prefilter.code_mask(text)
    if "(" not in _IMPORT_STATEMENT.sub("", mask):
        # nothing but imports (a package's `__init__` re-exporting its modules): no code here
        # can call what it imports, so there is nothing to analyse
        return False
    for name in imported_modules(mask, project):
        if not project.has_top(name.split(".", 1)[0]):
            continue
        path = find_module(name, project.roots)
        if path is None or path == project.path:
            continue
        try:
            data, _ = limits.read_regular(path, MAX_BYTES)
            other = decode_source(data)
        except (OSError, DecodeError):
            continue
        if prefilter.has_diff_evidence(other) and prefilter.has_diff_evidence(prefilter.code_mask(other)):
            return True
    return False
