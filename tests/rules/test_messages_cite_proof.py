"""The certain findings say what proves them (issue 13): GL201 names the operation whose graph
both backward passes walk, GL301 the in-place rewrite and its line, GL205 the backward that
makes the accumulated value a graph."""

from __future__ import annotations

import textwrap

from gradlint.engine import check_source


def _messages(code: str, rule: str) -> list[str]:
    src = textwrap.dedent(code)
    return [d.message for d in check_source(src, "proof.py", select=[rule]) if d.code == rule]


def test_gl201_names_the_shared_operation_and_the_earlier_backward():
    (msg,) = _messages(
        """
        import torch
        trunk, a, b = torch.nn.Linear(8, 8), torch.nn.Linear(8, 1), torch.nn.Linear(8, 1)
        feat = trunk(torch.randn(4, 8))
        a(feat).mean().backward()
        b(feat).mean().backward()
        """,
        "GL201",
    )
    assert "the backward pass on line 5 already freed" in msg
    assert "`trunk(torch.randn(4, 8))` on line 4" in msg


def test_gl201_in_a_loop_names_the_graph_built_before_it():
    (msg,) = _messages(
        """
        import torch
        x = torch.randn(5, requires_grad=True)
        loss = torch.sigmoid(x * 2).sum()
        for i in range(3):
            loss.backward()
        """,
        "GL201",
    )
    assert "built before the loop" in msg
    # both `x * 2` and the sigmoid keep buffers on line 4: the innermost is named, every time
    assert "`x * 2` on line 4" in msg


def test_gl201_on_a_carried_value_names_the_operation_of_the_earlier_iteration():
    (msg,) = _messages(
        """
        import torch
        model = torch.nn.Linear(10, 1)
        running = 0
        for step in range(10):
            running = running + model(torch.randn(4, 10)).mean()
            running.backward()
        """,
        "GL201",
    )
    assert "through `running` (fed in on line 6), carried over from the previous loop iteration" in msg
    assert "`model(torch.randn(4, 10))` on line 6" in msg
    assert "`running = running.detach()` before it is fed in" in msg


def test_gl301_names_the_in_place_rewrite_and_its_line():
    (msg,) = _messages(
        """
        import torch
        model = torch.nn.Linear(4, 1)
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        grads = []
        for step in range(3):
            opt.zero_grad(set_to_none=False)
            model(torch.randn(2, 4)).sum().backward()
            grads.append(model.weight.grad)
        """,
        "GL301",
    )
    assert "`opt.zero_grad(set_to_none=False)` on line 7" in msg


def test_gl205_names_what_proves_the_history():
    # built on the page: the history comes from the model
    (msg,) = _messages(
        """
        import torch
        model = torch.nn.Linear(4, 1)
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        total = 0
        for step in range(3):
            opt.zero_grad()
            loss = model(torch.randn(2, 4)).pow(2).mean()
            loss.backward()
            opt.step()
            total += loss
        """,
        "GL205",
    )
    assert "computed from `model`" in msg
    # received as parameters (open world): only its use proves it — the backward on line 6
    (msg,) = _messages(
        """
        def train(model, opt, batches, criterion):
            total = 0
            for x, y in batches:
                opt.zero_grad()
                loss = criterion(model(x), y)
                loss.backward()
                opt.step()
                total += loss
            return total
        """,
        "GL205",
    )
    assert "backpropagated on line 7" in msg, msg
