"""What a rule sees of the file it checks (the engine's FileContext implements it).

A protocol, so that the rules depend on this small surface and not on the engine."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterator, Protocol

if TYPE_CHECKING:  # pragma: no cover
    import libcst as cst

    from ..diagnostics import Position, Severity
    from ..source import SourceText


class AnalysisView(Protocol):
    """What rules may read of the shared analysis beyond its events."""

    default_dtype: str  # torch's default dtype as the program sets it
    jax_x64: bool  # jax_enable_x64
    classes: list  # the ClassInfo of every class of the file (bases, roles, methods)

    def class_facts(self, info: Any) -> dict:
        """What `__init__` of a class of the file stores on `self` (attribute -> value)."""
        ...

    def names_on_loss_paths(self) -> frozenset[str]:
        """Dotted names (`losses`, `self.saved_log_probs`) some scope of the file computes a
        backpropagated value from: evidence that what they hold is meant to be differentiated."""
        ...

    def loss_path_of(self, fn: Any) -> frozenset[str]:
        """The same for one scope: the function `fn` (an event's `ctx.fn`), or the module body."""
        ...

    def parts_of(self, o: Any) -> frozenset:
        """A module origin with those of its submodules and parameters."""
        ...

    def holders_of(self, o: Any) -> frozenset:
        """An origin with those of the modules that hold it (whose `parameters()` include it)."""
        ...


class FileContext(Protocol):
    path: str
    source: "SourceText"

    @property
    def interp(self) -> AnalysisView:
        """The shared analysis (read-only for rules)."""
        ...

    @property
    def code_text(self) -> str:
        """The file with strings and comments blanked out."""
        ...

    @property
    def frameworks(self) -> set[str]:
        """Framework tags of the libraries the file imports (torch, tf, jax, np)."""
        ...

    def add_finding(self, rule: Any, node: "cst.CSTNode", message: Any, fix: Any, severity: "Severity") -> None:
        """Record a finding of `rule` (a Rule) with an optional RuleFix (Rule.report calls this)."""
        ...

    def code(self, node: "cst.CSTNode") -> str:
        """Source text of a node."""
        ...

    def parent(self, node: "cst.CSTNode") -> "cst.CSTNode | None": ...

    def ancestors(self, node: "cst.CSTNode") -> Iterator["cst.CSTNode"]: ...

    def module_statements(self) -> list:
        """The file's top-level statements in order (the file may be parsed in several chunks)."""
        ...

    def discarded(self, node: "cst.CSTNode") -> bool:
        """Whether `node` is the whole of an expression statement: its value is thrown away."""
        ...

    def range_of(self, node: "cst.CSTNode") -> "tuple[Position, Position] | None": ...
