"""Every way a target can misbehave ends as verdict "error" with a clear reason, within the
time limit, and leaves no process behind -- including processes that left the worker's process
group or session, memory the per-process limit does not count (shared mappings, /dev/shm), and
forged or cut replies (../shared/reliability/attack-scripts/gradcheck_attacks.py, the quick
cases). The scenarios run concurrently (each needs a fresh child process) and each test then
checks one result."""

from __future__ import annotations

import os
import sys
import time
import uuid
from concurrent.futures import ThreadPoolExecutor

import pytest
from conftest import process_gone, target

from gradlint.dynamic.worker import Worker

TIMEOUT = 4.0
MEMORY_MB = 1024
SMALL_MB = 768  # for the shared-memory cases: torch itself takes ~250 MB of it
SCENARIOS = ["loop", "hog", "chatty", "bail", "segfault", "quit_", "boom", "spawn_and_hang", "import",
             "setpgid_and_hang", "setpgid_and_pass", "setsid_and_pass", "shared_mmap", "shm_file",
             "forge", "close_channel", "channel_hidden"]
WITH_PIDFILE = ("spawn", "setpgid", "setsid")
SHM_FILE = f"/dev/shm/gradlint-test-{uuid.uuid4().hex}"
linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc, subreaper, /dev/shm")


def run_one(name: str, tmp: str) -> dict:
    pidfile = os.path.join(tmp, f"{name}.pid")
    inputs = "torch.randn(3)"
    if name.startswith(WITH_PIDFILE):
        inputs = f"torch.randn(3), {pidfile!r}"
    elif name == "shm_file":
        inputs = f"torch.randn(3), {SHM_FILE!r}"
    spec = target("f", "import_error") if name == "import" else target(name, "isolation")
    worker = Worker(memory_mb=SMALL_MB if name.startswith(("shared", "shm")) else MEMORY_MB)
    try:
        report = worker.run({"target": spec, "inputs": inputs, "cwd": tmp}, timeout=TIMEOUT)
        alive = worker.alive
    finally:
        worker.close()
    return {"report": report, "worker_pid": worker.last_pid, "alive_after": alive, "pidfile": pidfile}


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    tmp = str(tmp_path_factory.mktemp("isolation"))
    try:
        with ThreadPoolExecutor(9) as ex:
            futures = {name: ex.submit(run_one, name, tmp) for name in SCENARIOS}
            yield {name: f.result() for name, f in futures.items()}
    finally:
        if os.path.exists(SHM_FILE):
            os.remove(SHM_FILE)


def escaped_pid(res: dict) -> int:
    with open(res["pidfile"]) as f:
        return int(f.read())


def check(results, name: str, kind: str, *words: str, killed: bool = True) -> dict:
    """`killed`: the child had to be killed (a handled exception leaves it reusable)."""
    res = results[name]
    r = res["report"]
    assert r["verdict"] == "error", r
    assert r["error"]["kind"] == kind, r["error"]
    for w in words:
        assert w in r["explanation"], r["explanation"]
    assert r["timings"]["wall"] - r["timings"].get("startup", 0.0) < TIMEOUT + 3
    assert res["alive_after"] is not killed
    assert process_gone(res["worker_pid"])  # after close(), in every case
    return r


def test_infinite_loop_is_stopped_at_the_time_limit(results):
    check(results, "loop", "timeout", "did not finish within 4 s")


def test_unbounded_allocation_hits_the_memory_limit(results):
    check(results, "hog", "memory", "out of memory", killed=False)


def test_printing_gigabytes_is_cut_off_and_memory_stays_bounded(results):
    r = check(results, "chatty", "output_limit", "more than 16 MiB of output")
    assert 0 < len(r["output"]) <= 8 * 1024


def test_os_exit_is_reported_with_its_status(results):
    check(results, "bail", "exit", "exited with status 3")


