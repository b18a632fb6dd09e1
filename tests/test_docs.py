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


def test_commands_shown_use_the_console_script():
    """`python -m gradlint` in a repository or workspace imports modules from it (docs/security.md):
    no command the docs or the editor configurations show may start gradlint that way."""
    m_gradlint = re.compile(r"-m['\"]?[\s,]*['\"]?gradlint(_server)?\b(?!\.)")
    shown = []
    for md in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), *sorted((ROOT / "editors").glob("*/README.md"))]:
        for block in re.findall(r"```[a-z]*\n(.*?)```", md.read_text(encoding="utf-8"), re.S):
            shown += [f"{md.name}: {line}" for line in block.splitlines() if m_gradlint.search(line)]
    comment = {".lua": "--", ".toml": "#", ".el": ";"}
    for cfg in sorted((ROOT / "editors").glob("*/*")):
        if cfg.suffix in comment:
            lines = cfg.read_text(encoding="utf-8").splitlines()
            shown += [f"{cfg.name}: {line}" for line in lines if m_gradlint.search(line) and not line.lstrip().startswith(comment[cfg.suffix])]
    hooks = (ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8")
    shown += [line for line in hooks.splitlines() if line.strip().startswith("entry:") and not line.split("entry:")[1].strip().startswith("gradlint ")]
    assert shown == []
