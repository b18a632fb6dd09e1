"""The trace runs the program with the gradient check's isolation (gradlint.dynamic.worker):
what the program leaves running is killed and named, shared memory counts against the memory
limit of the whole process tree, the reply channel is hidden from the program and a forged
reply is rejected rather than believed. The programs (tests/trace/robust/) import no
framework; they run concurrently, each in its own traced process, and each test checks one."""

from __future__ import annotations

import sys
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from gradlint.trace.runner import run_trace
from trace_support import HERE

ROBUST = HERE / "robust"
TIMEOUT = 30.0
SMALL_MB = 768
pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc, subreaper, shared memory")


def gone(pid: int, within: float = 3.0) -> bool:
    """True once `pid` has exited (a zombie counts: it runs nothing)."""
    end = time.monotonic() + within
    while time.monotonic() < end:
        try:
            with open(f"/proc/{pid}/stat") as f:
                if f.read().rsplit(")", 1)[1].split()[0] in ("Z", "X"):
                    return True
        except (FileNotFoundError, ProcessLookupError, IndexError):
            return True
        time.sleep(0.05)
    return False


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("isolation")
    pidfile = str(tmp / "escaped.pid")

    def run(name: str, args=(), memory_mb: int = 4096) -> dict:
        request = {"script": str(ROBUST / name), "args": list(args), "cwd": str(tmp), "steps": 3}
        t0 = time.monotonic()
        report = run_trace(request, timeout=TIMEOUT, memory_mb=memory_mb)
        report["_wall"] = time.monotonic() - t0
        return report

    with ThreadPoolExecutor(4) as pool:
        futures = {
            "escape": pool.submit(run, "escape.py", [pidfile]),
            "shared_memory": pool.submit(run, "shared_memory.py", memory_mb=SMALL_MB),
            "forge": pool.submit(run, "forge.py"),
            "channel": pool.submit(run, "channel.py"),
        }
        out = {name: f.result() for name, f in futures.items()}
    out["escape"]["_pid"] = int(open(pidfile).read())
    return out


def test_a_process_that_left_the_session_is_killed_and_named(results):
    r = results["escape"]
    assert r["status"] == "finished", r
    pid = r["_pid"]
    assert gone(pid, within=0.5), "killed before the report came back"
    (note,) = [n for n in r["notes"] if "left" in n]
    assert f"the program left 1 process running when the trace ended (pid {pid}" in note
    assert note.endswith("a fork of the traced process (os.fork, multiprocessing)); gradlint killed it")
    assert not any("target" in n or "check" in n for n in r["notes"])  # the trace's words, not the worker's


def test_shared_memory_counts_against_the_memory_limit(results):
    r = results["shared_memory"]
    assert r["status"] == "error" and r["error"]["kind"] == "memory", r["error"]
    message = r["error"]["message"]
    assert "the program's processes used" in message and f"over the limit of {SMALL_MB} MiB" in message
    assert r["_wall"] < TIMEOUT  # stopped by the watchdog, not by the time limit


def test_a_forged_reply_is_rejected_not_believed(results):
    r = results["forge"]
    assert r["status"] == "error" and r["error"]["kind"] == "protocol", r
    message = r["error"]["message"]
    assert message.startswith("the trace's reply channel carried a message gradlint's worker did not send")
    assert "the program wrote to it?" in message and "the trace cannot be trusted" in message
    assert "FORGED" not in str(r["notes"])


def test_the_reply_channel_is_hidden_from_the_program(results):
    r = results["channel"]
    assert r["status"] == "finished" and r["error"] is None, r["error"]
