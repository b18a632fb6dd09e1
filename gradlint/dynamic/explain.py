"""Plain-words explanations of a report: what was found, where, and why the numbers say so.

Torch-free: it reads the report's numbers only, so the CLI and the server can re-explain a
report that came back from the child process.
"""

from __future__ import annotations

import math
from typing import Any

from .report import ERROR, INCONCLUSIVE, PASS, GradcheckReport, InputReport


def explain(r: GradcheckReport) -> str:
    who = r.target or "the target"
    if r.verdict == ERROR:
        return (r.error or {}).get("message") or f"The check of {who} could not run."
    parts: list[str] = []
    if r.error and r.error.get("kind") == "backward":
        parts.append(f"The backward of {who} is broken. {_sentence(r.error['message'])}")
    elif r.error and r.error.get("kind") == "inplace":
        parts.append(_sentence(r.error["message"]))
    bad = [i for i in r.inputs if i.status in ("mismatch", "nonfinite")]
    for i in bad:
        parts.append(_explain_bad_input(who, i))
    if r.nondeterministic:
        parts.append(_explain_nondeterminism(r.nondeterministic))
    if r.against:
        parts.append(_explain_against(r.against))
    unsure = [i for i in r.inputs if i.status == "nonsmooth"]
    for i in unsure:
        advice = (" Try inputs away from the kink, or check the pieces on either side separately."
                  if "kink" in (i.note or "") else "")
        parts.append(f"Could not decide for {i.name}: {_sentence(i.note or 'undecided')}{advice}")
    if r.verdict == INCONCLUSIVE and not unsure and not bad:
        parts.append(f"The check of {who} is inconclusive.")
    if r.verdict == PASS or (r.verdict != ERROR and not bad and not r.error):
        ok = [i for i in r.inputs if i.status == "ok"]
        if ok:
            parts.append(_explain_pass(who, r, ok))
    gone = [i for i in r.inputs if i.status == "disconnected"]
    if gone:
        names = ", ".join(i.name for i in gone)
        parts.append(f"{names}: disconnected (no gradient flows to {'it' if len(gone) == 1 else 'them'}, "
                     "and the output does not change with it); fine if intended.")
    if r.float32:
        parts.append(_explain_float32(r))
    parts.extend(r.notes)
    return " ".join(p for p in parts if p)


def _sentence(text: str) -> str:
    text = text.strip()
    return text if text.endswith((".", "!", "?")) else text + "."


def _fmt(x: float | None, digits: int = 3) -> str:
    if x is None:
        return "?"
    if isinstance(x, str):
        return x
    return f"{x:.{digits}g}"


def _explain_bad_input(who: str, i: InputReport) -> str:
    what = "parameter" if i.kind == "parameter" else "input"
    if i.status == "nonfinite":
        return f"The gradient of {who} with respect to {what} {i.name} is not finite: {i.note}."
    s = (f"The gradient of {who} with respect to {what} {i.name} is wrong: autograd and finite "
         f"differences disagree by {_pct(i.rel_error)} along a random direction, "
         f"{_fmt(i.ratio, 2)}x the tolerance (noise floor {_fmt(i.noise_floor, 2)}).")
    if i.worst:
        w = i.worst[0]
        where = f"{i.name}[{', '.join(map(str, w.index))}]" if w.index else i.name
        val = f" = {_fmt(w.value, 4)}" if w.value is not None else ""
        s += (f" At {where}{val} finite differences give {_fmt(w.numerical, 6)} and autograd "
              f"{_fmt(w.analytical, 6)}.")
    if i.note:
        s += f" {_sentence(i.note[0].upper() + i.note[1:])}"
    return s


def _pct(x: float | None) -> str:
    if x is None or isinstance(x, str):
        return "an unknown amount"
    if x >= 0.01:
        return f"{100 * x:.3g}%"
    return f"{x:.2g} (relative)"


def _explain_pass(who: str, r: GradcheckReport, ok: list[InputReport]) -> str:
    names = ", ".join(i.name for i in ok[:6]) + (f" and {len(ok) - 6} more" if len(ok) > 6 else "")
    worst_ratio = max((i.ratio or 0.0) for i in ok)
    resolution = max((i.resolution or 0.0) for i in ok)
    dirs = max(i.directions for i in ok)
    kinked = [i for i in ok if i.kinks]
    where = ""
    if kinked:
        places = [p for i in kinked for p in _kink_places(i)]
        many = sum(max(i.kinks_total, len(i.kinks)) for i in kinked) > 1
        where = (f" everywhere except at {', '.join(places)}, which {'sit' if many else 'sits'} exactly on a "
                 "kink (one-sided slopes differ, e.g. relu or abs at 0): autograd's value there is a "
                 "convention (a subgradient) that finite differences cannot check, so it is not vouched for."
                 " Elsewhere")
    return (f"The gradients of {who} agree with finite differences for {names}{where}{':' if not where else ''} "
            f"the largest discrepancy is {_fmt(worst_ratio, 2)}x the tolerance, and the check would have seen "
            f"a relative error above {_fmt(resolution, 2)} ({r.dtype}, {dirs} random "
            f"direction{'s' if dirs != 1 else ''} per input).")


