"""`gradlint gradcheck` through gradlint.dynamic.cli: exit codes, JSON, text."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

from conftest import target

from gradlint.dynamic import cli


def parse(*argv: str) -> argparse.Namespace:
    p = argparse.ArgumentParser()
    cli.add_arguments(p)
    return p.parse_args(list(argv))


def test_fail_exits_1_with_json(capsys):
    code = cli.run(parse(target("ScaledSoftplus"), "--inputs", "torch.randn(8, 8)", "--output-format", "json"))
    assert code == 1
    data = json.loads(capsys.readouterr().out)
    assert data["verdict"] == "fail" and data["inputs"][0]["worst"]


def test_against_in_text_says_ulps(capsys):
    code = cli.run(parse(target("recip"), "--inputs", "torch.tensor([1.3, 1.1])",
                         "--against", target("recip_grad"), "--dtype", "float32"))
    out = capsys.readouterr().out
    assert code == 0
    assert out.startswith(f"gradcheck {target('recip')}: PASS")
    assert "1 ulp of float32" in out


def test_error_exits_2(capsys):
    code = cli.run(parse(target("smooth"), "--python", "/nonexistent/python"))
    assert code == 2
    assert "ERROR" in capsys.readouterr().out


def test_module_entry_point_runs_standalone():
    out = subprocess.run([sys.executable, "-m", "gradlint.dynamic", target("smooth"), "--inputs",
                          "torch.randn(3), torch.randn(3)"], capture_output=True, text=True, timeout=120, check=False)
    assert out.returncode == 0, out.stdout + out.stderr
    assert ": PASS" in out.stdout


def test_importing_the_package_does_not_import_torch():
    code = ("import sys, gradlint.dynamic, gradlint.dynamic.worker, gradlint.dynamic.cli, "
            "gradlint.dynamic.report, gradlint.dynamic.explain, gradlint.dynamic.text\n"
            "from gradlint.dynamic import WorkerPool, run_check\n"
            "assert 'torch' not in sys.modules, 'torch was imported'\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False)
    assert out.returncode == 0, out.stderr
