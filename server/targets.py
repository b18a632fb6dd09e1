"""What "Check gradients of NAME" can point at, found with the stdlib `ast` (no libcst, no
imports of user code).

A target is a top-level function (`f`), a method of a plain top-level class (`C.m`), or a whole
top-level class that is an `nn.Module`-like layer or a `torch.autograd.Function` (`C`: the
dynamic checker builds and differentiates the module / calls `C.apply`). A line inside a nested
function belongs to the enclosing target, since a closure cannot be called from outside.

Inputs for a target may be written in comments directly above it (above its decorators)::

    # gradlint: inputs=(torch.randn(3, 4, dtype=torch.float64),)
    # gradlint: dtype=float64
    def f(x): ...

A value may continue on the next comment lines. Keys: inputs, against, dtype, seed, constant
(comma-separated arguments to leave out of the check).
"""

from __future__ import annotations

import ast
import hashlib
import re
from dataclasses import dataclass

from gradlint.source import split_lines

# last component of a base class that makes a class a trainable layer / a custom autograd op
_MODULE_BASES = {"Module", "Layer", "Model", "Sequential", "ModuleList", "ModuleDict"}
_FUNCTION_BASES = {"Function", "InplaceFunction"}
COMMENT_KEYS = ("inputs", "against", "dtype", "seed", "constant")
_KEY_LINE = re.compile(r"^\s*#\s*gradlint:\s*(?P<key>" + "|".join(COMMENT_KEYS) + r")\s*=\s*(?P<value>.*)$")
_COMMENT = re.compile(r"^\s*#(?P<body>.*)$")


@dataclass(frozen=True)
class Target:
    qualname: str  # "f", "C.m" or "C"
    kind: str  # function | method | module | autograd-function
    line: int  # 1-based line of `def` / `class`
    first_line: int  # first decorator's line (or `line`)
    end_line: int


def _base_name(node: ast.expr) -> str | None:
    while isinstance(node, ast.Subscript):  # Generic[...] and friends
        node = node.value
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Call):  # e.g. `class M(make_base()):` - unknown
        return None
    return None


def _class_kind(cls: ast.ClassDef, known: dict[str, str]) -> str:
    for base in cls.bases:
        name = _base_name(base)
        if name is None:
            continue
        if name in known:
            return known[name]
        if name in _FUNCTION_BASES:
            return "autograd-function"
        if name in _MODULE_BASES:
            return "module"
    return "class"


def _span(node: ast.AST) -> tuple[int, int, int]:
    decorators = getattr(node, "decorator_list", [])
    first = min([node.lineno, *(d.lineno for d in decorators)])
    return node.lineno, first, getattr(node, "end_lineno", node.lineno) or node.lineno


def all_targets(text: str) -> list[Target]:
    """Every target of the module, in source order ([] when the text does not parse)."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return []
    out: list[Target] = []
    known: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            out.append(Target(node.name, "function", *_span(node)))
        elif isinstance(node, ast.ClassDef):
            kind = _class_kind(node, known)
            known[node.name] = kind
            if kind in ("module", "autograd-function"):
                out.append(Target(node.name, kind, *_span(node)))
                continue
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    out.append(Target(f"{node.name}.{item.name}", "method", *_span(item)))
    return out


def target_at(text: str, line: int, targets: list[Target] | None = None) -> Target | None:
    """The target whose source (decorators included) contains 1-based `line`."""
    for t in targets if targets is not None else all_targets(text):
        if t.first_line <= line <= t.end_line:
            return t
    return None


def find(text: str, qualname: str, targets: list[Target] | None = None) -> Target | None:
    for t in targets if targets is not None else all_targets(text):
        if t.qualname == qualname:
            return t
    return None


def comment_options(text: str, target: Target) -> dict[str, str]:
    """`# gradlint: key=value` comments directly above the target (and between its
    decorators). Later keys win; a value continues over following plain comment lines."""
    lines = split_lines(text)
    block: list[str] = []
    i = target.first_line - 2  # 0-based index of the line above the first decorator
    while i >= 0 and _COMMENT.match(lines[i]):
        block.insert(0, lines[i])
        i -= 1
    block += [ln for ln in lines[target.first_line - 1 : target.line - 1] if _COMMENT.match(ln)]
    options: dict[str, str] = {}
    key = None
    for ln in block:
        m = _KEY_LINE.match(ln)
        if m:
            key = m.group("key")
            options[key] = m.group("value").strip()
            continue
        c = _COMMENT.match(ln)
        if key is not None and c and not c.group("body").strip().startswith("gradlint:"):
            options[key] = f"{options[key]} {c.group('body').strip()}".strip()
        else:
            key = None
    return {k: v for k, v in options.items() if v}


# ---------------------------------------------------------------------- locating by text
# Verdicts are re-anchored on every publish; `ast.parse` of a 2,000-line buffer per keystroke
# would cost tens of ms, so the def/class line and its block are found with regexes.


def _def_re(name: str, indent: str) -> re.Pattern[str]:
    return re.compile(rf"^{indent}(?:async\s+)?def\s+{re.escape(name)}\b")


def _class_re(name: str) -> re.Pattern[str]:
    return re.compile(rf"^class\s+{re.escape(name)}\b")


def _block_end(lines: list[str], start: int) -> int:
    """Index one past the last line of the indented block opened at lines[start]."""
    indent = len(lines[start]) - len(lines[start].lstrip())
    end = start + 1
    last = start
    while end < len(lines):
        ln = lines[end]
        stripped = ln.strip()
        if stripped and not stripped.startswith("#"):
            if len(ln) - len(ln.lstrip()) <= indent:
                break
            last = end
        end += 1
    return last + 1


@dataclass(frozen=True)
class Located:
    line: int  # 1-based
    start_col: int  # code points: the name's span on that line
    end_col: int
    digest: str  # of the def/class block's text: a changed body invalidates a verdict


def locate(text: str, qualname: str) -> Located | None:
    lines = split_lines(text)
    parts = qualname.split(".")
    if len(parts) == 1:
        pats = [_def_re(parts[0], ""), _class_re(parts[0])]
        idx = next((i for i, ln in enumerate(lines) if any(p.match(ln) for p in pats)), None)
    elif len(parts) == 2:
        cls_re = _class_re(parts[0])
        cls = next((i for i, ln in enumerate(lines) if cls_re.match(ln)), None)
        if cls is None:
            return None
        end = _block_end(lines, cls)
        meth = re.compile(rf"^[ \t]+(?:async\s+)?def\s+{re.escape(parts[1])}\b")
        idx = next((i for i in range(cls + 1, end) if meth.match(lines[i])), None)
    else:
        return None
    if idx is None:
        return None
    name = parts[-1]
    line = lines[idx]
    m = re.search(rf"\b(?:def|class)\s+({re.escape(name)})\b", line)
    start, end_col = (m.start(1), m.end(1)) if m else (0, len(line))
    block = "\n".join(ln.rstrip() for ln in lines[idx : _block_end(lines, idx)])
    return Located(idx + 1, start, end_col, hashlib.sha1(block.encode("utf-8", "surrogatepass")).hexdigest())
