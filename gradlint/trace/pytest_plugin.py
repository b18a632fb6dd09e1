"""`pytest --gradlint-trace`: trace the tests that train.

Registered through a pytest11 entry point, so it is available wherever gradlint is installed,
and inert unless `--gradlint-trace` is given (this module imports nothing heavy; the probes
are installed only then). Each test runs under its own trace Session in the pytest process:
the first `--gradlint-trace-steps` optimizer steps of every test are observed, then the test
goes on unobserved (the plugin never stops a test). Findings are listed in a "gradlint trace"
section of the summary and make the run fail (exit 1) like a failing test would;
`--gradlint-trace-output FILE` saves them for `gradlint check --trace-results FILE`.
"""

from __future__ import annotations

import os

import pytest

from .state import DEFAULT_STEPS


def pytest_addoption(parser) -> None:
    group = parser.getgroup("gradlint", "gradlint trace")
    group.addoption("--gradlint-trace", action="store_true", default=False,
                    help="observe the training steps of each test and report autograd pitfalls (gradlint trace)")
    group.addoption("--gradlint-trace-steps", type=int, default=DEFAULT_STEPS, metavar="N",
                    help=f"optimizer steps to observe per test (default {DEFAULT_STEPS})")
    group.addoption("--gradlint-trace-output", default=None, metavar="FILE",
                    help="save the findings as JSON for `gradlint check --trace-results FILE`")


def pytest_configure(config) -> None:
    if config.getoption("gradlint_trace"):
        config.pluginmanager.register(TracePlugin(config), "gradlint-trace-session")


class TracePlugin:
    def __init__(self, config) -> None:
        from . import hooks

        self.steps = max(1, int(config.getoption("gradlint_trace_steps")))
        self.output = config.getoption("gradlint_trace_output")
        self.findings: dict[tuple, tuple[dict, str]] = {}
        self.notes: list[str] = []
        hooks.install(self.notes)

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_call(self, item):
        from .state import Session, activate

        session = Session(self.steps)  # no on_stop: past the budget the test goes on unobserved
        activate(session)
        try:
            outcome = yield
            excinfo = outcome.excinfo
            if excinfo is not None and not session.passive:
                session.explain(excinfo[1])
            session.passive = True
            session.finalize()
        finally:
            activate(None)
        for f in session.results():
            self.findings.setdefault((f["code"], f["path"], f["line"]), (f, item.nodeid))
        self.notes.extend(n for n in session.notes if n not in self.notes)

    def diagnostics(self):
        from ..config import load_config
        from .results import to_diagnostics

        config = load_config(None)
        return to_diagnostics({"findings": [f for f, _ in self.findings.values()]}, config)

    def pytest_terminal_summary(self, terminalreporter, exitstatus, config) -> None:
        diags = self.diagnostics()
        tests = {(f["code"], f["path"], f["line"]): nodeid for f, nodeid in self.findings.values()}
        terminalreporter.section("gradlint trace")
        for d in diags:
            rel = os.path.relpath(d.path) if not os.path.relpath(d.path).startswith("..") else d.path
            nodeid = tests.get((d.code, os.path.realpath(d.path), d.start.line), "")
            terminalreporter.line(f"{rel}:{d.start.line}:{d.start.column + 1}: {d.code} {d.message} [{nodeid}]")
        for note in self.notes:
            terminalreporter.line(f"note: {note}")
        n = len(diags)
        terminalreporter.line(f"gradlint trace: {n} finding{'s' if n != 1 else ''}" if n else
                              "gradlint trace: nothing found in the traced training steps")
        if self.output:
            from ..output import OutputContext
            from .results import render_json

            with open(self.output, "w", encoding="utf-8") as fh:
                fh.write(render_json(diags, OutputContext()))

    def pytest_sessionfinish(self, session, exitstatus) -> None:
        if self.findings and exitstatus == 0 and self.diagnostics():
            session.exitstatus = 1
