"""SIGTERM ends the language server through its cleanup: the lint processes and every
gradcheck/trace worker (their process trees included) go with it, instead of a check being left
between its tree kill's SIGSTOPs and SIGKILLs (stopped processes re-parented to init)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time

import pytest

from gradlint.dynamic import worker as worker_mod

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")


def test_sigterm_runs_the_cleanup_and_exits_with_143():
    proc = subprocess.Popen([sys.executable, "-m", "gradlint", "lsp"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        time.sleep(1.5)  # started and serving
        proc.send_signal(signal.SIGTERM)
        code = proc.wait(timeout=15)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert code == 128 + signal.SIGTERM, proc.stderr.read().decode(errors="replace")[-2000:]


def test_close_all_closes_every_worker_of_the_process():
    w = worker_mod.Worker()
    assert w._start(None) is None  # a started child (torch imported)
    pid = w.hello["pid"]
    worker_mod.close_all()
    assert not w.alive
    deadline = time.monotonic() + 5
    while os.path.exists(f"/proc/{pid}") and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not os.path.exists(f"/proc/{pid}")


def test_close_all_waits_for_a_termination_in_progress(monkeypatch):
    real = worker_mod._terminate
    entered = threading.Event()

    def slow_terminate(*taken):
        if taken[0] is not None:
            entered.set()
            time.sleep(0.5)
        return real(*taken)

    monkeypatch.setattr(worker_mod, "_terminate", slow_terminate)
    w = worker_mod.Worker()
    assert w._start(None) is None
    pid = w.hello["pid"]
    t = threading.Thread(target=w.close)
    t.start()
    assert entered.wait(10)
    worker_mod.close_all()  # returns only once the other thread's kill is done
    assert not os.path.exists(f"/proc/{pid}") or open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[0] in ("Z", "X")
    t.join(10)
