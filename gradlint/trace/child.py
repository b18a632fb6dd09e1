"""The traced process: limits itself like the gradient check's child, runs one program under
a trace Session, replies once and exits.

Started by runner.py (the bootstrap registers a bare `gradlint` package, so only the trace and
dynamic packages' standard-library code is imported here besides the user's program). The
channel and messages are those of gradlint/dynamic/child.py: the socket on stdin is taken off
it (the program gets /dev/null) before anything else, then a hello, then one result, each with
the parent's token. Before replying, whatever the program started is killed (this process is a
subreaper, so orphans and processes that left its session are found too) and named in the
result's `leftovers`. The process ends with os._exit right after the reply: nothing of the
user's program runs after the trace ends — no `finally` blocks, no atexit handlers, so a
program that saves a checkpoint on exit does not overwrite it with a three-step model.
"""

from __future__ import annotations

import faulthandler
import os
import sys
import threading
import time
from typing import Any

from gradlint.dynamic import proctree
from gradlint.dynamic.child import Channel, kill_stray_processes, limit_resources

from . import hooks, program
from .state import DEFAULT_STEPS, Session, activate

SCHEMA = 1
SOFT_TIMEOUT_MARGIN = 1.5  # seconds before the parent's hard limit: reply with what was seen


def build_report(session: Session, outcome: dict[str, Any], t0: float) -> dict[str, Any]:
    return {
        "schema": SCHEMA,
        "status": outcome.get("status", "error"),
        "steps": session.steps_done,
        "steps_wanted": session.steps,
        "findings": session.results(),
        "error": outcome.get("error"),
        "notes": list(session.notes),
        "frameworks": list(session.frameworks),
        "timings": {"run": time.perf_counter() - t0},
    }


def main(argv: list[str]) -> None:
    memory_mb = int(argv[0])
    channel = Channel.from_stdin()  # before anything the program could see or inherit
    limit_resources(memory_mb)
    proctree.become_subreaper()  # orphans of what the program starts stay ours to kill
    faulthandler.enable(file=sys.stderr, all_threads=True)
    channel.send({"type": "hello", "pid": os.getpid(), "python": sys.version.split()[0],
                  "executable": sys.executable, "torch": None, "error": None, "startup": 0.0})
    request = next(iter(channel.requests()), None)
    if not isinstance(request, dict):
        os._exit(0)
    rid = request.get("id")
    t0 = time.perf_counter()
    lock = threading.Lock()
    sent = []

    def reply(outcome: dict[str, Any]) -> None:
        with lock:
            if sent:
                return
            sent.append(True)
        session.passive = True
        session.finalize()
        report = build_report(session, outcome, t0)
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except Exception:  # noqa: BLE001, S110 - the program may have closed them
                pass
        leftovers = kill_stray_processes()
        channel.send({"type": "result", "id": rid, "report": report, "reusable": False, "leftovers": leftovers})
        os._exit(0)

    session = Session(int(request.get("steps") or DEFAULT_STEPS),
                      on_stop=lambda reason: reply({"status": "stopped", "error": None}))
    timeout = request.get("timeout")
    if isinstance(timeout, (int, float)) and timeout > SOFT_TIMEOUT_MARGIN * 2:
        def watchdog() -> None:
            time.sleep(timeout - SOFT_TIMEOUT_MARGIN)
            session.stopped = "timeout"
            reply({"status": "error", "error": {
                "kind": "timeout",
                "message": f"the program did not reach {session.steps} optimizer steps (or finish) within "
                           f"{timeout:g} s; it was stopped after {session.steps_done} steps, with every process it "
                           f"started"}})

        threading.Thread(target=watchdog, name="gradlint-trace-watchdog", daemon=True).start()
    hooks.install(session.notes)
    activate(session)
    try:
        outcome = program.run(request, session)
    except BaseException as exc:  # noqa: BLE001 - never leave without a reply
        outcome = {"status": "error", "error": {"kind": "internal", "message": f"{type(exc).__name__}: {exc}"}}
    reply(outcome)
