"""The data that leaves the engine: diagnostics, fixes and text edits.

Positions are 1-based lines and 0-based columns counted in Unicode code points of the
line's text. Adapters convert: the CLI prints 1-based columns like ruff, the language
server converts to the negotiated encoding (UTF-16 or UTF-8 code units).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field


class Severity(enum.IntEnum):
    # Values match LSP's DiagnosticSeverity so the server can pass them through.
    ERROR = 1
    WARNING = 2
    INFO = 3

    @property
    def label(self) -> str:
        return self.name.lower()


class Applicability(str, enum.Enum):
    SAFE = "safe"  # cannot change what correct code computes: applied by --fix
    UNSAFE = "unsafe"  # offered as an editor quick fix only

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True, order=True)
class Position:
    line: int  # 1-based
    column: int  # 0-based, in code points


@dataclass(frozen=True)
class Edit:
    start: Position
    end: Position
    content: str


@dataclass(frozen=True)
class Fix:
    message: str
    edits: tuple[Edit, ...]
    applicability: Applicability = Applicability.UNSAFE

    @property
    def is_safe(self) -> bool:
        return self.applicability is Applicability.SAFE


@dataclass(frozen=True)
class Diagnostic:
    code: str
    name: str
    message: str
    severity: Severity
    start: Position
    end: Position
    path: str = "-"
    fix: Fix | None = None
    url: str | None = None
    # Extra facts an adapter may show (e.g. the expected line of a related event).
    related: tuple[tuple[Position, str], ...] = field(default=(), compare=False)
    # In a notebook: the cell (1-based, counting every cell, as Jupyter and ruff do); the
    # positions, fix and related facts are then that cell's own.
    cell: int | None = None

    def sort_key(self) -> tuple:
        return (self.path, self.cell or 0, self.start.line, self.start.column, self.code)

    def to_dict(self) -> dict:
        """A JSON-able form (used by the cache and the language server)."""
        return {
            "code": self.code,
            "name": self.name,
            "message": self.message,
            "severity": int(self.severity),
            "start": [self.start.line, self.start.column],
            "end": [self.end.line, self.end.column],
            "path": self.path,
            "url": self.url,
            "fix": None
            if self.fix is None
            else {
                "message": self.fix.message,
                "applicability": self.fix.applicability.value,
                "edits": [
                    [e.start.line, e.start.column, e.end.line, e.end.column, e.content]
                    for e in self.fix.edits
                ],
            },
            "related": [[p.line, p.column, m] for p, m in self.related],
            "cell": self.cell,
        }

    @classmethod
    def from_dict(cls, d: dict) -> "Diagnostic":
        """The inverse of `to_dict`. Anything `to_dict` cannot have written (a damaged or
        hand-edited cache file) raises ValueError, never a diagnostic that fails later."""
        if not isinstance(d, dict):
            raise ValueError("not an object")
        fix = None
        if d.get("fix") is not None:
            f = _kind(d["fix"], dict)
            edits = []
            for e in _kind(f.get("edits"), list):
                a, b, c, e_, content = _kind(e, list, size=5)
                edits.append(Edit(_position([a, b]), _position([c, e_]), _kind(content, str)))
            fix = Fix(
                message=_kind(f.get("message"), str),
                applicability=Applicability(f.get("applicability")),
                edits=tuple(edits),
            )
        related = []
        for item in _kind(d.get("related", []), list):
            a, b, m = _kind(item, list, size=3)
            related.append((_position([a, b]), _kind(m, str)))
        url = d.get("url")
        cell = d.get("cell")
        if cell is not None and _kind(cell, int) < 1:
            raise ValueError(f"cell {cell!r}")
        return cls(
            code=_kind(d.get("code"), str),
            name=_kind(d.get("name"), str),
            message=_kind(d.get("message"), str),
            severity=Severity(_kind(d.get("severity"), int)),
            start=_position(d.get("start")),
            end=_position(d.get("end")),
            path=_kind(d.get("path", "-"), str),
            url=None if url is None else _kind(url, str),
            fix=fix,
            related=tuple(related),
            cell=cell,
        )


def _kind(value, kind: type, size: int | None = None):
    # bool is an int to isinstance, never to JSON's writer of a position or a severity
    if not isinstance(value, kind) or isinstance(value, bool) or (size is not None and len(value) != size):  # type: ignore[arg-type]
        raise ValueError(f"expected {kind.__name__}" + (f" of {size}" if size else "") + f", not {value!r:.40}")
    return value


def _position(value) -> Position:
    line, column = _kind(value, list, size=2)
    if _kind(line, int) < 0 or _kind(column, int) < 0:
        raise ValueError(f"negative position {value!r}")
    return Position(line, column)
