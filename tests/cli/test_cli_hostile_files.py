"""Files that are not files: a FIFO or a device named like source, and absurdly large inputs.
Each must end quickly with a GL003 saying why, and the rest of the run must go on."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest
from cli_support import RUNNER, clean_env

from gradlint.limits import MAX_READ_BYTES, read_regular

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")

# one finding: GL205 on line 7 (the loss accumulated with its graph)
GOOD = (
    "import torch\nmodel = torch.nn.Linear(3, 1)\ntotal = 0\nfor i in range(3):\n"
    "    loss = model(torch.randn(2, 3)).sum()\n    loss.backward()\n    total += loss\nprint(total)\n"
)


def gradlint(*args: str, cwd, timeout: float = 20) -> tuple[int, str, str, float]:
    """Run gradlint; a hang fails the test after `timeout` instead of stalling the suite."""
    t0 = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, str(RUNNER), *args], cwd=cwd, capture_output=True, text=True, env=clean_env(), timeout=timeout,
        stdin=subprocess.DEVNULL,
    )
    return proc.returncode, proc.stdout, proc.stderr, time.perf_counter() - t0


@pytest.fixture
def project(tmp_path):
    (tmp_path / "pyproject.toml").write_text("")
    return tmp_path


def test_fifo_named_explicitly_is_gl003(project):
    os.mkfifo(project / "a.py")
    rc, out, err, _ = gradlint("check", "--no-cache", "--output-format", "concise", "a.py", cwd=project)
    assert rc == 1, err
    assert "a.py:1:1: GL003" in out and "a named pipe, not a regular file" in out and "`gradlint check -`" in out


def test_fifo_found_by_the_walk_does_not_stop_the_others(project):
    os.mkfifo(project / "a.py")
    (project / "b.py").write_text(GOOD)
    rc, out, err, _ = gradlint("check", "--no-cache", "--output-format", "concise", ".", cwd=project)
    assert rc == 1, err
    assert "a.py:1:1: GL003" in out
    assert "b.py:7:5: GL205" in out  # b.py was checked


def test_fifo_named_gitignore_does_not_block_the_walk(project):
    (project / ".git").mkdir()
    os.mkfifo(project / ".gitignore")
    (project / "b.py").write_text("x = 1\n")
    rc, out, err, _ = gradlint("check", "--no-cache", ".", cwd=project)
    assert rc == 0, out + err


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")
@pytest.mark.parametrize("device", ["/dev/zero", "/dev/null"])
def test_devices_named_explicitly_are_gl003(project, device):
    rc, out, err, elapsed = gradlint("check", "--no-cache", "--output-format", "concise", device, cwd=project)
    assert rc == 1, err
    assert f"{device}:1:1: GL003" in out and "a character device, not a regular file" in out
    assert elapsed < 10


def test_an_absurdly_large_file_is_gl003_without_being_read(project):
    big = project / "big.py"
    with open(big, "wb") as fh:  # sparse: no disk space, no time
        fh.truncate(MAX_READ_BYTES + 1)
    rc, out, err, elapsed = gradlint("check", "--no-cache", "--output-format", "concise", "big.py", cwd=project)
    assert rc == 1, err
    assert "big.py:1:1: GL003" in out and "more than gradlint reads (67 MB)" in out
    assert elapsed < 10


def test_read_regular_checks_the_open_file_too(tmp_path, monkeypatch):
    # A FIFO swapped in between the stat and the open must not block: the open is
    # non-blocking and the open file is stat-ed again.
    fifo = tmp_path / "swap.py"
    os.mkfifo(fifo)
    real_stat = os.stat
    monkeypatch.setattr(os, "stat", lambda p, *a, **k: real_stat(__file__) if str(p) == str(fifo) else real_stat(p, *a, **k))
    with pytest.raises(OSError, match="a named pipe"):
        read_regular(str(fifo))


def test_read_regular_reads_regular_files(tmp_path):
    p = tmp_path / "ok.py"
    p.write_bytes(b"x = 1\n")
    data, st = read_regular(str(p))
    assert data == b"x = 1\n" and st.st_size == 6
    with pytest.raises(OSError, match="more than gradlint reads"):
        read_regular(str(p), limit=3)
