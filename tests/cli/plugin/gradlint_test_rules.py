"""Test-only rules with predictable findings, for the CLI tests.

Loaded only into `gradlint` subprocesses (through `run.py` beside this file), never into the
pytest process: defining a rule registers it in the global REGISTRY, which other test modules
iterate. They use the public rule API only (an `on_call` hook, `report`, `RuleFix`/`NodeEdit`),
so they keep working while the real rules change. Every test file also contains `.backward(`
so that the engine's first pass treats it as differentiated code and analyses it.
"""

from __future__ import annotations

import libcst as cst

from gradlint.diagnostics import Applicability, Severity
from gradlint.rules.base import NodeEdit, Rule, RuleFix


def _called(ev, name: str) -> bool:
    func = ev.node.func if isinstance(ev.node, cst.Call) else None
    return isinstance(func, cst.Name) and func.value == name


class _TestRule(Rule):
    frameworks = ()
    rationale = "A rule that exists only in gradlint's CLI tests."


class ForbiddenCall(_TestRule):
    code = "GL991"
    name = "forbidden-call"
    message = "`forbidden()` is forbidden"
    severity = Severity.ERROR
    triggers = chunk_triggers = ("forbidden",)
    fix_applicability = Applicability.SAFE

    def on_call(self, ev) -> None:
        if _called(ev, "forbidden"):
            fix = RuleFix("Call `allowed()` instead", (NodeEdit(ev.node.func, "allowed"),), Applicability.SAFE)
            self.report(ev.node, fix=fix)


class ShakyCall(_TestRule):
    code = "GL992"
    name = "shaky-call"
    message = "`shaky()` may be wrong"
    severity = Severity.WARNING
    triggers = chunk_triggers = ("shaky",)
    fix_applicability = Applicability.UNSAFE

    def on_call(self, ev) -> None:
        if _called(ev, "shaky"):
            fix = RuleFix("Call `steady()` instead", (NodeEdit(ev.node.func, "steady"),), Applicability.UNSAFE)
            self.report(ev.node, fix=fix)


class NoteCall(_TestRule):
    code = "GL993"
    name = "note-call"
    message = "`note_me()` is worth a note"
    severity = Severity.INFO
    triggers = chunk_triggers = ("note_me",)

    def on_call(self, ev) -> None:
        if _called(ev, "note_me"):
            self.report(ev.node)


class ExplodingRule(_TestRule):
    code = "GL994"
    name = "exploding-rule"
    message = "never reported: the rule raises"
    triggers = chunk_triggers = ("explode",)

    def on_call(self, ev) -> None:
        if _called(ev, "explode"):
            raise ValueError("boom from the test rule")
