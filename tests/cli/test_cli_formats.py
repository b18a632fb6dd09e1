"""Every output format: text (terminal and not), full/concise, json, sarif (validated against
the official schema), github, statistics, and the summary lines."""

from __future__ import annotations

import json
import os
import pty
import re
import subprocess
import sys
from pathlib import Path

import pytest
from cli_support import RUNNER, clean_env

from gradlint.output import github

ANSI = re.compile(r"\x1b\[[0-9;]*m")
SCHEMA = Path(__file__).parent / "data" / "sarif-schema-2.1.0.json"


def run_in_pty(args, cwd: Path, **env) -> tuple[int, str]:
    """Run with stdout on a pseudo-terminal (what a user at a shell sees)."""
    master, slave = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, str(RUNNER), *args], cwd=cwd, stdout=slave, stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL, env=clean_env(**env),
    )
    os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 65536)
        except OSError:  # EIO: the child closed the terminal
            break
        if not data:
            break
        chunks.append(data)
    proc.wait(timeout=120)
    os.close(master)
    return proc.returncode, b"".join(chunks).decode().replace("\r\n", "\n")


CONCISE = [
    "a.py:2:8: GL991 [*] `forbidden()` is forbidden",
    "a.py:3:1: GL992 `shaky()` may be wrong",
    "a.py:4:1: GL993 `note_me()` is worth a note",
    "Found 3 errors.",
    "[*] 1 fixable with the `--fix` option (1 hidden fix can be enabled with the `--unsafe-fixes` option).",
]

FULL_FIRST = """\
a.py:2:8: GL991 [*] `forbidden()` is forbidden
  |
2 | loss = forbidden(1)
  |        ^^^^^^^^^^^^ GL991
  |
  = help: Call `allowed()` instead

"""


def test_text_without_terminal_is_concise(project):
    project.write("a.py")
    res = project.check()
    assert res.returncode == 1
    assert res.lines == CONCISE
    assert "\x1b[" not in res.stdout


def test_text_on_terminal_shows_snippets_in_color(project):
    project.write("a.py")
    rc, out = run_in_pty(["check"], project.root)
    assert rc == 1
    assert "\x1b[" in out
    plain = ANSI.sub("", out)
    assert plain.startswith(FULL_FIRST)
    assert plain.rstrip().endswith(CONCISE[-1])
    rc, out = run_in_pty(["check"], project.root, NO_COLOR="1")
    assert "\x1b[" not in out and out.startswith(FULL_FIRST)


def test_full_and_concise_force_the_layout(project):
    project.write("a.py")
    full = project.check("--output-format", "full").stdout
    assert full.startswith(FULL_FIRST)
    assert "  = help: Call `steady()` instead (unsafe)" in full
    assert project.check("--output-format", "concise").lines == CONCISE


def test_snippet_aligns_carets_after_tabs_and_wide_characters(project):
    project.write("t.py", "import torch\nif True:\n\tx = ('日本', forbidden(1))\nx.backward()\n")
    out = project.check("--output-format", "full", "--select", "GL991").stdout
    lines = out.splitlines()
    assert lines[0] == "t.py:3:13: GL991 [*] `forbidden()` is forbidden"
    assert lines[2] == "3 |     x = ('日本', forbidden(1))"
    # a tab is 4 columns, each CJK character 2: `    x = ('日本', ` is 17 columns wide
    assert lines[3] == "  | " + " " * 17 + "^" * 12 + " GL991"


def test_paths_are_relative_to_the_working_directory(project):
    project.write("pkg/sub/a.py")
    assert project.check("pkg", "--output-format", "concise").lines[0].startswith("pkg/sub/a.py:2:8:")
    (project.root / "elsewhere").mkdir()
    res = project.check("../pkg", "--output-format", "concise", cwd=project.root / "elsewhere")
    assert res.lines[0].startswith(str(project.root / "pkg/sub/a.py") + ":2:8:")


def test_quiet_and_silent(project):
    project.write("a.py")
    assert project.check("--quiet").lines == CONCISE[:3]
    res = project.check("--silent")
    assert res.returncode == 1 and res.stdout == "" and res.stderr == ""


def test_unsafe_fixes_count_as_fixable(project):
    project.write("a.py")
    res = project.check("--unsafe-fixes")
    assert res.lines[1] == "a.py:3:1: GL992 [*] `shaky()` may be wrong"
    assert res.lines[-1] == "[*] 2 fixable with the `--fix` option."


