"""The documents generated from the rule classes are up to date, and README keeps its promises."""

from __future__ import annotations

import re
from pathlib import Path

from gradlint.rules import catalog

ROOT = Path(__file__).resolve().parents[1]


def test_readme_rule_table_is_generated_from_the_rules():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert catalog.update_readme(text) == text, "run `python -m gradlint.rules.catalog --write`"


def test_rule_pages_are_up_to_date():
    for name, page in catalog.pages().items():
        path = ROOT / "docs" / "rules" / name
        assert path.is_file() and path.read_text(encoding="utf-8") == page, name


def test_ci_runs_exactly_the_readme_test_command():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```sh\n(.*?)\n```", readme, re.S)
    test_cmd = next(b for b in blocks if "pytest" in b).strip()
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert test_cmd in ci.splitlines()
