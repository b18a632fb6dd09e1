"""`gradlint check` on Jupyter notebooks: discovery, findings by cell and line in every output
format, --fix/--diff writing the cell back, per-cell noqa, standard input, the cache, and a
broken notebook as GL003."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

SCHEMA = Path(__file__).parent / "data" / "sarif-schema-2.1.0.json"
# cell 1 markdown, 2 imports (and a magic), 3 the finding of each test rule, 4 the backward
CELLS = [
    ("markdown", "# Training\nloss = forbidden(0) in markdown is text"),
    ("code", "import torch\n%matplotlib inline"),
    ("code", "!nvidia-smi\nloss = forbidden(1)  # caf\u00e9\nshaky(2)\nnote_me(3)  # noqa: GL992"),
    ("code", "note_me(4)\nloss.backward()"),
]


def write_notebook(project, rel: str = "nb.ipynb", cells=CELLS, **dumps) -> Path:
    nb = {
        "cells": [
            {"cell_type": kind, "metadata": {}, "source": src.splitlines(True), **({"outputs": [], "execution_count": None} if kind == "code" else {})}
            for kind, src in cells
        ],
        "metadata": {"kernelspec": {"language": "python", "name": "python3"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    path = project.root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(nb, indent=dumps.get("indent", 1), sort_keys=True, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


EXPECTED = [
    "nb.ipynb:cell 3:2:8: GL991 [*] `forbidden()` is forbidden",
    "nb.ipynb:cell 3:3:1: GL992 `shaky()` may be wrong",
    "nb.ipynb:cell 3:4:1: GL993 `note_me()` is worth a note",
    "nb.ipynb:cell 4:1:1: GL993 `note_me()` is worth a note",
]


def test_text_reports_cell_and_line(project):
    write_notebook(project)
    res = project.check("--output-format", "concise")
    assert res.returncode == 1
    assert res.lines[:4] == EXPECTED and res.lines[4] == "Found 4 errors."
    # the snippet is the cell's line
    full = project.check("--output-format", "full").stdout
    assert "nb.ipynb:cell 3:2:8: GL991 [*] `forbidden()` is forbidden\n  |\n2 | loss = forbidden(1)  # caf\u00e9\n  |        ^^^^^^^^^^^^ GL991\n" in full


def test_discovery_follows_the_rules_for_python_files(project):
    project.pyproject('extend-exclude = ["generated"]\n')
    write_notebook(project, "a/nb.ipynb")
    write_notebook(project, "generated/g.ipynb")
    write_notebook(project, ".hidden/h.ipynb")
    (project.root / ".git").mkdir()
    (project.root / ".gitignore").write_text("scratch*.ipynb\n")
    write_notebook(project, "scratch1.ipynb")
    assert project.check("--show-files").lines == ["a/nb.ipynb"]
    assert project.check("scratch1.ipynb", "--show-files").lines == ["scratch1.ipynb"]  # named: checked
    assert project.check("scratch1.ipynb", "--force-exclude", "--show-files").lines == []


def test_json_is_ruffs_notebook_shape(project):
    write_notebook(project)
    items = json.loads(project.check("--output-format", "json").stdout)
    first = items[0]
    assert (first["cell"], first["code"], first["location"], first["end_location"], first["noqa_row"]) == (
        3, "GL991", {"row": 2, "column": 8}, {"row": 2, "column": 20}, 2)
    assert first["fix"]["edits"][0]["location"] == {"row": 2, "column": 8}  # in the cell too
    assert [(i["cell"], i["location"]["row"]) for i in items] == [(3, 2), (3, 3), (3, 4), (4, 1)]


def _json_line(project, line: int) -> str:
    return (project.root / "nb.ipynb").read_text(encoding="utf-8").split("\n")[line - 1]


def test_sarif_and_github_point_into_the_notebook_file(project):
    write_notebook(project)
    sarif = json.loads(project.check("--output-format", "sarif").stdout)
    pytest.importorskip("jsonschema").Draft4Validator(json.loads(SCHEMA.read_text())).validate(sarif)
    first = sarif["runs"][0]["results"][0]
    region = first["locations"][0]["physicalLocation"]["region"]
    # the region is in the .ipynb's own text: the JSON string that holds the cell's line
    assert _json_line(project, region["startLine"])[region["startColumn"] - 1 :].startswith("forbidden(1)")
    assert region["endLine"] == region["startLine"] and region["endColumn"] - region["startColumn"] == len("forbidden(1)")
    assert first["properties"] == {"cell": 3, "cellLine": 2, "cellColumn": 8}
    assert first["message"]["text"] == "cell 3, line 2: `forbidden()` is forbidden"
    assert "fixes" not in first  # a cell's edits are not edits of the JSON text

    lines = project.check("--output-format", "github").lines
    m = re.match(r"::error title=gradlint \(GL991\),file=nb.ipynb,line=(\d+),col=(\d+),endLine=\d+,endColumn=\d+::(.*)$", lines[0])
    assert m, lines[0]
    assert _json_line(project, int(m.group(1)))[int(m.group(2)) - 1 :].startswith("forbidden(1)")
    assert m.group(3) == "nb.ipynb:cell 3:2:8: GL991 `forbidden()` is forbidden"


def test_fix_writes_only_the_changed_cell(project):
    path = write_notebook(project)
    before = path.read_text(encoding="utf-8")
    diff = project.check("--diff")
    assert diff.returncode == 1 and path.read_text(encoding="utf-8") == before
    assert diff.stdout.startswith("--- nb.ipynb:cell 3\n+++ nb.ipynb:cell 3\n")
    assert "-loss = forbidden(1)  # caf\u00e9\n+loss = allowed(1)  # caf\u00e9\n" in diff.stdout
    res = project.check("--fix", "--output-format", "concise")
    assert "Found 4 errors (1 fixed, 3 remaining)." in res.lines
    after = path.read_text(encoding="utf-8")
    assert after == before.replace('"loss = forbidden(1)  # caf\u00e9\\n"', '"loss = allowed(1)  # caf\u00e9\\n"')
    assert after != before
    assert "Found 3 errors." in project.check("--fix").lines  # nothing more to fix


def test_standard_input(project):
    path = write_notebook(project)
    data = path.read_bytes()
    res = project.check("--stdin-filename", "nb.ipynb", "--output-format", "concise", "-", input=data)
    assert res.lines[:4] == EXPECTED
    fixed = project.check("--fix", "--stdin-filename", "nb.ipynb", "-", input=data)
    assert fixed.stdout == data.decode().replace("forbidden(1)", "allowed(1)")
    assert "nb.ipynb:cell 3:3:1: GL992" in fixed.stderr


def test_cache_answers_notebooks_too(project):
    write_notebook(project)
    project.write("b.py")
    project.age()
    for p in project.root.glob("*.ipynb"):
        os.utime(p, (1_000_000_000, 1_000_000_000))  # (project.age() backdates *.py only)
    cold = project.check("-v", "--output-format", "concise")
    warm = project.check("-v", "--output-format", "concise")
    assert "2 files, 0 answered from the cache, 2 read" in cold.stderr
    assert "2 files, 2 answered from the cache, 0 read" in warm.stderr
    assert warm.stdout == cold.stdout and "nb.ipynb:cell 3:2:8" in warm.stdout


def test_a_broken_notebook_is_gl003_and_the_run_goes_on(project):
    (project.root / "bad.ipynb").write_text('{"cells": [\n')
    write_notebook(project)
    res = project.check("--output-format", "concise")
    assert res.returncode == 1
    assert res.lines[0] == "bad.ipynb:1:1: GL003 cannot read notebook: invalid JSON: Expecting value (line 2, column 1)"
    assert res.lines[1:5] == EXPECTED