def test_json_is_shaped_like_ruffs(project):
    project.write("a.py")
    res = project.check("--output-format", "json")
    assert res.returncode == 1
    data = json.loads(res.stdout)
    assert [d["code"] for d in data] == ["GL991", "GL992", "GL993"]
    first = data[0]
    assert set(first) >= {"code", "message", "filename", "location", "end_location", "fix", "url", "noqa_row", "severity", "name"}
    assert first["filename"] == str(project.root / "a.py")
    assert first["location"] == {"row": 2, "column": 8}
    assert first["end_location"] == {"row": 2, "column": 20}
    assert first["noqa_row"] == 2
    assert first["severity"] == "error" and first["name"] == "forbidden-call"
    assert first["url"].endswith("GL991.md")
    assert first["fix"] == {
        "applicability": "safe",
        "message": "Call `allowed()` instead",
        "edits": [{"content": "allowed", "location": {"row": 2, "column": 8}, "end_location": {"row": 2, "column": 17}}],
    }
    assert data[1]["fix"]["applicability"] == "unsafe"
    assert data[2]["fix"] is None and data[2]["severity"] == "info"


def test_json_of_a_clean_run_is_an_empty_list(project):
    project.write("a.py", "x = 1\n")
    res = project.check("--output-format", "json")
    assert res.returncode == 0 and json.loads(res.stdout) == []


def test_sarif_validates_against_the_schema(project):
    jsonschema = pytest.importorskip("jsonschema")
    project.write("src/a.py")
    res = project.check("--output-format", "sarif")
    assert res.returncode == 1
    sarif = json.loads(res.stdout)
    jsonschema.Draft4Validator(json.loads(SCHEMA.read_text())).validate(sarif)

    run = sarif["runs"][0]
    assert sarif["version"] == "2.1.0" and run["columnKind"] == "unicodeCodePoints"
    driver = run["tool"]["driver"]
    assert driver["name"] == "gradlint" and driver["version"]
    rules = driver["rules"]
    ids = [r["id"] for r in rules]
    assert {"GL001", "GL002", "GL003", "GL991"} <= set(ids)
    gl991 = rules[ids.index("GL991")]
    assert gl991["help"]["markdown"].startswith("# GL991 `forbidden-call`")
    assert gl991["defaultConfiguration"]["level"] == "error"
    assert gl991["helpUri"].endswith("GL991.md")
    levels = [r["level"] for r in run["results"]]
    assert levels == ["error", "warning", "note"]
    first = run["results"][0]
    assert rules[first["ruleIndex"]]["id"] == first["ruleId"] == "GL991"
    loc = first["locations"][0]["physicalLocation"]
    assert loc["artifactLocation"] == {"uri": "src/a.py", "uriBaseId": "%SRCROOT%"}
    assert loc["region"] == {"startLine": 2, "startColumn": 8, "endLine": 2, "endColumn": 20}
    assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"] == project.root.as_uri() + "/"
    assert first["fixes"][0]["artifactChanges"][0]["replacements"][0]["insertedContent"] == {"text": "allowed"}


def test_sarif_of_a_clean_run_is_valid(project):
    jsonschema = pytest.importorskip("jsonschema")
    project.write("a.py", "x = 1\n")
    res = project.check("--output-format", "sarif")
    assert res.returncode == 0
    sarif = json.loads(res.stdout)
    jsonschema.Draft4Validator(json.loads(SCHEMA.read_text())).validate(sarif)
    assert sarif["runs"][0]["results"] == []


def test_github_annotations(project):
    project.write("a.py")
    res = project.check("--output-format", "github")
    assert res.returncode == 1
    assert res.lines == [
        "::error title=gradlint (GL991),file=a.py,line=2,col=8,endLine=2,endColumn=20::a.py:2:8: GL991 `forbidden()` is forbidden",
        "::warning title=gradlint (GL992),file=a.py,line=3,col=1,endLine=3,endColumn=9::a.py:3:1: GL992 `shaky()` may be wrong",
        "::notice title=gradlint (GL993),file=a.py,line=4,col=1,endLine=4,endColumn=11::a.py:4:1: GL993 `note_me()` is worth a note",
    ]


def test_github_escaping():
    assert github.escape_data("50% a\r\nb") == "50%25 a%0D%0Ab"
    assert github.escape_property("x:1,y\n") == "x%3A1%2Cy%0A"


def test_statistics(project):
    project.write("a.py")
    project.write("b.py", "import torch\nloss = forbidden(forbidden(2))\nloss.backward()\n")
    res = project.check("--statistics")
    assert res.returncode == 1
    assert res.lines == ["3\tGL991\t[*] forbidden-call", "1\tGL992\t    shaky-call", "1\tGL993\t    note-call"]
    stats = json.loads(project.check("--statistics", "--output-format", "json").stdout)
    assert stats[0] == {"code": "GL991", "name": "forbidden-call", "count": 3, "fixable": True}
