"""The anatomy of a rule, and the registry every rule class joins by being defined.

A rule is one class: its code, one-line message, severity, rationale (why it is a bug, what to
write instead), a link to the framework's docs, the `triggers` its examples must mention (the
tests check that the cheap first pass keeps them), `chunk_triggers` (text that makes a
statement worth parsing although it does not differentiate), and `valid`/`invalid` examples
that the test suite runs. Its name is its class name in kebab case (`GradKeptWithoutClone` is
`grad-kept-without-clone`). It reads the shared analysis through the event hooks declared
below (`on_call`, `on_diff`, ...) and `finish()`, and reports with `self.report(node, ...)`.
A method named `on_...` that is not a hook is an error when the class is defined.

A family of rules is one module of this package with a `FAMILY` (its code prefix and title);
see rules/__init__.py.
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, ClassVar, cast

from ..diagnostics import Applicability, Edit, Fix, Severity

if TYPE_CHECKING:  # pragma: no cover
    import libcst as cst

    from ..analysis.events import (
        AssignEvent, AttrSetEvent, BinOpEvent, CallEvent, CompareEvent, DiffEvent, FunctionEvent, InplaceEvent, InspectEvent, OptEvent,
        StoreEvent, TransformedCallEvent, UseEvent,
    )
    from .context import FileContext


@dataclass(frozen=True)
class Family:
    """A family of rules: the code prefix its rules share (`GL3`) and its title."""

    prefix: str
    title: str


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


from . import REGISTRY as _REGISTRY  # noqa: E402  (the registry lives in the package, which cannot name Rule)
from . import load_all  # noqa: E402

REGISTRY = cast("dict[str, type[Rule]]", _REGISTRY)

_SUBSCRIBED: dict[type, frozenset[str]] = {}


def kebab_name(class_name: str) -> str:
    """`GradKeptWithoutClone` -> "grad-kept-without-clone" (a trailing "Rule" is dropped)."""
    base = re.sub(r"Rule$", "", class_name)
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", "-", base).lower()


class Rule:
    code: ClassVar[str] = ""
    name: ClassVar[str] = ""  # derived: the class name in kebab case
    message: ClassVar[str] = ""
    severity: ClassVar[Severity] = Severity.WARNING
    rationale: ClassVar[str] = ""
    docs: ClassVar[str | None] = None
    # Substrings the rule's pattern needs (the rule-example tests check that every invalid
    # example contains one, so that the cheap first pass can never hide the rule's own cases).
    triggers: ClassVar[tuple[str, ...]] = ()
    # Substrings that make a top-level statement/method worth parsing on its own even if it does
    # not mention differentiation (the cheap first pass keeps it and what it references).
    chunk_triggers: ClassVar[tuple[str, ...]] = ()
    # the frameworks the rule is about (documentation; the analysis decides what applies)
    frameworks: ClassVar[tuple[str, ...]] = ("torch",)
    fix_applicability: ClassVar[Applicability | None] = None
    # True for the GL6xx rules (rules/runtime.py): observed by `gradlint trace` in a run of the
    # program, never reported by the static engine; their examples are programs to trace
    runtime: ClassVar[bool] = False
    # `on_call` only for calls whose callee's last name is in this set (None: every call)
    call_names: ClassVar[frozenset | None] = None
    valid: ClassVar[list] = []
    invalid: ClassVar[list] = []

    HOOKS: ClassVar[frozenset[str]] = frozenset()  # set below: the names of the hook stubs

    def __init_subclass__(cls, **kw) -> None:
        super().__init_subclass__(**kw)
        for attr, value in vars(cls).items():
            if attr.startswith("on_") and callable(value) and attr not in Rule.HOOKS:
                raise TypeError(
                    f"{cls.__name__}.{attr} is not an event hook (a misspelling?); the hooks are: {', '.join(sorted(Rule.HOOKS))}"
                )
        if not cls.code:
            return
        derived = kebab_name(cls.__name__)
        if "name" not in vars(cls):
            cls.name = derived
        elif cls.name != derived and cls.__module__.startswith(__package__ + "."):
            # gradlint's own rules have one spelling; a plugin's rule may name itself
            raise TypeError(f"{cls.__name__} ({cls.code}) declares the name {cls.name!r}: a rule's name is its class name in kebab case ({derived!r})")
        if cls.code in REGISTRY and REGISTRY[cls.code] is not cls:
            raise RuntimeError(f"duplicate rule code {cls.code}")
        REGISTRY[cls.code] = cls
        cls.rationale = textwrap.dedent(cls.rationale).strip()

    def __init__(self, ctx: "FileContext") -> None:
        self.ctx = ctx
        self._reported: set = set()

    @classmethod
    def subscribed_hooks(cls) -> frozenset[str]:
        """The hooks this rule overrides (the engine calls only these)."""
        hooks = _SUBSCRIBED.get(cls)
        if hooks is None:
            hooks = _SUBSCRIBED[cls] = frozenset(h for h in Rule.HOOKS if getattr(cls, h) is not getattr(Rule, h))
        return hooks

    # ------------------------------------------------------------------ event hooks
    # No-ops here; a rule overrides the ones it needs. events.EVENT_HOOKS maps each event
    # class to its hook (a test keeps the two in step).
    def on_call(self, ev: "CallEvent") -> None:
        """Any call (only those whose callee's last name is in `call_names`, if set)."""

    def on_diff(self, ev: "DiffEvent") -> None:
        """Something is differentiated: backward, autograd.grad, tape.gradient, jax.grad, ..."""

    def on_inspect(self, ev: "InspectEvent") -> None:
        """The code inspects whether a value carries a graph (`print(loss.grad_fn)`), expecting it to."""

    def on_opt(self, ev: "OptEvent") -> None:
        """Optimizer bookkeeping: step, zero_grad, unscale, clip."""

    def on_assign(self, ev: "AssignEvent") -> None:
        """`name = value` and `name op= value`."""

    def on_store(self, ev: "StoreEvent") -> None:
        """A value stored in an object or container: `obj.a = v`, `c[k] = v`, `c.append(v)`."""

    def on_inplace(self, ev: "InplaceEvent") -> None:
        """A tensor modified in place."""

    def on_compare(self, ev: "CompareEvent") -> None:
        """A comparison."""

    def on_binop(self, ev: "BinOpEvent") -> None:
        """A binary operation `left op right`."""

    def on_use(self, ev: "UseEvent") -> None:
        """A read the analysis reports (`x.grad`)."""

    def on_function(self, ev: "FunctionEvent") -> None:
        """A function interpreted on its own or inlined at a call."""

    def on_attrset(self, ev: "AttrSetEvent") -> None:
        """An attribute write (`x.requires_grad = True`, `p.grad = None`, ...)."""

    def on_transformed_call(self, ev: "TransformedCallEvent") -> None:
        """A call of a function transformed by jax.grad/jit/vmap/vjp."""

    # ------------------------------------------------------------------ reporting
    def report(
        self,
        node: "cst.CSTNode",
        message: "str | Callable[..., str] | None" = None,
        *,
        fix: "RuleFix | None" = None,
        severity: Severity | None = None,
        key: object = None,
    ) -> None:
        """Report a finding at `node` (once per node and rule). `message` may be a function of
        `line` (a node -> its line): "differentiated on line 26" is resolved after the run."""
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
        from . import _real_world  # generated by benchmarks/catalogue.py from tests/realworld/

        seen = _real_world.SEEN.get(cls.code, ())
        if seen:
            out += ["", "## Seen in the real world", ""]
            out += [f"- {url}: {what}" for url, what in seen]
        return "\n".join(out) + "\n"


@dataclass(frozen=True)
class NodeEdit:
    """An edit expressed against nodes: replace `node`, or insert before/after it."""

    node: "cst.CSTNode"
    text: str
    how: str = "replace"  # replace | before | after | replace_span (node..end_node)
    end_node: "cst.CSTNode | None" = None


@dataclass(frozen=True)
class RuleFix:
    message: str
    edits: tuple[NodeEdit, ...]
    applicability: Applicability = Applicability.UNSAFE


def all_rules() -> list[type[Rule]]:
    load_all()
    return [REGISTRY[c] for c in sorted(REGISTRY)]


def examples_of(rule: type[Rule]) -> tuple[list[Valid], list[Invalid]]:
    valid = [v if isinstance(v, Valid) else Valid(v) for v in rule.valid]
    invalid = [i if isinstance(i, Invalid) else Invalid(i) for i in rule.invalid]
    return valid, invalid


def dedent(code: str) -> str:
    return textwrap.dedent(code).lstrip("\n")


Rule.HOOKS = frozenset(name for name in vars(Rule) if name.startswith("on_"))

__all__ = ["Rule", "Family", "Invalid", "Valid", "NodeEdit", "RuleFix", "REGISTRY", "all_rules", "kebab_name", "Edit", "Fix", "Severity", "Applicability"]
