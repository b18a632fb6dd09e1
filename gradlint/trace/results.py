"""Trace reports as Diagnostics: the same model, filters and output formats as `gradlint check`,
and the saved form that `gradlint check --trace-results FILE` merges.

A saved trace is exactly what `gradlint trace --output-format json` prints (ruff's JSON shape,
one object per finding) with one extra key per finding, `trace`: `{"sha256": <hash of the
file's bytes when it was traced>}`. A finding whose file changed since is stale: its line may
now be another statement, so `check` drops it and says so. Only the standard library and the
static linter's own modules are used here (no framework).
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from ..config import Config
from ..diagnostics import Diagnostic, Position, Severity
from ..source import SourceText


class TraceResultsError(ValueError):
    """A --trace-results file that cannot be read: one line, exit 2."""


def to_diagnostics(report: dict[str, Any], config: Config | None = None,
                   texts: dict[str, str] | None = None) -> list[Diagnostic]:
    """The report's findings as Diagnostics, filtered like `check` filters its own: rule
    selection (select/ignore/per-file-ignores) and `# noqa` comments."""
    from ..rules.base import REGISTRY, all_rules

    all_rules()
    config = config or Config()
    out = []
    for f in report.get("findings") or []:
        rule = REGISTRY.get(f.get("code", ""))
        if rule is None:
            continue
        path = f["path"]
        related = []
        message = f["message"]
        for r in f.get("related") or []:
            if os.path.realpath(r[0]) == os.path.realpath(path):
                related.append((Position(int(r[1]), int(r[2])), str(r[3])))
        d = Diagnostic(
            code=rule.code, name=rule.name, message=message, severity=rule.severity,
            start=Position(int(f["line"]), int(f.get("col") or 0)),
            end=Position(int(f.get("end_line") or f["line"]), int(f.get("end_col") or f.get("col") or 0)),
            path=path, url=config.url_for(rule.code), related=tuple(related),
        )
        out.append(d)
    return filter_diagnostics(out, config, texts)


def filter_diagnostics(diags: Iterable[Diagnostic], config: Config, texts: dict[str, str] | None = None) -> list[Diagnostic]:
    texts = texts if texts is not None else {}
    kept = []
    for d in diags:
        if d.code not in config.enabled_codes(d.path):
            continue
        text = texts.get(d.path)
        if text is None:
            text = texts[d.path] = _read(d.path) or ""
        if text and SourceText(text).is_suppressed(d):
            continue
        kept.append(d)
    kept.sort(key=Diagnostic.sort_key)
    return kept


def _read(path: str) -> str | None:
    from ..source import DecodeError, decode_source

    try:
        with open(path, "rb") as fh:
            return decode_source(fh.read())
    except (OSError, DecodeError):
        return None


def file_digest(path: str) -> str | None:
    try:
        return hashlib.sha256(Path(path).read_bytes()).hexdigest()
    except OSError:
        return None


def render_json(diags: Sequence[Diagnostic], ctx) -> str:
    """`--output-format json`: ruff's shape plus the `trace` key that makes it a saved trace."""
    from ..output.json_ import to_json

    rows = []
    digests: dict[str, str | None] = {}
    for d in diags:
        row = to_json(d, ctx)
        if d.path not in digests:
            digests[d.path] = file_digest(d.path)
        row["trace"] = {"sha256": digests[d.path]}
        rows.append(row)
    return json.dumps(rows, indent=2, ensure_ascii=False) + "\n"


def load(path: str | Path) -> tuple[list[Diagnostic], list[str]]:
    """Read a saved trace: (diagnostics still valid, warnings about stale or unknown ones)."""
    from ..rules.base import REGISTRY, all_rules

    all_rules()
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise TraceResultsError(f"cannot read trace results {path}: {exc.strerror or exc}") from None
    except (ValueError, UnicodeDecodeError) as exc:
        raise TraceResultsError(f"{path} is not a saved trace (JSON from `gradlint trace --output-format json`): "
                                f"{exc}") from None
    if not isinstance(data, list) or not all(isinstance(r, dict) for r in data):
        raise TraceResultsError(f"{path} is not a saved trace: expected a JSON list of findings "
                                f"(`gradlint trace --output-format json`)")
    diags, warnings, stale = [], [], set()
    digests: dict[str, str | None] = {}
    for row in data:
        try:
            code, filename = row["code"], row["filename"]
            loc, end = row["location"], row.get("end_location") or row["location"]
            start = Position(int(loc["row"]), max(0, int(loc["column"]) - 1))
            stop = Position(int(end["row"]), max(0, int(end["column"]) - 1))
        except (KeyError, TypeError, ValueError):
            raise TraceResultsError(f"{path}: a finding lacks code, filename or location") from None
        rule = REGISTRY.get(code)
        if rule is None:
            warnings.append(f"{path}: unknown rule code {code!r} ignored")
            continue
        want = (row.get("trace") or {}).get("sha256") if isinstance(row.get("trace"), dict) else None
        if want is not None:
            if filename not in digests:
                digests[filename] = file_digest(filename)
            if digests[filename] != want:
                stale.add(filename)
                continue
        diags.append(Diagnostic(code=rule.code, name=rule.name, message=str(row.get("message") or rule.message),
                                severity=rule.severity if isinstance(rule.severity, Severity) else Severity.ERROR,
                                start=start, end=stop, path=os.path.abspath(filename), url=row.get("url")))
    for f in sorted(stale):
        warnings.append(f"trace results for {f} are stale (the file changed since it was traced): run "
                        f"`gradlint trace` again")
    return diags, warnings


def merge(static: list[Diagnostic], traced: list[Diagnostic]) -> list[Diagnostic]:
    """One list: a traced finding with the same code on the same line as a static one confirms
    it and replaces its message with what was observed (the static fix, if any, is kept)."""
    import dataclasses

    by_key = {(os.path.realpath(d.path), d.start.line, d.code): i for i, d in enumerate(static)}
    out = list(static)
    for t in traced:
        i = by_key.get((os.path.realpath(t.path), t.start.line, t.code))
        if i is None:
            out.append(t)
        else:
            out[i] = dataclasses.replace(out[i], message=t.message)
    out.sort(key=Diagnostic.sort_key)
    return out
