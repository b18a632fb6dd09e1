"""Behaviour that changed in torch 2.0 follows the project's pin: `zero_grad()` sets `.grad` to
None since 2.0 and zeroes it in place before, so a kept `p.grad` view is rewritten (GL301) only
in a project that pins torch < 2."""

from __future__ import annotations

from pathlib import Path

import pytest

from gradlint.analysis.frameworks import torch as torch_overlay
from gradlint.engine import check_source

PROGRAM = """\
import torch
model = torch.nn.Linear(5, 3)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
loss = model(torch.randn(4, 5)).pow(2).sum(dim=1)
per_sample = []
for i in range(4):
    opt.zero_grad()
    loss[i].backward(retain_graph=True)
    per_sample.append(model.weight.grad.view(-1, 1))
"""


@pytest.mark.parametrize("pin_file, text, fires", [
    ("requirements.txt", "numpy\ntorch==1.13.1\n", True),
    ("requirements.txt", "torch>=1.8,<2.0\n", True),
    ("setup.py", 'setup(install_requires=["torch<2"])\n', True),
    ("pyproject.toml", '[project]\ndependencies = ["torch>=2.1"]\n', False),
    ("requirements.txt", "# torch==1.13\ntorch\n", False),
    (None, "", False),
])
def test_zero_grad_semantics_follow_the_pinned_torch(tmp_path: Path, pin_file, text, fires) -> None:
    torch_overlay._pin_cache.clear()
    (tmp_path / ".git").mkdir()  # the project root: the search stops here
    if pin_file:
        (tmp_path / pin_file).write_text(text)
    src = tmp_path / "pkg" / "train.py"
    src.parent.mkdir()
    src.write_text(PROGRAM)
    codes = [d.code for d in check_source(PROGRAM, str(src))]
    assert ("GL301" in codes) == fires
