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

    def sort_key(self) -> tuple:
        return (self.path, self.start.line, self.start.column, self.code)

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
        }

    @classmethod
    def from_dict(cls, d: dict) -> "Diagnostic":
        fix = None
        if d.get("fix"):
            f = d["fix"]
            fix = Fix(
                message=f["message"],
                applicability=Applicability(f["applicability"]),
                edits=tuple(
                    Edit(Position(a, b), Position(c, e), content) for a, b, c, e, content in f["edits"]
                ),
            )
        return cls(
            code=d["code"],
            name=d["name"],
            message=d["message"],
            severity=Severity(d["severity"]),
            start=Position(*d["start"]),
            end=Position(*d["end"]),
            path=d.get("path", "-"),
            url=d.get("url"),
            fix=fix,
            related=tuple((Position(a, b), m) for a, b, m in d.get("related", ())),
        )
