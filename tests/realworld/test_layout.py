"""The mined real-world cases are well formed and sit in the half their URL decides.

These checks are about the corpus itself, not about any rule: every case file parses, carries the
header fields the measurement reads (source, framework, expect), points its expected line inside the
file, lives in the split that ``split.py`` computes from its source URL, and has exactly one
INDEX.tsv row (and every row names an existing file)."""

from __future__ import annotations

import ast
import csv
import importlib.util
import re
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
SPLITS = ("dev", "heldout")
FRAMEWORKS = {"torch", "tf", "jax"}

_spec = importlib.util.spec_from_file_location("realworld_split", HERE / "split.py")
_split = importlib.util.module_from_spec(_spec)
assert _spec.loader is not None
_spec.loader.exec_module(_split)


def _cases() -> list[Path]:
    return sorted(p for s in SPLITS for kind in ("positive", "negative") for p in (HERE / s / kind).glob("*.py"))


def _header(path: Path) -> dict[str, str]:
    """The leading `# key: value` comment block of a case file."""
    fields: dict[str, str] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        m = re.match(r"#\s*([a-z_]+):\s*(.*)$", line)
        if not m:
            break
        fields.setdefault(m.group(1), m.group(2).strip())
    return fields


def _index_rows(split: str) -> list[list[str]]:
    index = HERE / split / "INDEX.tsv"
    if not index.is_file():
        return []
    with index.open(encoding="utf-8", newline="") as f:
        rows = list(csv.reader(f, delimiter="\t"))
    assert rows and rows[0][:3] == ["file", "family", "expected_line"], f"{index}: unexpected header {rows[:1]}"
    return rows[1:]


CASES = _cases()


def test_split_is_a_pure_function_of_the_url() -> None:
    urls = [f"https://example.org/thread/{i}" for i in range(64)]
    halves = {_split.split_of(u) for u in urls}
    assert halves == {"dev", "heldout"}
    assert all(_split.split_of(u) == _split.split_of(u) for u in urls)


@pytest.mark.parametrize("path", CASES, ids=lambda p: f"{p.parent.parent.name}/{p.parent.name}/{p.name}")
def test_case_file_is_well_formed(path: Path) -> None:
    source = path.read_text(encoding="utf-8")
    ast.parse(source, filename=str(path))
    head = _header(path)
    assert head.get("source", "").startswith("http"), "missing '# source: URL' header"
    assert head.get("framework") in FRAMEWORKS, f"framework must be one of {sorted(FRAMEWORKS)}"
    assert "expect" in head and "kind" in head
    assert _split.split_of(head["source"]) == path.parent.parent.name, "file sits in the wrong split for its URL"
    n_lines = len(source.splitlines())
    if path.parent.name == "positive":
        m = re.match(r"line (\d+)\b", head["expect"])
        assert m, "positive needs '# expect: line N — ...'"
        assert len(head) <= int(m.group(1)) <= n_lines, "expected line must point into the code, below the header"
    else:
        assert head["expect"].startswith("no finding")


@pytest.mark.parametrize("split", SPLITS)
def test_index_matches_files(split: str) -> None:
    rows = _index_rows(split)
    listed = [r[0] for r in rows]
    assert len(listed) == len(set(listed)), "a file is listed twice"
    on_disk = sorted(f"{p.parent.name}/{p.name}" for p in CASES if p.parent.parent.name == split)
    assert sorted(listed) == on_disk
    for row in rows:
        path = HERE / split / row[0]
        head = _header(path)
        expected = "none" if row[0].startswith("negative/") else re.match(r"line (\d+)", head["expect"]).group(1)
        assert row[2] == expected, f"{row[0]}: INDEX says {row[2]}, header says {expected}"
        assert head["source"] in row, f"{row[0]}: INDEX row does not carry the file's source URL"
