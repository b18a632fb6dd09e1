"""A hostile workspace: every file Python could pick up from a folder it was started in writes a
marker when it is imported or run. Opening, linting or fixing such a folder must leave no marker.

Used by test_hostile_workspace.py (`gradlint lsp`, `gradlint check`) and test_precommit_hook.py;
editors/vscode/test/extension.test.ts builds the same folder for the VS Code launch.
"""

from __future__ import annotations

import os
from pathlib import Path

# Modules the server, the linter or Python's start-up import or look for; each shadow writes
# `<workspace>/_markers/<tag>-<pid>`. `torch/` stands for the frameworks the analysed code
# imports: linting must never import them.
SHADOWS = [
    "gradlint/__init__.py", "gradlint/__main__.py", "gradlint_server/__init__.py", "gradlint_server/__main__.py",
    "json.py", "dataclasses.py", "typing.py", "__future__.py", "sitecustomize.py", "usercustomize.py", "conftest.py",
    "lsprotocol/__init__.py", "pygls/__init__.py", "libcst/__init__.py", "torch/__init__.py",
]

# The user's code: linted (it has findings: GL205), never imported.
MODEL = '''\
import torch


def f(x):
    return x * 2


total = 0
for i in range(3):
    loss = f(torch.randn(3, requires_grad=True)).sum()
    loss.backward()
    total += loss
'''


def _payload(tag: str) -> str:
    # The marker goes next to the shadow's own folder, wherever the workspace was copied to.
    return (
        "import os as _os\n"
        "_d = _os.path.dirname(_os.path.abspath(__file__))\n"
        "while not _os.path.isdir(_os.path.join(_d, '_markers')) and _os.path.dirname(_d) != _d:\n"
        "    _d = _os.path.dirname(_d)\n"
        f"open(_os.path.join(_d, '_markers', {tag!r} + '-' + str(_os.getpid())), 'w').close()\n"
    )


def make(root: Path) -> Path:
    """Fills `root` (created if needed) and returns it; markers land in root/_markers."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "_markers").mkdir(exist_ok=True)
    for rel in SHADOWS:
        f = root / rel
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_text(_payload(rel.replace("/", "_")), encoding="utf-8")
    markers = str(root / "_markers")
    (root / "evil.pth").write_text(f"import os; open(os.path.join({markers!r}, 'pth-' + str(os.getpid())), 'w').close()\n")
    (root / "model.py").write_text(_payload("model") + MODEL, encoding="utf-8")
    # A "Python" in the workspace, for settings that name an interpreter.
    evil = root / "evil_python"
    evil.write_text(f"#!/bin/sh\ntouch {os.path.join(markers, 'evil_python')}\nexec python3 \"$@\"\n")
    evil.chmod(0o755)
    # Gradient-check inputs that run a command: only a check (never linting) may evaluate them.
    (root / "pyproject.toml").write_text(
        "[tool.gradlint]\nselect = ['GL']\n[tool.gradlint.gradcheck.inputs]\n"
        f"f = \"open({os.path.join(markers, 'pyproject_inputs')!r}, 'w').close() or torch.randn(3)\"\n"
    )
    return root


def markers(root: Path) -> list[str]:
    return sorted(os.listdir(root / "_markers"))


def model_line(tag_line: str = "def f(x):") -> int:
    """0-based line of `tag_line` in model.py as written by make()."""
    text = _payload("model") + MODEL
    return text.splitlines().index(tag_line)
