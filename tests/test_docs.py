"""The documents generated from the rule classes are up to date, and README keeps its promises."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

import pytest

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


def _load_catalogue_script():
    spec = importlib.util.spec_from_file_location("catalogue_script", ROOT / "benchmarks" / "catalogue.py")
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def real_world():
    """benchmarks/catalogue.py and its catalogue, built once (it runs the engine on every
    development positive of tests/realworld/), recording every file it reads as text."""
    script = _load_catalogue_script()
    read: list[Path] = []
    original = Path.read_text

    def recording(self, *args, **kwargs):
        read.append(self.resolve())
        return original(self, *args, **kwargs)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(Path, "read_text", recording)
        cat = script.build()
    return script, cat, read


def test_catalogue_page_is_generated_from_the_corpus(real_world):
    script, cat, _ = real_world
    fix = "run `python benchmarks/catalogue.py --write`"
    assert (ROOT / "docs" / "catalogue.md").read_text(encoding="utf-8") == script.render_page(cat), fix
    # the rule pages' "Seen in the real world" sections come from this module
    assert (ROOT / "gradlint" / "rules" / "_real_world.py").read_text(encoding="utf-8") == script.render_sightings(cat), fix


def test_every_kind_seen_twice_has_a_rule_or_a_reason(real_world):
    script, cat, _ = real_world
    assert script.unexplained(cat) == []
    kinds = {k.name for k in cat.kinds}
    assert set(script.REASONS) <= kinds, f"reasons for kinds the corpus does not have: {sorted(set(script.REASONS) - kinds)}"


def test_catalogue_never_reads_held_out_code(real_world):
    _, _, read = real_world
    heldout = (ROOT / "tests" / "realworld" / "heldout").resolve()
    assert read, "the recording saw no file: the check below would pass vacuously"
    assert [p for p in read if p.is_relative_to(heldout)] == []


def test_rule_pages_cite_real_threads():
    from gradlint.rules import _real_world

    for code, seen in _real_world.SEEN.items():
        assert 1 <= len(seen) <= 5 and len({url for url, _ in seen}) == len(seen), code
        assert all(url.startswith("https://") for url, _ in seen), code
        assert "## Seen in the real world" in catalog.pages()[f"{code}.md"], code
