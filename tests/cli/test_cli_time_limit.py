"""`gradlint check` ends on every input: the attack report's parser bombs end within 10 s with a
clear finding; a file whose check runs past its time limit, or whose worker dies, gets a
finding of its own and the other files are still checked; a worker stopped while it writes a
fix leaves the file whole."""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
import time

import pytest

from gradlint import watchdog

pytestmark = pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="POSIX interval timers")

GOOD = (
    "import torch\nmodel = torch.nn.Linear(3, 1)\ntotal = 0\nfor i in range(3):\n"
    "    loss = model(torch.randn(2, 3)).sum()\n    loss.backward()\n    total += loss\n"
)
HEAD = "import torch\nw = torch.randn(3, requires_grad=True)\nloss = "
TAIL = "\nloss.backward()\n"

# gradlint with a check that misbehaves on marked files (workers are forked: they inherit it)
RUNNER = textwrap.dedent(
    """
    import os, signal, sys, time
    import gradlint.engine as engine
    real = engine.check_source
    def check_source(text, *args, **kwargs):
        if "SPIN_FOREVER" in text:
            while True:
                pass
        if "SLEEP_FOREVER" in text:
            time.sleep(3600)
        if "CRASH_NOW" in text:
            os.kill(os.getpid(), signal.SIGSEGV)
        return real(text, *args, **kwargs)
    engine.check_source = check_source
    from gradlint.cli import main
    sys.exit(main(sys.argv[1:]))
    """
)


def gradlint(*args: str, cwd, stdin: str = "", timeout: float = 60) -> tuple[int, str, str, float]:
    t0 = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-c", RUNNER, *args], cwd=cwd, input=stdin, capture_output=True, text=True, timeout=timeout,
    )
    return proc.returncode, proc.stdout, proc.stderr, time.perf_counter() - t0


@pytest.fixture
def project(tmp_path):
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "good.py").write_text(GOOD)
    return tmp_path


# ------------------------------------------------------------------ the attack report's inputs
BOMBS = {
    "deep parentheses (#10)": ("(" * 2000 + "w.sum()" + ")" * 2000, "3:208: GL001 SyntaxError: too many nested parentheses"),
    "3,000-term sum (#11)": (" + ".join(["w.sum()"] * 3000), "3:1: GL004 not analysed"),
    "10,000-term sum (#11)": (" + ".join(["w.sum()"] * 10_000), "3:1: GL004 not analysed"),
    "100,000-term sum (cli_attacks)": (" + ".join(["w.sum()"] * 100_000), "3:1: GL004 not analysed"),
    "5,000 nested calls": ("torch.sin(" * 5000 + "w" + ")" * 5000, "3:2017: GL001 SyntaxError: too many nested parentheses"),
}


@pytest.mark.parametrize("name", list(BOMBS))
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_parser_bombs_end_within_10_s_with_a_finding(project, name, jobs):
    expr, expected = BOMBS[name]
    (project / "bomb.py").write_text(HEAD + expr + TAIL)
    rc, out, err, elapsed = gradlint("check", "--no-cache", "--jobs", jobs, "--output-format", "concise", ".", cwd=project)
    assert rc == 1, (rc, err)
    assert f"bomb.py:{expected}" in out
    assert "good.py:7:5: GL205" in out  # the other file was checked
    assert elapsed < 10


def test_without_a_time_limit_the_bounds_still_hold_in_process(project):
    (project / "bomb.py").write_text(HEAD + "(" * 2000 + "w.sum()" + ")" * 2000 + TAIL)
    rc, out, err, _ = gradlint("check", "--no-cache", "--jobs", "1", "--file-timeout", "0", "bomb.py", cwd=project)
    assert rc == 1 and "GL001" in out, (rc, err)  # not SIGSEGV (139)


# ------------------------------------------------------------------ the time limit
@pytest.mark.parametrize("marker, limit", [("SPIN_FOREVER", "0.5"), ("SLEEP_FOREVER", "0.5")])
def test_a_file_past_its_limit_is_gl004_and_the_run_goes_on(project, marker, limit):
    # spinning burns CPU (the worker's CPU-time limit ends it); sleeping does not (the
    # parent's wall-clock deadline does, at twice the limit plus a margin)
    (project / "stuck.py").write_text(f"import torch\n# {marker}\nloss.backward()\n")
    (project / "after.py").write_text(GOOD)
    rc, out, err, elapsed = gradlint("check", "--no-cache", "--file-timeout", limit, "--output-format", "concise", ".", cwd=project)
    assert rc == 1, (rc, err)
    assert "stuck.py:1:1: GL004 not analysed: checking this file took longer than 0.5 s (the `--file-timeout`)" in out
    assert "good.py:7:5: GL205" in out and "after.py:7:5: GL205" in out
    assert elapsed < 2 * 0.5 + watchdog.WALL_EXTRA_S + 5


def test_the_default_limit_grows_with_the_file():
    assert watchdog.default_limit(0) == watchdog.BASE_S
    assert watchdog.default_limit(2_000_000) == watchdog.BASE_S + 2 * watchdog.PER_MB_S


def test_many_files_in_parallel_with_one_stuck(project):
    for i in range(40):
        (project / f"m{i}.py").write_text(GOOD)
    (project / "m7.py").write_text("import torch\n# SPIN_FOREVER\nloss.backward()\n")
    rc, out, err, _ = gradlint("check", "--no-cache", "--jobs", "2", "--file-timeout", "1", "--output-format", "concise", ".", cwd=project)
    assert rc == 1, err
    assert out.count(": GL205") == 40 and "m7.py:1:1: GL004" in out  # good.py + 39


def test_a_worker_that_dies_is_gl002_and_the_run_goes_on(project):
    (project / "crash.py").write_text("import torch\n# CRASH_NOW\nloss.backward()\n")
    rc, out, err, _ = gradlint("check", "--no-cache", "--output-format", "concise", ".", cwd=project)
    assert rc == 1, (rc, err)
    assert "crash.py:1:1: GL002 gradlint failed on this file: RuntimeError: the worker process checking it was killed by SIGSEGV" in out
    assert "good.py:7:5: GL205" in out


def test_standard_input_has_the_same_limit(project):
    rc, out, err, _ = gradlint(
        "check", "--file-timeout", "0.5", "--output-format", "concise", "--stdin-filename", "x.py", "-",
        cwd=project, stdin="import torch\n# SPIN_FOREVER\nloss.backward()\n",
    )
    assert rc == 1, (rc, err)
    assert "x.py:1:1: GL004 not analysed: checking this file took longer than 0.5 s" in out


@pytest.mark.parametrize("value", ["-1", "nan", "inf"])
def test_bad_file_timeout_is_a_usage_error(project, value):
    rc, out, err, _ = gradlint("check", "--file-timeout", value, ".", cwd=project)
    assert rc == 2 and err == "gradlint: error: --file-timeout must be a number of seconds >= 0\n"


def test_a_worker_stopped_while_writing_finishes_the_write(tmp_path):
    code = textwrap.dedent(
        """
        import os, signal, sys
        from gradlint.watchdog import uninterruptible
        with uninterruptible():
            with open(sys.argv[1], "wb") as fh:
                os.kill(os.getpid(), signal.SIGTERM)   # stopped mid-write...
                fh.write(b"whole")
        print("unreachable")                            # ...ends right after it
        """
    )
    target = tmp_path / "f.py"
    proc = subprocess.run([sys.executable, "-c", code, str(target)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == -signal.SIGTERM and "unreachable" not in proc.stdout
    assert target.read_bytes() == b"whole"
