"""The gradlint language server with a scripted dynamic-check pool, for deterministic tests of
the command's flow (progress, cancellation, hangs, verdicts). The real worker is exercised in
test_lsp_gradcheck_real.py.

Targets named `hang*` block until cancelled or timed out; `scale` passes, `broken` fails,
`wordy*` fails with a long explanation that names the target by its absolute path; anything
else is inconclusive. Each report echoes the request and the worker that ran it.
"""

from __future__ import annotations

import asyncio
import itertools
import sys
import threading
import time

from gradlint_server import logs
from gradlint_server import create_server
from gradlint_server.transport import serve_stdio

_ids = itertools.count(1)


class FakeWorker:
    def __init__(self, python: str) -> None:
        self.python = python
        self.ident = next(_ids)
        self.runs = 0

    def run(self, request: dict, timeout: float, cancel: threading.Event | None = None, progress=None) -> dict:
        self.runs += 1
        name = request["target"].rsplit("::", 1)[1].split(".")[-1]
        if progress:
            progress("building inputs")
        base = {"request": request, "worker": self.ident, "runs": self.runs, "python": self.python, "target": request["target"]}
        if name.startswith("hang"):
            t0 = time.monotonic()
            cancelled = cancel.wait(timeout) if cancel is not None else False
            waited = time.monotonic() - t0
            if cancelled:
                return {**base, "verdict": "error", "explanation": "cancelled: the child was killed", "waited": waited}
            return {**base, "verdict": "error", "explanation": f"the check took longer than {timeout:g} s and was stopped", "waited": waited}
        if progress:
            progress("comparing derivatives")
        if name.startswith("wordy"):
            sentence = f"The gradient of {request['target']} was compared with finite differences element by element."
            return {**base, "verdict": "fail", "explanation": " ".join([sentence] * 12)}
        verdict = {"scale": "pass", "broken": "fail"}.get(name, "inconclusive")
        return {**base, "verdict": verdict, "explanation": f"fake {verdict} for {name}\nsecond line"}


class FakePool:
    def __init__(self) -> None:
        self.workers: dict[str, FakeWorker] = {}

    def get(self, python: str) -> FakeWorker:
        if python not in self.workers:
            self.workers[python] = FakeWorker(python)
        return self.workers[python]

    def close(self) -> None:
        self.workers.clear()


def main() -> int:
    logs.setup("info")
    server = create_server(pool_factory=FakePool)
    return asyncio.run(serve_stdio(server))


if __name__ == "__main__":
    sys.exit(main())
