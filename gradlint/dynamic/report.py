"""The gradient-check report: plain data, JSON-able, torch-free.

The same dict travels from the child process to the CLI and the language server, so its shape
is a stable schema (``SCHEMA``; documented in docs/gradcheck.md). Unknown keys are ignored by
``from_dict`` so that a newer child can talk to an older parent.
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass, field, fields
from typing import Any

SCHEMA = 1

PASS, FAIL, INCONCLUSIVE, ERROR = "pass", "fail", "inconclusive", "error"
EXIT_CODES = {PASS: 0, FAIL: 1, INCONCLUSIVE: 1, ERROR: 2}


@dataclass
class ElementReport:
    """One element of one input: numerical and analytical d(u·f)/dx[index]."""

    index: list[int]
    numerical: float
    analytical: float
    abs_error: float
    rel_error: float
    value: float | None = None  # the input's value there (explains "wrong only where x > 2")
    status: str = "mismatch"  # mismatch | agree | kink


@dataclass
class InputReport:
    """One differentiable input (or module parameter) and what the check found for it."""

    name: str
    kind: str  # input | parameter
    shape: list[int]
    dtype: str
    status: str  # ok | mismatch | nonsmooth | nonfinite | disconnected | not_differentiable
    abs_error: float | None = None  # worst |numerical - analytical| directional derivative
    rel_error: float | None = None
    noise_floor: float | None = None  # std of the finite-difference noise at that step
    tolerance: float | None = None
    ratio: float | None = None  # abs_error / tolerance (> 1 is a mismatch)
    resolution: float | None = None  # smallest relative error this check could see
    step: float | None = None
    directions: int = 0
    worst: list[ElementReport] = field(default_factory=list)
    kinks: list[ElementReport] = field(default_factory=list)  # elements exactly on a kink: not vouched for
    kinks_total: int = 0
    note: str | None = None


@dataclass
class GradcheckReport:
    verdict: str
    explanation: str
    target: str = ""
    kind: str = ""  # function | autograd.Function | nn.Module | method | callable
    dtype: str | None = None  # dtype the check ran in
    target_dtype: str | None = None  # dtype the target was given / defined in
    inputs: list[InputReport] = field(default_factory=list)
    inputs_source: str | None = None  # explicit | config | annotations | module | probed
    inputs_expr: str | None = None  # a Python expression that rebuilds the inputs' shapes
    against: dict[str, Any] | None = None
    float32: dict[str, Any] | None = None
    notes: list[str] = field(default_factory=list)
    nondeterministic: dict[str, Any] | None = None
    error: dict[str, Any] | None = None  # {kind, message, traceback?}
    output: str = ""  # tail of what the target printed (child process only)
    seed: int = 0
    evaluations: int = 0  # forward evaluations the check made
    timings: dict[str, float] = field(default_factory=dict)
    versions: dict[str, str] = field(default_factory=dict)
    schema: int = SCHEMA

    @property
    def passed(self) -> bool:
        return self.verdict == PASS

    @property
    def exit_code(self) -> int:
        return EXIT_CODES.get(self.verdict, 2)

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe: non-finite floats become the strings "nan", "inf", "-inf"."""
        return _clean(asdict(self))

    def to_json(self, indent: int | None = None) -> str:
        return json.dumps(self.to_dict(), indent=indent, allow_nan=False)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GradcheckReport:
        data = _known(cls, data)
        data["inputs"] = [
            InputReport(**{**_known(InputReport, i),
                           "worst": [ElementReport(**_known(ElementReport, w)) for w in i.get("worst", [])],
                           "kinks": [ElementReport(**_known(ElementReport, w)) for w in i.get("kinks", [])]})
            for i in data.get("inputs", [])
        ]
        return cls(**data)


def error_report(what: str, message: str, *, target: str = "", traceback: str | None = None,
                 **extra: Any) -> GradcheckReport:
    """A report for a check that could not run (`what`: timeout, memory, crash, exit, import,
    target, inputs, exception, ...): the explanation says why."""
    err = {"kind": what, "message": message}
    if traceback:
        err["traceback"] = traceback
    return GradcheckReport(verdict=ERROR, explanation=message, target=target, error=err, **extra)


def _known(cls: type, data: dict[str, Any]) -> dict[str, Any]:
    names = {f.name for f in fields(cls)}
    return {k: v for k, v in data.items() if k in names}


def _clean(obj: Any) -> Any:
    # JSON has no NaN/Inf: the report says them in words instead.
    if isinstance(obj, float):
        if math.isnan(obj):
            return "nan"
        if obj in (float("inf"), float("-inf")):
            return "inf" if obj > 0 else "-inf"
        return obj
    if isinstance(obj, dict):
        return {str(k): _clean(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_clean(v) for v in obj]
    if obj is None or isinstance(obj, (bool, int, str)):
        return obj
    return str(obj)
