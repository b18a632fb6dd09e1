"""Human-readable rendering of a report (torch-free)."""

from __future__ import annotations

import textwrap

from .report import GradcheckReport

WIDTH = 100


def _g(x, digits: int = 3) -> str:
    if x is None:
        return "-"
    if isinstance(x, str):
        return x
    return f"{x:.{digits}g}"


def format_text(r: GradcheckReport) -> str:
    head = f"gradcheck {r.target or '<target>'}: {r.verdict.upper()}"
    lines = [head]
    lines += textwrap.wrap(r.explanation, WIDTH, initial_indent="  ", subsequent_indent="  ")
    rows = [i for i in r.inputs if i.status != "unchecked" or r.verdict != "error"]
    if rows:
        lines.append("")
        lines.append(f"  {'input':<20} {'shape':<14} {'status':<13} {'rel error':>10} {'ratio':>9} "
                     f"{'resolves':>9}")
        for i in rows:
            lines.append(f"  {i.name[:20]:<20} {str(tuple(i.shape))[:14]:<14} {i.status:<13} "
                         f"{_g(i.rel_error, 2):>10} {_g(i.ratio, 2):>9} {_g(i.resolution, 2):>9}")
            for w in i.worst:
                idx = ", ".join(map(str, w.index))
                val = f" ({i.name}={_g(w.value, 4)})" if w.value is not None else ""
                lines.append(f"      [{idx}]{val}: numerical {_g(w.numerical, 6)}, autograd "
                             f"{_g(w.analytical, 6)}")
            for k in i.kinks:
                idx = ", ".join(map(str, k.index))
                val = f" ({i.name}={_g(k.value, 4)})" if k.value is not None else ""
                lines.append(f"      [{idx}]{val}: on a kink, not vouched for (autograd {_g(k.analytical, 6)})")
    if r.error and r.error.get("traceback"):
        lines.append("")
        lines += ["  " + ln for ln in r.error["traceback"].rstrip().splitlines()[-12:]]
    if r.output.strip():
        lines.append("")
        lines.append("  output of the target (last lines):")
        lines += ["    " + ln for ln in r.output.rstrip().splitlines()[-10:]]
    t = r.timings
    took = t.get("wall", t.get("total", t.get("check")))
    if took is not None:
        extra = (f", {r.evaluations} forward evaluation{'s' if r.evaluations != 1 else ''}"
                 if r.evaluations else "")
        src = f", inputs {r.inputs_source}" if r.inputs_source else ""
        lines.append("")
        lines.append(f"  ({r.dtype or '-'}, seed {r.seed}{src}{extra}; {took * 1000:.0f} ms)")
    return "\n".join(lines)
