"""The trace session: what the probes report into, and when the traced program stops.

Framework-neutral and torch-free. One Session is active per traced program (the child of
`gradlint trace`) or per test (the pytest plugin). Probes (torch_probe, tf_probe, jax_probe)
patch their framework once per process and read the active session from `current()`.

A raw finding is a JSON-able dict: code, path, line, col, end_line, end_col, message, related
(a list of [path, line, col, message]). The parent turns it into a Diagnostic (results.py).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable

from .sites import Site, UserFiles, short

DEFAULT_STEPS = 3


class StopTrace(BaseException):
    """Raised where the traced program must not go on (a BaseException: `except Exception`
    in user code does not swallow it)."""


class Session:
    def __init__(self, steps: int = DEFAULT_STEPS, on_stop: Callable[[str], None] | None = None) -> None:
        self.steps = max(1, int(steps))
        self.is_user = UserFiles()
        self.findings: dict[tuple, dict] = {}
        self.notes: list[str] = []
        self.frameworks: list[str] = []
        self.on_stop = on_stop
        self.stopped: str | None = None  # why the trace ended early ("steps", "timeout")
        self.passive = False  # observations are over (the pytest plugin lets the test go on)
        self.steps_done = 0
        self.finalizers: list[Callable[[], None]] = []
        self.explainers: list[Callable[[BaseException], bool]] = []
        self.lock = threading.RLock()
        self._finalized = False

    # ------------------------------------------------------------------ findings
    def report(self, code: str, site: Site | None, message: str, related: list | None = None) -> None:
        """Record a finding once per (code, line); `related` is [(site, text), ...]."""
        if site is None:
            return
        key = (code, os.path.realpath(site[0]), site[1])
        with self.lock:
            if key in self.findings:
                return
            self.findings[key] = {
                "code": code, "path": os.path.realpath(site[0]), "line": site[1], "col": site[2],
                "end_line": site[3], "end_col": site[4], "message": message,
                "related": [[os.path.realpath(s[0]), s[1], s[2], text] for s, text in (related or []) if s is not None],
            }

    def has(self, code: str, site: Site | None = None) -> bool:
        if site is None:
            return any(k[0] == code for k in self.findings)
        return (code, os.path.realpath(site[0]), site[1]) in self.findings

    def results(self) -> list[dict]:
        with self.lock:
            return sorted(self.findings.values(), key=lambda f: (f["path"], f["line"], f["col"], f["code"]))

    # ------------------------------------------------------------------ lifecycle
    def step_budget_reached(self) -> None:
        """Called by a probe before the step that would exceed `steps`: finish the analysis and
        end the program (the child) or stop observing (pytest)."""
        if self.passive:
            return
        self.stopped = "steps"
        self.finalize()
        self.passive = True
        if self.on_stop is not None:
            self.on_stop("steps")

    def finalize(self) -> None:
        """Run the end-of-trace analyses once (kept graphs, parameters without gradients...)."""
        with self.lock:
            if self._finalized:
                return
            self._finalized = True
        for fn in self.finalizers:
            try:
                fn()
            except Exception as exc:  # noqa: BLE001 - an analysis bug must not lose the others
                self.notes.append(f"internal: an end-of-trace analysis failed: {type(exc).__name__}: {exc}")

    def explain(self, exc: BaseException) -> bool:
        """Turn an exception the program raised into findings; True if one explained it."""
        explained = False
        for fn in [*self.explainers, *(lambda e, f=f: f(self, e) for f in EXPLAINERS)]:
            try:
                explained = fn(exc) or explained
            except Exception as e:  # noqa: BLE001
                self.notes.append(f"internal: explaining {type(exc).__name__} failed: {type(e).__name__}: {e}")
        return explained

    def site_text(self, site: Site | None) -> str:
        return short(site)


_current: Session | None = None
# (session, exception) -> explained?: registered once per process by the TF and JAX probes
EXPLAINERS: list[Callable[[Session, BaseException], bool]] = []


def current() -> Session | None:
    return _current


def activate(session: Session | None) -> None:
    global _current
    _current = session
