"""A fix marked safe is applied by `gradlint check --fix` and the server's fix-all without a
look: it must not change what a working program does. Each program under fix_programs/ runs
before and after `fix_source`; what it prints must be the same, except the autograd history
that a fix removes on purpose (`grad_fn=<...>` in a tensor's repr).

`# safe-fix: GLxxx` names the rule whose safe fix must apply (so the test cannot pass by
fixing nothing); `# safe-fix: none` a program where no safe fix may apply (each was broken by
one: the trust review's attack programs)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from gradlint.diagnostics import Applicability
from gradlint.engine import check_source, fix_source

pytest.importorskip("torch")

PROGRAMS = sorted((Path(__file__).parent / "fix_programs").glob("*.py"))


def _run(path: Path) -> str:
    r = subprocess.run([sys.executable, str(path)], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, f"{path.name} must be a working program:\n{r.stderr[-2000:]}"
    return re.sub(r", grad_fn=<\w+>|, requires_grad=True", "", r.stdout)


@pytest.mark.parametrize("path", PROGRAMS, ids=lambda p: p.stem)
def test_safe_fixes_keep_the_program_working(path: Path, tmp_path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    expected = re.search(r"^# safe-fix: (\S+)", text, re.M)
    assert expected, "each program says which safe fix applies (or none)"
    safe = {d.code for d in check_source(text, str(path)) if d.fix is not None and d.fix.applicability == Applicability.SAFE}
    assert safe == (set() if expected.group(1) == "none" else {expected.group(1)})
    fixed, n = fix_source(text, str(path))
    assert (n > 0) == bool(safe)
    after = tmp_path / path.name
    after.write_text(fixed, encoding="utf-8")
    assert _run(after) == _run(path)
