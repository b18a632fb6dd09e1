"""What a project module's text says about its definitions, without running it: which of them
differentiate (call backward(), autograd.grad, a GradientTape, jax.grad, ... in their own
statements or in the module's definitions they name). The evidence gate (evidence.py) asks it
of what a file imports; the interpreter asks it of a plain class (analysis/interp/modules.py:
a class that is neither a model nor differentiates is left to the unknown, as in a file's
check on its own). Verdicts are kept on the module's index: once per module and process."""

from __future__ import annotations

import re

from .. import prefilter
from ..analysis.frameworks import EVIDENCE
from .loader import ModuleIndex

IMPORT_STATEMENT = re.compile(r"^[ \t]*(?:from[ \t]+[\w.]+[ \t]+import[ \t]+\([^)]*\)|(?:from[ \t]+[\w.]+[ \t]+)?import[ \t]+[^\n]*)", re.M)
FROM = re.compile(r"[ \t]*from[ \t]+(\.*)([\w.]*)[ \t]+import\b")
# Evidence the first pass takes for rules that need no differentiation in the same file (an
# optimizer made, activation checkpointing turned on, a weight written in place, a graph
# inspected, a JAX functional update): not a sign that *calling* the definition differentiates
# (transformers' `PreTrainedModel` turns checkpointing on; every modeling file imports it)
_NOT_DIFFERENTIATION = ("optim.", "checkpoint", "nn.", "weight", "bias", "grad", "at[", "index_")
_SETUP_PATTERNS = [rx for needle, rx in EVIDENCE.patterns if needle in _NOT_DIFFERENTIATION]


def differentiates(text: str, code: str) -> bool:
    """Whether code (`text` and its mask) differentiates: evidence outside import statements
    and outside the setup patterns above."""
    if not prefilter.has_diff_evidence(text):
        return False
    code = IMPORT_STATEMENT.sub("", code)
    for rx in _SETUP_PATTERNS:
        code = rx.sub(" ", code)
    return prefilter.has_diff_evidence(code)


def code_evidence(index: ModuleIndex) -> bool:
    """Whether a module's code outside its import statements shows differentiation evidence
    (kept on the index: once per module and process)."""
    memo = index.memo
    hit = memo.get("evidence")
    if hit is None:
        hit = memo["evidence"] = differentiates(index.text, index.code)
    return hit


def definition_evidence(index: ModuleIndex, name: str, depth: int = 3) -> bool:
    """Whether the definition of `name` in a module shows differentiation evidence, in its own
    statements or in the module's definitions they name (as deep as the analysis inlines):
    `Trainer` whose `fit` calls backward(), not `PreTrainedModel` of a module that has a
    training utility somewhere else (transformers' modeling files import it by the hundred)."""
    memo = index.memo.setdefault("definitions", {})
    hit = memo.get(name)
    if hit is not None:
        return hit
    memo[name] = False  # a definition naming itself
    seen: set[int] = set()
    frontier = [i for i in index.binds.get(name, ()) if FROM.match(index.code, index.chunks[i].start) is None]
    found = False
    for _ in range(depth + 1):
        nxt: list[int] = []
        for i in frontier:
            if i in seen:
                continue
            seen.add(i)
            c = index.chunks[i]
            code = index.code[c.start : c.end]
            if differentiates(c.text, code):
                found = True
                break
            refs = set(prefilter._IDENT.findall(code))
            nxt.extend(j for r in refs & index.binds.keys() for j in index.binds[r] if j not in seen)
        if found or not nxt:
            break
        frontier = nxt
    memo[name] = found
    return found
