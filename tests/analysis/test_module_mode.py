"""A module's training mode is object state: a module is in training mode until `.eval()`, `.train(False)` / `.train()` change it (for the submodules it holds too),
and `self.training` in its forward decides the branch it takes."""

from __future__ import annotations

import textwrap

import libcst as cst

from gradlint.analysis import facts as F
from gradlint.analysis.events import UseEvent
from gradlint.analysis.interpreter import Interpreter
from gradlint.analysis.names import NOCONST

PROGRAM = """
import torch
import torch.nn as nn

class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(2, 2)

    def forward(self, x):
        if self.training:
            return self.fc(x)
        return x

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.block = Block()

    def forward(self, x):
        return self.block(x)

net = Net()
net(torch.randn(2))
net.eval()
net(torch.randn(2))
net.train()
net(torch.randn(2))
net.train(False)
net(torch.randn(2))
net.train(flag)
net(torch.randn(2))
"""


def _branches(program: str) -> list:
    """The value of each `if` test in an inlined forward, in execution order (NOCONST: unknown)."""
    seen: list = []

    def hook(ev):
        if isinstance(ev, UseEvent) and ev.name == "branch" and ev.ctx.fn is not None and ev.ctx.fn.inlined:
            seen.append(ev.value.get(F.CONST, NOCONST))

    Interpreter(cst.parse_module(textwrap.dedent(program)).body, hook).run()
    return seen


def test_training_mode_follows_train_and_eval_into_submodules():
    assert _branches(PROGRAM) == [True, False, True, False, NOCONST]


def test_a_forward_run_on_its_own_is_analysed_in_training_mode():
    # no instance is made: each forward runs once with a symbolic self, as the model a training
    # loop elsewhere trains (the mode the rules care about: what is differentiated)
    seen: list = []

    def hook(ev):
        if isinstance(ev, UseEvent) and ev.name == "branch":
            seen.append(ev.value.get(F.CONST, NOCONST))

    program = PROGRAM[: PROGRAM.index("net = Net()")]
    Interpreter(cst.parse_module(textwrap.dedent(program)).body, hook).run()
    assert seen == [True, True]
