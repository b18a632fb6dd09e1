"""`pytest --gradlint-trace` on a small test project: a training test with a pitfall is reported
at its line and fails the run (exit 1), a clean training test and a test that does not train
say nothing, the saved findings are `check --trace-results` input, and without the flag the
plugin is inert (the same project passes, no section, torch not instrumented).

pytest runs in a subprocess: the plugin instruments torch for the whole process, which the
test session running this file must not inherit.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytest.importorskip("torch")

PITFALL = '''\
import torch
import torch.nn as nn


def test_train_with_a_cut():
    torch.manual_seed(0)
    model = nn.Linear(8, 1)
    scale = nn.Parameter(torch.ones(1))
    opt = torch.optim.SGD(list(model.parameters()) + [scale], lr=0.01)
    for _ in range(5):
        x, y = torch.randn(16, 8), torch.randn(16, 1)
        opt.zero_grad()
        s = scale.item()  # the cut: `scale` never gets a gradient
        loss = nn.functional.mse_loss(model(x) * s, y)
        loss.backward()
        opt.step()
'''

CLEAN = '''\
import torch
import torch.nn as nn


def test_train_cleanly():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 1))
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    running = 0.0
    for _ in range(5):
        x, y = torch.randn(16, 8), torch.randn(16, 1)
        opt.zero_grad()
        loss = nn.functional.mse_loss(model(x), y)
        loss.backward()
        opt.step()
        running += loss.item()  # logging only
    assert running > 0


def test_does_not_train():
    assert torch.ones(2).sum().item() == 2.0
'''

CUT_LINE = PITFALL.splitlines().index("        s = scale.item()  # the cut: `scale` never gets a gradient") + 1


def pytest_run(project: Path, *args: str) -> subprocess.CompletedProcess:
    # -p no:cacheprovider: leave nothing in the project; the test project's own rootdir/ini
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *args],
                          cwd=project, capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("traced_project")
    (root / "pytest.ini").write_text("[pytest]\n")  # its own rootdir: not gradlint's conftest files
    (root / "test_pitfall.py").write_text(PITFALL)
    (root / "test_clean.py").write_text(CLEAN)
    return root


@pytest.fixture(scope="module")
def traced(project: Path, tmp_path_factory) -> tuple[subprocess.CompletedProcess, Path]:
    saved = tmp_path_factory.mktemp("saved") / "trace.json"
    return pytest_run(project, "--gradlint-trace", "--gradlint-trace-output", str(saved)), saved


def test_reports_the_pitfall_at_its_line_and_exits_1(traced) -> None:
    out, saved = traced
    assert out.returncode == 1, out.stdout + out.stderr
    assert "3 passed" in out.stdout  # the tests themselves pass: the findings fail the run
    section = out.stdout.split("gradlint trace")[1]
    lines = [ln for ln in section.splitlines() if ": GL" in ln]
    assert len(lines) == 1, section  # the clean training test adds nothing
    assert lines[0].startswith(f"test_pitfall.py:{CUT_LINE}:") and " GL101 " in lines[0], lines[0]
    assert lines[0].endswith("[test_pitfall.py::test_train_with_a_cut]")
    assert "gradlint trace: 1 finding" in out.stdout
    rows = json.loads(saved.read_text())
    assert [(r["code"], Path(r["filename"]).name, r["location"]["row"]) for r in rows] == \
        [("GL101", "test_pitfall.py", CUT_LINE)]


def test_saved_findings_merge_into_check(project: Path, traced) -> None:
    _, saved = traced
    out = subprocess.run([sys.executable, "-m", "gradlint", "check", "--output-format", "json",
                          "--trace-results", str(saved), str(project / "test_pitfall.py")],
                         capture_output=True, text=True, timeout=120)
    rows = json.loads(out.stdout)
    assert ("GL101", CUT_LINE) in {(r["code"], r["location"]["row"]) for r in rows}, out.stdout
    assert out.returncode == 1


def test_clean_tests_say_nothing_and_exit_0(project: Path) -> None:
    out = pytest_run(project, "--gradlint-trace", "test_clean.py")
    assert out.returncode == 0, out.stdout + out.stderr
    assert "2 passed" in out.stdout
    assert "gradlint trace: nothing found in the traced training steps" in out.stdout
    assert ": GL" not in out.stdout


def test_inert_without_the_flag(project: Path) -> None:
    probe = project / "test_probe.py"
    probe.write_text(textwrap.dedent('''\
        import sys


        def test_nothing_is_instrumented(request):
            assert request.config.pluginmanager.get_plugin("gradlint-trace") is not None  # registered
            assert request.config.pluginmanager.get_plugin("gradlint-trace-session") is None  # inert
            assert "gradlint.trace.torch_probe" not in sys.modules
            assert "gradlint.trace.hooks" not in sys.modules
    '''))
    try:
        out = pytest_run(project)
    finally:
        probe.unlink()
    assert out.returncode == 0, out.stdout + out.stderr
    assert "4 passed" in out.stdout
    assert "gradlint trace" not in out.stdout
