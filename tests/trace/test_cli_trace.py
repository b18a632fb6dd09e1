"""`gradlint trace` on the command line: formats and exit codes like `check`, clear errors for a
program that crashes, hangs, floods its output or exits, with nothing left running; and
`gradlint check --trace-results` merging a saved trace."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import pytest

from trace_support import HERE, SCRIPTS

ROBUST = HERE / "robust"


def gradlint(*args, cwd=None, timeout=180):
    return subprocess.run([sys.executable, "-m", "gradlint", *map(str, args)], capture_output=True, text=True,
                          cwd=cwd, timeout=timeout)


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    out = gradlint("trace", "--output-format", "json", SCRIPTS / "missing_zero_grad.py")
    path = tmp_path_factory.mktemp("trace") / "trace.json"
    path.write_text(out.stdout)
    return out, path


def test_json_output_is_a_saved_trace_and_exit_1(saved):
    out, _ = saved
    assert out.returncode == 1, out.stderr
    rows = json.loads(out.stdout)
    assert [(r["code"], r["location"]["row"]) for r in rows] == [("GL302", 10)]
    assert rows[0]["trace"]["sha256"] and rows[0]["filename"] == str(SCRIPTS / "missing_zero_grad.py")


def test_text_sarif_github_and_clean_exit(tmp_path):
    ok = gradlint("trace", "--steps", "2", SCRIPTS / "accumulation_ok.py")
    assert ok.returncode == 0 and "All checks passed!" in ok.stdout
    assert "traced 2 optimizer steps" in ok.stderr
    gh = gradlint("trace", "--output-format", "github", SCRIPTS / "item_cut.py")
    assert gh.returncode == 1 and "::error" in gh.stdout and "GL101" in gh.stdout
    sarif = gradlint("trace", "--output-format", "sarif", SCRIPTS / "item_cut.py")
    assert json.loads(sarif.stdout)["runs"][0]["results"][0]["ruleId"] == "GL101"


def test_noqa_and_config_apply(tmp_path):
    script = tmp_path / "train.py"
    text = (SCRIPTS / "missing_zero_grad.py").read_text()
    script.write_text(text.replace("# expect: GL302", "# noqa: GL302"))
    assert gradlint("trace", script).returncode == 0
    script.write_text(text)
    (tmp_path / "pyproject.toml").write_text('[tool.gradlint]\nignore = ["GL302"]\n')
    assert gradlint("trace", script).returncode == 0


def test_check_merges_saved_trace(saved, tmp_path):
    _, path = saved
    merged = gradlint("check", "--no-cache", "--output-format", "json", "--trace-results", path,
                      SCRIPTS / "missing_zero_grad.py")
    rows = json.loads(merged.stdout)
    assert merged.returncode == 1
    # the static GL302 (same line) is confirmed: one finding, with what the trace observed
    assert [(r["code"], r["location"]["row"]) for r in rows] == [("GL302", 10)]
    assert "earlier optimizer step already used" in rows[0]["message"]
    stale = tmp_path / "copy.py"
    stale.write_text((SCRIPTS / "missing_zero_grad.py").read_text())
    data = json.loads(path.read_text())
    data[0]["filename"] = str(stale)
    data[0]["trace"]["sha256"] = "0" * 64
    (tmp_path / "stale.json").write_text(json.dumps(data))
    out = gradlint("check", "--no-cache", "--trace-results", tmp_path / "stale.json", stale)
    assert "stale" in out.stderr
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    out = gradlint("check", "--no-cache", "--trace-results", bad, stale)
    assert out.returncode == 2 and "not a saved trace" in out.stderr and "Traceback" not in out.stderr


@pytest.mark.parametrize("script,words", [
    ("crash.py", "raised ValueError at crash.py:10: the data loader ran dry"),
    ("flood.py", "printed more than 16 MiB"),
    ("segfault.py", "segmentation fault"),
    ("exits.py", "exited with status 3"),
])
def test_bad_programs_end_as_clear_errors(script, words):
    out = gradlint("trace", "--timeout", "60", ROBUST / script, cwd=ROBUST)
    assert out.returncode == 2, (out.stdout, out.stderr)
    assert words in out.stderr and "Traceback (most recent call last)" not in out.stderr.split("last output")[0]


def test_hang_is_stopped_with_everything_it_started(tmp_path):
    marker = tmp_path / "child-started"
    t0 = time.monotonic()
    out = gradlint("trace", "--timeout", "6", ROBUST / "hang.py", marker, cwd=ROBUST)
    assert out.returncode == 2 and "within 6 s" in out.stderr
    assert time.monotonic() - t0 < 60
    assert marker.exists()  # the program's own child had started ...
    time.sleep(0.5)
    ps = subprocess.run(["ps", "-eo", "args"], capture_output=True, text=True).stdout
    assert str(marker) not in ps  # ... and is gone with it


def test_usage_errors():
    out = gradlint("trace", "no_such_script.py")
    assert out.returncode == 2 and "no such file" in out.stderr
    out = gradlint("trace", "--steps", "0", SCRIPTS / "accumulation_ok.py")
    assert out.returncode == 2 and "--steps" in out.stderr


def test_module_mode_and_program_arguments(tmp_path):
    pkg = tmp_path / "proj"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "train.py").write_text((SCRIPTS / "missing_zero_grad.py").read_text().replace(
        "for step in range(20):", "import sys\nassert sys.argv[1:] == ['--epochs', '1'], sys.argv\nfor step in range(20):"))
    out = gradlint("trace", "-m", "proj.train", "--epochs", "1", cwd=tmp_path)
    assert out.returncode == 1, out.stderr
    assert "GL302" in out.stdout and os.path.join("proj", "train.py") in out.stdout
