"""MemoryWatch counts a /dev/shm file against a check only when the check's processes held it:
a file another program writes meanwhile (a concurrent check, a DataLoader elsewhere) is not the
check's memory. Found when two checks ran side by side: one's 2 GB file ended the other."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid

import pytest

from gradlint.dynamic import proctree

linux_only = pytest.mark.skipif(not (proctree.available() and os.path.isdir(proctree.SHM)), reason="/proc, /dev/shm")
MB = 1 << 20


def _wait_for(path: str, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not os.path.exists(path) and time.monotonic() < deadline:
        time.sleep(0.01)


@linux_only
def test_a_file_another_process_writes_is_not_counted(tmp_path):
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    path = f"{proctree.SHM}/gradlint-test-{uuid.uuid4().hex}"
    try:
        watch = proctree.MemoryWatch(sleeper.pid, 1 << 40)
        with open(path, "wb") as f:  # written by this test, not by the watched tree
            f.write(b"\1" * (16 * MB))
        assert watch.usage() < 16 * MB
        assert watch.usage(precise=True) < 16 * MB
    finally:
        sleeper.kill()
        sleeper.wait()
        if os.path.exists(path):
            os.remove(path)


@linux_only
def test_a_file_the_tree_wrote_counts_after_it_is_closed(tmp_path):
    path = f"{proctree.SHM}/gradlint-test-{uuid.uuid4().hex}"
    ready = tmp_path / "ready"
    go = tmp_path / "go"
    code = (
        "import os, sys, time\n"
        f"f = open({path!r}, 'wb'); f.write(b'\\1' * {16 * MB}); f.flush()\n"
        f"open({str(ready)!r}, 'w').close()\n"
        f"while not os.path.exists({str(go)!r}): time.sleep(0.01)\n"
        "f.close()\n"
        "time.sleep(30)\n"
    )
    writer = subprocess.Popen([sys.executable, "-c", code])
    try:
        watch = proctree.MemoryWatch(writer.pid, 1 << 40)
        _wait_for(str(ready))
        assert watch.usage() >= 16 * MB  # seen open: the tree's
        go.touch()
        time.sleep(0.3)  # closed now: still the tree's memory, no process shows it any more
        assert watch.usage() >= 16 * MB
    finally:
        writer.kill()
        writer.wait()
        if os.path.exists(path):
            os.remove(path)
