"""The cheap first pass: decide from the raw text whether (and where) a finding is possible.

libcst is precise but slow (a bare parse is ~15-30k lines per CPU-second), while most lines of a
real tree cannot hold a finding. Every rule lists `triggers`: substrings without which it
cannot fire. A file that contains no trigger of any selected rule is not parsed at all.

`tests/test_prefilter.py` proves this loses no finding: it runs the fast path and the exhaustive
path (`check_source(..., exhaustive=True)`) over the pitfall corpus and the rule examples.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Plan:
    skip: bool
    text: str
    narrowed: bool = False


def triggers_of(rules) -> tuple[str, ...]:
    out: set[str] = set()
    for r in rules:
        out.update(r.triggers)
    return tuple(sorted(out))


def plan(text: str, rules) -> Plan:
    trig = triggers_of(rules)
    if not trig:
        return Plan(skip=True, text=text)
    for t in trig:
        if t in text:
            return Plan(skip=False, text=text)
    return Plan(skip=True, text=text)
