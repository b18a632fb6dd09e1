"""The anatomy of a rule, and the registry every rule class joins by being defined.

A rule is one class: its code, kebab-case name, one-line message, severity, rationale (why it is
a bug, what to write instead), a link to the framework's docs, the `triggers` that a file must
mention for the rule to possibly fire (the engine's cheap first pass), and `valid`/`invalid`
examples that the test suite runs. It reads the shared analysis through event hooks
(`on_call`, `on_diff`, `on_opt`, `on_assign`, `on_store`, `on_inplace`, `on_compare`,
`on_attrset`, `on_function`) and `finish()`, and reports with `self.report(node, ...)`.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Iterable

import libcst as cst

from ..diagnostics import Applicability, Edit, Fix, Severity

if TYPE_CHECKING:  # pragma: no cover
    from ..engine import FileContext


@dataclass(frozen=True)
class Invalid:
    """Code the rule must flag; `line` (1-based) pins the finding, `fixed` the text after
    applying the rule's fix."""

    code: str
    line: int | None = None
    fixed: str | None = None


@dataclass(frozen=True)
class Valid:
    code: str


REGISTRY: dict[str, type["Rule"]] = {}


class Rule:
    code: ClassVar[str] = ""
    name: ClassVar[str] = ""
    message: ClassVar[str] = ""
    severity: ClassVar[Severity] = Severity.WARNING
    rationale: ClassVar[str] = ""
    docs: ClassVar[str | None] = None
    # Substrings the rule's pattern needs (checked by the rule-example tests).
    triggers: ClassVar[tuple[str, ...]] = ()
    # Substrings that make a top-level statement/method worth parsing on its own even if it does
    # not mention differentiation (the cheap first pass keeps it and what it references).
    chunk_triggers: ClassVar[tuple[str, ...]] = ()
    frameworks: ClassVar[tuple[str, ...]] = ("torch",)
    fix_applicability: ClassVar[Applicability | None] = None
    # `on_call` only for calls whose callee's last name is in this set (None: every call)
    call_names: ClassVar[frozenset | None] = None
    valid: ClassVar[list] = []
    invalid: ClassVar[list] = []

    def __init_subclass__(cls, **kw) -> None:
        super().__init_subclass__(**kw)
        if not cls.code:
            return
        if cls.code in REGISTRY and REGISTRY[cls.code] is not cls:
            raise RuntimeError(f"duplicate rule code {cls.code}")
        REGISTRY[cls.code] = cls
        cls.rationale = textwrap.dedent(cls.rationale).strip()

    def __init__(self, ctx: "FileContext") -> None:
        self.ctx = ctx
        self._reported: set = set()

    # ------------------------------------------------------------------ reporting
    def report(
        self,
        node: cst.CSTNode,
        message: str | None = None,
        *,
        fix: "RuleFix | None" = None,
        severity: Severity | None = None,
        key: object = None,
    ) -> None:
        """Report a finding at `node` (once per node and rule)."""
        k = key if key is not None else id(node)
        if k in self._reported:
            return
        self._reported.add(k)
        self.ctx.add_finding(self, node, message or self.message, fix, severity or self.severity)

    def finish(self) -> None:
        """Called after the whole module was interpreted."""

    # ------------------------------------------------------------------ docs
    @classmethod
    def page(cls) -> str:
        """The rule page, in Markdown (printed by `gradlint rule CODE`, shown on hover)."""
        out = [f"# {cls.code} `{cls.name}`", "", f"**{cls.severity.label}** · {cls.message}", ""]
        out.append(cls.rationale)
        if cls.docs:
            out += ["", f"See: {cls.docs}"]
        if cls.invalid:
            first = cls.invalid[0]
            out += ["", "## Example (flagged)", "", "```python", textwrap.dedent(first.code).strip(), "```"]
            if first.fixed:
                out += ["", "## After the fix", "", "```python", textwrap.dedent(first.fixed).strip(), "```"]
        if cls.valid:
            v = cls.valid[0]
            code = v.code if isinstance(v, Valid) else v
            out += ["", "## Correct", "", "```python", textwrap.dedent(code).strip(), "```"]
        fixinfo = {
            None: "No automatic fix.",
            Applicability.SAFE: "Fix: safe, applied by `gradlint check --fix`.",
            Applicability.UNSAFE: "Fix: offered as an editor quick fix (it can change what the code computes).",
        }[cls.fix_applicability]
        out += ["", fixinfo]
        return "\n".join(out) + "\n"


@dataclass(frozen=True)
class NodeEdit:
    """An edit expressed against nodes: replace `node`, or insert before/after it."""

    node: cst.CSTNode
    text: str
    how: str = "replace"  # replace | before | after | replace_span (node..end_node)
    end_node: cst.CSTNode | None = None


@dataclass(frozen=True)
class RuleFix:
    message: str
    edits: tuple[NodeEdit, ...]
    applicability: Applicability = Applicability.UNSAFE


def all_rules() -> list[type[Rule]]:
    from . import load_all

    load_all()
    return [REGISTRY[c] for c in sorted(REGISTRY)]


def examples_of(rule: type[Rule]) -> tuple[list[Valid], list[Invalid]]:
    valid = [v if isinstance(v, Valid) else Valid(v) for v in rule.valid]
    invalid = [i if isinstance(i, Invalid) else Invalid(i) for i in rule.invalid]
    return valid, invalid


def dedent(code: str) -> str:
    return textwrap.dedent(code).lstrip("\n")


__all__ = ["Rule", "Invalid", "Valid", "NodeEdit", "RuleFix", "REGISTRY", "all_rules", "Edit", "Fix", "Severity", "Applicability", "Iterable"]