def test_segfault_is_reported_with_the_signal_and_a_traceback(results):
    r = check(results, "segfault", "crash", "segmentation fault")
    assert "Fatal Python error" in r["output"] and "segfault" in r["output"]


def test_sys_exit_is_reported(results):
    check(results, "quit_", "exit", "sys.exit(3)", killed=False)


def test_user_exception_is_reported_with_its_message(results):
    r = check(results, "boom", "exception", "ValueError", "negative widths", killed=False)
    assert "isolation.py" in r["error"]["traceback"]


def test_import_error_is_reported(results):
    check(results, "import", "import", "a_module_that_does_not_exist", killed=False)


def test_processes_the_target_spawned_die_with_it(results):
    check(results, "spawn_and_hang", "timeout")
    with open(results["spawn_and_hang"]["pidfile"]) as f:
        assert process_gone(int(f.read()))


def test_a_warm_worker_kills_what_a_finished_check_left_running(tmp_path):
    pidfile = str(tmp_path / "child.pid")
    with Worker() as w:
        r = w.run({"target": target("spawn_and_return", "isolation"),
                   "inputs": f"torch.randn(3), {pidfile!r}", "cwd": str(tmp_path)}, timeout=30)
        assert r["verdict"] == "pass"
        with open(pidfile) as f:
            assert process_gone(int(f.read()))
        assert w.alive  # the worker itself stays warm
        r = w.run({"target": target("leave_thread", "isolation"), "inputs": "torch.randn(3)"}, timeout=30)
        assert r["verdict"] == "pass"
        assert not w.alive, "a worker with a thread left running is replaced"


def test_a_missing_interpreter_is_an_error_not_a_traceback():
    started = time.monotonic()
    r = Worker("/nonexistent/python").run({"target": "x.py::f"}, timeout=5)
    assert r["verdict"] == "error" and r["error"]["kind"] == "startup"
    assert "/nonexistent/python" in r["explanation"]
    assert time.monotonic() - started < 5


# -- escapes (issue 11, item 4) ------------------------------------------------------------------


@linux_only
def test_a_process_in_a_new_group_dies_with_a_timed_out_check(results):
    check(results, "setpgid_and_hang", "timeout")
    assert process_gone(escaped_pid(results["setpgid_and_hang"]))


@linux_only
@pytest.mark.parametrize("name", ["setpgid_and_pass", "setsid_and_pass"])
def test_a_process_left_running_by_a_passing_check_is_killed_and_reported(results, name):
    """setpgid leaves the group, setsid + double fork the session: the worker is the
    orphan's subreaper, so the tree still finds it."""
    res = results[name]
    r = res["report"]
    assert r["verdict"] == "pass", r["explanation"]
    pid = escaped_pid(res)
    assert process_gone(pid, within=0.5), "killed before the report came back"
    assert [x["pid"] for x in r["leftovers"]] == [pid]
    assert "left 1 process running after the check" in r["explanation"]
    assert "fork of the checking process" in r["leftovers"][0]["command"]


@linux_only
def test_shared_memory_counts_against_the_limit(results):
    check(results, "shared_mmap", "memory", "shared memory included", "over the limit of 768 MiB")


@linux_only
def test_a_dev_shm_file_counts_against_the_limit(results):
    check(results, "shm_file", "memory", "over the limit of 768 MiB")


def test_a_forged_reply_is_rejected_not_believed(results):
    r = check(results, "forge", "protocol", "did not send", "cannot be trusted")
    assert "FORGED" not in r["explanation"]


def test_a_target_that_closes_the_reply_channel_is_not_called_out_of_memory(results):
    r = check(results, "close_channel", "crash", "closed the worker's reply channel")
    assert "memory" not in r["explanation"]


@linux_only
def test_the_reply_channel_is_not_on_the_command_line_nor_inherited(results):
    r = results["channel_hidden"]["report"]
    assert r["verdict"] == "pass", r["explanation"]
