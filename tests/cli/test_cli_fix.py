"""`--fix`, `--unsafe-fixes`, `--diff` and `--stdin-filename`."""

from __future__ import annotations

import json

from cli_support import SAMPLE

FIXED_SAFE = SAMPLE.replace("forbidden(", "allowed(")


def test_fix_applies_safe_fixes_and_reports_the_rest(project):
    path = project.write("a.py")
    res = project.check("--fix")
    assert res.returncode == 1  # GL992 and GL993 remain
    assert path.read_text() == FIXED_SAFE
    assert res.lines == [
        "a.py:3:1: GL992 `shaky()` may be wrong",
        "a.py:4:1: GL993 `note_me()` is worth a note",
        "Found 3 errors (1 fixed, 2 remaining).",
        "No fixes available (1 hidden fix can be enabled with the `--unsafe-fixes` option).",
    ]


def test_fix_everything_exits_0(project):
    path = project.write("a.py", "import torch\nloss = forbidden(forbidden(1))\nloss.backward()\n")
    res = project.check("--fix")
    assert res.returncode == 0, res
    assert path.read_text() == "import torch\nloss = allowed(allowed(1))\nloss.backward()\n"
    assert res.lines == ["Found 2 errors (2 fixed, 0 remaining)."]
    assert project.check("--fix", "--exit-non-zero-on-fix").returncode == 0  # nothing left to fix
    project.write("b.py", "import torch\nloss = forbidden(1)\nloss.backward()\n")
    assert project.check("--fix", "--exit-non-zero-on-fix").returncode == 1


def test_unsafe_fixes(project):
    path = project.write("a.py")
    res = project.check("--fix", "--unsafe-fixes", "--output-format", "json")
    assert path.read_text() == FIXED_SAFE.replace("shaky(", "steady(")
    assert [d["code"] for d in json.loads(res.stdout)] == ["GL993"]


def test_fix_keeps_crlf_bom_and_declared_encoding(project):
    crlf = project.root / "crlf.py"
    crlf.write_bytes(SAMPLE.replace("\n", "\r\n").encode())
    bom = project.root / "bom.py"
    bom.write_bytes(b"\xef\xbb\xbf" + SAMPLE.encode())
    latin = project.root / "latin.py"
    latin.write_bytes(("# -*- coding: latin-1 -*-\ns = 'caf\xe9'\n" + SAMPLE).encode("latin-1"))
    project.check("--fix")
    assert crlf.read_bytes() == FIXED_SAFE.replace("\n", "\r\n").encode()
    assert bom.read_bytes() == b"\xef\xbb\xbf" + FIXED_SAFE.encode()
    assert latin.read_bytes() == ("# -*- coding: latin-1 -*-\ns = 'caf\xe9'\n" + FIXED_SAFE).encode("latin-1")


def test_fix_leaves_unfixable_files_untouched(project):
    path = project.write("a.py", "import torch\nloss = note_me(1)\nloss.backward()\n")
    before = path.stat().st_mtime_ns
    res = project.check("--fix")
    assert path.stat().st_mtime_ns == before
    assert res.lines[-1] == "Found 1 error."  # nothing fixed: no "(0 fixed, ...)"


def test_diff_prints_changes_and_writes_nothing(project):
    path = project.write("a.py")
    res = project.check("--diff")
    assert res.returncode == 1
    assert path.read_text() == SAMPLE
    assert res.stdout == (
        "--- a.py\n+++ a.py\n@@ -1,5 +1,5 @@\n import torch\n-loss = forbidden(1)\n+loss = allowed(1)\n"
        " shaky(2)\n note_me(3)\n loss.backward()\n"
    )
    assert res.stderr == "Would fix 1 error.\n"
    # The same run with nothing to fix: no diff, exit 0.
    project.write("a.py", "import torch\nloss = note_me(1)\nloss.backward()\n")
    res = project.check("--diff")
    assert (res.returncode, res.stdout, res.stderr) == (0, "", "No errors would be fixed.\n")


def test_diff_marks_a_missing_final_newline(project):
    project.write("a.py", "import torch\nloss = forbidden(1)\nloss.backward()", dedent=False)
    out = project.check("--diff").stdout
    assert out.endswith(" loss.backward()\n\\ No newline at end of file\n")


def test_stdin_check(project):
    res = project.check("-", "--stdin-filename", "pkg/mod.py", input=SAMPLE)
    assert res.returncode == 1
    assert res.lines[0] == "pkg/mod.py:2:8: GL991 [*] `forbidden()` is forbidden"
    res = project.check("-", input=SAMPLE, plugin=True)
    assert res.lines[0] == "-:2:8: GL991 [*] `forbidden()` is forbidden"
    assert project.check("-", input="x = 1\n").returncode == 0


def test_stdin_fix_prints_the_fixed_source(project):
    res = project.check("-", "--stdin-filename", "a.py", "--fix", input=SAMPLE)
    assert res.returncode == 1
    assert res.stdout == FIXED_SAFE
    assert "a.py:3:1: GL992" in res.stderr and "(1 fixed, 2 remaining)" in res.stderr
    res = project.check("--stdin-filename", "a.py", "--fix", "--select", "GL991", input=SAMPLE)
    assert (res.returncode, res.stdout) == (0, FIXED_SAFE)


def test_stdin_diff(project):
    res = project.check("-", "--stdin-filename", "a.py", "--diff", input=SAMPLE)
    assert res.returncode == 1
    assert res.stdout.startswith("--- a.py\n+++ a.py\n")
    assert "+loss = allowed(1)\n" in res.stdout


def test_stdin_honours_per_file_ignores_and_force_exclude(project):
    project.pyproject('per-file-ignores = { "tests/*" = ["GL99"] }\nextend-exclude = ["generated"]\n')
    assert project.check("-", "--stdin-filename", "tests/t.py", input=SAMPLE).returncode == 0
    assert project.check("-", "--stdin-filename", "src/t.py", input=SAMPLE).returncode == 1
    res = project.check("-", "--stdin-filename", "generated/t.py", "--force-exclude", "--fix", input=SAMPLE)
    assert (res.returncode, res.stdout) == (0, SAMPLE)  # excluded: echoed back unchanged


def test_stdin_undecodable_is_gl003(project):
    res = project.check("-", "--stdin-filename", "a.py", input=b"x = '\xff'\n")
    assert res.returncode == 1
    assert res.lines[0] == "a.py:1:1: GL003 cannot decode file: not valid utf-8 (byte 0xff on line 1)"