def _kink_places(i: InputReport) -> list[str]:
    out = []
    for e in i.kinks[:3]:
        val = f" = {_fmt(e.value, 4)}" if e.value is not None else ""
        out.append(f"{i.name}[{', '.join(map(str, e.index))}]{val}" if e.index else f"{i.name}{val}")
    more = max(i.kinks_total, len(i.kinks)) - len(out)
    if more > 0:
        out.append(f"{more} more element{'s' if more != 1 else ''} of {i.name}")
    return out


def _explain_nondeterminism(nd: dict[str, Any]) -> str:
    parts = []
    for name, e in nd.items():
        verdict = ("more than the check's tolerance: the backward is wrong on some calls"
                   if e.get("above_tolerance") else "within rounding; harmless for training, "
                   "but results are not bit-reproducible")
        parts.append(f"Two identical backward passes differ for {name} (max {_fmt(e['max_abs_diff'], 2)}, "
                     f"relative {_fmt(e['max_rel_diff'], 2)}): {verdict}.")
    return " ".join(parts)


def _explain_against(ag: dict[str, Any]) -> str:
    if ag.get("error"):
        return f"The hand-written gradient is unusable: {ag['error']}."
    parts = []
    for row in ag["inputs"]:
        if "max_abs_diff" not in row:
            parts.append(f"{row['name']}: {row.get('note', '')}.")
            continue
        d, n = row["max_abs_diff"], row["ulps_at_max_diff"]
        if d == 0:
            parts.append(f"The hand-written gradient for {row['name']} equals autograd's bit for bit.")
            continue
        idx = ", ".join(map(str, row["index"]))
        parts.append(f"The hand-written gradient for {row['name']} differs from autograd by at most "
                     f"{_fmt(d, 3)} (at [{idx}]: {_fmt(row['hand_written'], 8)} vs "
                     f"{_fmt(row['autograd'], 8)}); that is {_fmt(n, 3)} ulp of {row['dtype']}"
                     f" (at most {_fmt(row['max_ulps'], 3)} ulp anywhere).")
    fd = ag.get("finite_differences", [])
    if ag.get("wrong"):
        bad = ", ".join(x["name"] for x in fd if x["status"] == "mismatch")
        parts.append(f"Finite differences say the hand-written gradient for {bad} is wrong.")
    elif fd and not ag.get("unresolved"):
        small = all(r.get("max_ulps", 0) <= 4 for r in ag["inputs"] if "max_ulps" in r)
        parts.append("Finite differences agree with the hand-written gradient"
                     + ("; the difference from autograd is rounding, not a bug." if small else "."))
    return " ".join(parts)


def _explain_float32(r: GradcheckReport) -> str:
    f = r.float32 or {}
    parts = []
    floor = f.get("detection_floor")
    ours = [i.resolution for i in r.inputs if i.status == "ok" and i.resolution is not None]
    if floor is not None and r.dtype != "float32" and ours:
        parts.append(f"A float32 check of this target could only resolve relative errors above "
                     f"{_fmt(floor, 2)} (this float64 check: {_fmt(max(ours), 2)}).")
    loss = f.get("loss")
    if loss:
        u = loss["ulp"]
        p2 = f" = {loss['ulp_power_of_two']}" if loss.get("ulp_power_of_two") else ""
        q = loss["fd_quantum"]["1e-3"]
        med = loss.get("median_abs_gradient")
        # Only worth a sentence when the quantum is visible next to the gradient itself.
        if isinstance(med, float) and not math.isnan(med) and med > 0 and loss["value"] and q > 0.01 * med:
            s = (f"In float32 the loss ({_fmt(loss['value'], 4)}) has an ulp of {_fmt(u, 3)}{p2}, so a "
                 f"one-sided finite difference with step 1e-3 moves in multiples of ulp(L)/h = "
                 f"{_fmt(q, 3)}")
            if q > 0.1 * med:
                s += (f", {'larger than' if q > med else 'a large fraction of'} the median gradient "
                      f"entry ({_fmt(med, 2)}): a hand-written float32 finite-difference check of "
                      "this loss cannot work")
            else:
                s += (f", {100 * q / med:.0f}% of the median gradient entry ({_fmt(med, 2)}): a "
                      "hand-written float32 finite-difference check of this loss is coarse")
            parts.append(s + ".")
    return " ".join(parts)
