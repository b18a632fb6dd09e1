"""Editor settings (section `gradlint`): from initializationOptions, `workspace/configuration`
and `workspace/didChangeConfiguration`, merged onto the defaults.

Keys (camelCase as editors write them): `select`, `ignore` (rule codes or prefixes),
`interpreter` (Python that runs gradient checks), `dynamicChecks` (bool), `debounce` (ms),
`gradcheckTimeout` (s), `maxFileSize` (characters; larger buffers are not linted),
`fileTimeout` (s one lint check may take; default: 5 plus 10 per MB of the buffer), `project`
(bool, default true: a buffer is analysed with the project modules it imports, and an edit to
one re-checks the open documents that import it).

A bad value is logged and ignored (the default stays) — a typo in settings.json must not stop
linting. `dynamicChecks` is the exception: it guards running the workspace's code, so it fails
closed (see `merge`).
"""

from __future__ import annotations

import logging
import sys
from dataclasses import dataclass, field, replace
from typing import Any
from collections.abc import Mapping

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Settings:
    select: tuple[str, ...] | None = None
    ignore: tuple[str, ...] = ()
    interpreter: str | None = None
    dynamic_checks: bool = True
    debounce_ms: int = 300
    gradcheck_timeout: float = 120.0
    # libcst holds the GIL and needs ~0.5 GB per MB of source: a 5 MB buffer would take
    # minutes; such files (generated data, minified code) are reported, not linted.
    max_file_size: int = 1_000_000
    file_timeout: float | None = None  # None: gradlint.watchdog.default_limit of the buffer's size
    project: bool = True  # analyse each buffer in its project (server/dependents.py)
    problems: tuple[str, ...] = field(default=(), compare=False)

    @property
    def python(self) -> str:
        return self.interpreter or sys.executable

    @property
    def debounce(self) -> float:
        return self.debounce_ms / 1000.0


def _codes(value: Any) -> tuple[str, ...]:
    if isinstance(value, str):
        value = [v for v in value.replace(",", " ").split() if v]
    if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
        raise ValueError("expected a list of rule codes")
    return tuple(v.strip() for v in value if v.strip())


def _nonneg_int(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
        raise ValueError("expected a number >= 0")
    return int(value)


def _positive(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
        raise ValueError("expected a number > 0")
    return float(value)


def _bool(value: Any) -> bool:
    if not isinstance(value, bool):
        raise ValueError("expected true or false")
    return value


def _interpreter(value: Any) -> str | None:
    if value is None or value == "":
        return None
    if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
        value = value[0]  # VS Code's python extension style: ["/path/to/python"]
    if not isinstance(value, str):
        raise ValueError("expected a path to a Python interpreter")
    return value


_FIELDS = {
    "select": ("select", lambda v: None if v is None else _codes(v)),
    "ignore": ("ignore", _codes),
    "interpreter": ("interpreter", _interpreter),
    "debounce": ("debounce_ms", _nonneg_int),
    "gradcheckTimeout": ("gradcheck_timeout", _positive),
    "maxFileSize": ("max_file_size", _nonneg_int),
    "fileTimeout": ("file_timeout", _positive),
    "project": ("project", _bool),
}


def section_of(raw: Any) -> Mapping[str, Any]:
    """Accept both `{"select": ...}` and `{"gradlint": {"select": ...}}`."""
    if not isinstance(raw, Mapping):
        return {}
    inner = raw.get("gradlint")
    if isinstance(inner, Mapping):
        return inner
    return raw


def _dynamic_values(raw: Any) -> list[Any]:
    """Every `dynamicChecks` in `raw`: flat and under "gradlint". Other keys are read from one
    shape only (`section_of`), but a `false` for this one must count wherever the client put it."""
    if not isinstance(raw, Mapping):
        return []
    found = [raw["dynamicChecks"]] if "dynamicChecks" in raw else []
    inner = raw.get("gradlint")
    if isinstance(inner, Mapping) and "dynamicChecks" in inner:
        found.append(inner["dynamicChecks"])
    return found


def merge(base: Settings, raw: Any) -> Settings:
    """`base` with the keys present in `raw` applied.

    `dynamicChecks` fails closed: checks stay on only while every value seen is literally
    `true`. A `false` — or anything else: `"false"`, `0`, `null` — from any source, flat or
    nested, turns them off, and a later `true` cannot turn them back on: the editor turns checks
    off for an untrusted workspace through initializationOptions, and that workspace's own
    settings file must not turn them back on."""
    section = section_of(raw)
    changes: dict[str, Any] = {}
    problems = list(base.problems)
    for key, value in section.items():
        spec = _FIELDS.get(key)
        if spec is None:
            continue  # unknown keys (and dynamicChecks, below): other tools' settings share the section
        attr, parse = spec
        try:
            changes[attr] = parse(value)
        except ValueError as exc:
            msg = f"gradlint setting {key!r}: {exc}; got {value!r} (ignored)"
            log.warning(msg)
            problems.append(msg)
    dynamic = _dynamic_values(raw)
    for value in dynamic:
        if not isinstance(value, bool):
            msg = f"gradlint setting 'dynamicChecks': expected true or false; got {value!r} (gradient checks are off)"
            log.warning(msg)
            problems.append(msg)
    if dynamic:
        changes["dynamic_checks"] = base.dynamic_checks and all(v is True for v in dynamic)
    return replace(base, problems=tuple(problems), **changes)


def from_sources(init_options: Any, *configurations: Any) -> Settings:
    settings = merge(Settings(), init_options)
    for raw in configurations:
        settings = merge(settings, raw)
    return settings
