"""Human-readable output, like ruff's: `path:row:col: CODE [*] message`, optionally followed by
the source line with the range underlined. Rows and columns are 1-based (columns in
characters), so `path:row:col` opens in editors and terminals that understand it. In a
notebook, as in ruff: `path:cell N:row:col:`, the row and the snippet being the cell's."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

from ..diagnostics import Diagnostic, Severity
from . import OutputContext

_RESET = "\x1b[0m"
_BOLD = "\x1b[1m"
_RED = "\x1b[31m"
_YELLOW = "\x1b[33m"
_BLUE = "\x1b[34m"
_CYAN = "\x1b[36m"
_SEVERITY_COLOR = {Severity.ERROR: _RED, Severity.WARNING: _YELLOW, Severity.INFO: _BLUE}
_TAB = 4


def _style(ctx: OutputContext, text: str, *codes: str) -> str:
    return "".join(codes) + text + _RESET if ctx.color else text


def headline(d: Diagnostic, ctx: OutputContext) -> str:
    path = _style(ctx, ctx.relpath(d.path), _BOLD)
    colon = _style(ctx, ":", _CYAN)
    code = _style(ctx, d.code, _BOLD, _SEVERITY_COLOR.get(d.severity, _RED))
    marker = _style(ctx, "[*] ", _CYAN) if ctx.applicable(d) else ""
    cell = f"cell {d.cell}{colon}" if d.cell is not None else ""  # ruff's `nb.ipynb:cell 3:2:5:`
    return f"{path}{colon}{cell}{d.start.line}{colon}{d.start.column + 1}{colon} {code} {marker}{d.message}"


def _width(ch: str) -> int:
    if ch == "\t":
        return _TAB
    if unicodedata.combining(ch):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def snippet(d: Diagnostic, ctx: OutputContext) -> list[str]:
    """The flagged line with the range underlined (to the end of the line when it spans more)."""
    src = ctx.lines_of(d.path, d.cell)
    if src is None or not 1 <= d.start.line <= len(src.lines):
        return []
    line = src.line(d.start.line)
    start = min(d.start.column, len(line))
    end = min(d.end.column, len(line)) if d.end.line == d.start.line else len(line)
    pad = sum(_width(c) for c in line[:start])
    length = max(1, sum(_width(c) for c in line[start:end]))
    gutter = " " * len(str(d.start.line))
    bar = _style(ctx, "|", _BLUE)
    shown = line.replace("\t", " " * _TAB)
    carets = _style(ctx, "^" * length + " " + d.code, _BOLD, _SEVERITY_COLOR.get(d.severity, _RED))
    out = [
        f"{gutter} {bar}",
        f"{_style(ctx, str(d.start.line), _BLUE)} {bar} {shown}",
        f"{gutter} {bar} {' ' * pad}{carets}",
        f"{gutter} {bar}",
    ]
    if d.fix is not None:
        kind = "" if d.fix.is_safe else " (unsafe)"
        out.append(f"{gutter} = {_style(ctx, 'help', _BOLD)}: {d.fix.message}{kind}")
    return out


def render_concise(diagnostics: Sequence[Diagnostic], ctx: OutputContext) -> str:
    return "".join(headline(d, ctx) + "\n" for d in diagnostics)


def render_full(diagnostics: Sequence[Diagnostic], ctx: OutputContext) -> str:
    # Each block ends with a blank line, which also separates the last one from the summary.
    return "".join("\n".join([headline(d, ctx), *snippet(d, ctx)]) + "\n\n" for d in diagnostics)


def render(diagnostics: Sequence[Diagnostic], ctx: OutputContext) -> str:
    return render_full(diagnostics, ctx) if ctx.tty else render_concise(diagnostics, ctx)


def _errors(n: int) -> str:
    return f"{n} error" + ("" if n == 1 else "s")


def summary(remaining: Sequence[Diagnostic], ctx: OutputContext, *, fixed: int = 0, fix_mode: bool = False) -> list[str]:
    """ruff's closing lines: how many findings, how many `--fix` would repair."""
    if not remaining and not fixed:
        return ["All checks passed!"]
    if fix_mode and fixed:
        lines = [f"Found {_errors(len(remaining) + fixed)} ({fixed} fixed, {len(remaining)} remaining)."]
    else:
        lines = [f"Found {_errors(len(remaining))}."]
    fixable = sum(1 for d in remaining if ctx.applicable(d))
    hidden = sum(1 for d in remaining if d.fix is not None and not d.fix.is_safe and not ctx.unsafe_fixes)
    hint = ""
    if hidden:
        hint = f" ({hidden} hidden fix{'es' if hidden != 1 else ''} can be enabled with the `--unsafe-fixes` option)"
    if fixable:
        lines.append(f"[*] {fixable} fixable with the `--fix` option{hint}.")
    elif hidden:
        lines.append(f"No fixes available{hint}.")
    return lines


def render_statistics(rows: Sequence[dict], ctx: OutputContext) -> str:
    """One line per code: count, code, fixable marker, name (most frequent first)."""
    if not rows:
        return ""
    cw = max(len(str(r["count"])) for r in rows)
    kw = max(len(r["code"]) for r in rows)
    out = []
    for r in rows:
        marker = "[*]" if r["fixable"] else "   "
        out.append(f"{r['count']:>{cw}}\t{r['code']:<{kw}}\t{marker} {r['name']}\n")
    return "".join(out)
