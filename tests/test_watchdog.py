"""watchdog.run: results in order whatever the workers do; an item past its limit or whose
worker dies gets `stopped(item, why)` and the others still get their results."""

from __future__ import annotations

import faulthandler
import multiprocessing
import os
import signal
import time

import pytest

from gradlint import watchdog

pytestmark = pytest.mark.skipif(
    "fork" not in multiprocessing.get_all_start_methods() or not hasattr(signal, "setitimer"), reason="POSIX"
)
FORK = multiprocessing.get_context("fork") if "fork" in multiprocessing.get_all_start_methods() else None


def work(item):
    if item == "spin":
        while True:
            pass
    if item == "sleep":
        time.sleep(3600)
    if item == "exit":
        os._exit(3)
    if item == "segv":
        faulthandler.disable()  # pytest's, inherited: no stack dump in the test output
        os.kill(os.getpid(), signal.SIGSEGV)
    return item * 2


def stopped(item, why):
    return (item, why.kind, why.detail)


def run(items, jobs=2, limit=0.5):
    return watchdog.run(items, work, stopped, jobs=jobs, limit=lambda item: limit, batch=4, context=FORK)


def test_results_in_order_over_several_workers():
    items = [str(i) for i in range(50)]
    assert run(items, jobs=3) == [i * 2 for i in items]


def test_stopped_items_do_not_stop_the_others():
    items = ["a", "spin", "b", "exit", "c", "segv", "d"]
    t0 = time.perf_counter()
    out = run(items)
    assert out[0] == "aa" and out[2] == "bb" and out[4] == "cc" and out[6] == "dd"
    assert out[1] == ("spin", "timeout", "")
    assert out[3] == ("exit", "crash", "the worker process checking it exited with status 3")
    assert out[5] == ("segv", "crash", "the worker process checking it was killed by SIGSEGV")
    assert time.perf_counter() - t0 < 20


def test_a_worker_off_cpu_is_stopped_by_the_wall_clock():
    t0 = time.perf_counter()
    assert run(["sleep", "x"], jobs=1, limit=0.2) == [("sleep", "timeout", ""), "xx"]
    assert time.perf_counter() - t0 < 2 * 0.2 + watchdog.WALL_EXTRA_S + 5


def test_no_limit_and_no_items():
    assert run([], limit=None) == []
    assert run(["x"], limit=None) == ["xx"]
