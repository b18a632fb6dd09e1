"""GL6xx: facts only a run of the program can establish, reported by `gradlint trace`
(docs/trace.md). These rules have pages, examples and a place in the catalogue like every
other rule, but no hooks: the static engine never reports them. Their examples are traced
scripts (tests/trace/test_runtime_rule_examples.py runs them through the trace); where the same fact
has a static rule (GL101, GL201, GL205, GL302, GL306, ...) the trace reports that rule's code.
"""

from __future__ import annotations

from typing import ClassVar

from ..diagnostics import Severity
from .base import Family, Invalid, Rule, Valid, dedent

FAMILY = Family("GL6", "observed at run time (`gradlint trace`)")

TRACE_DOCS = "https://github.com/gradlint-autograd/gradlint/blob/main/docs/trace.md"


class RuntimeRule(Rule):
    """A rule reported only by `gradlint trace` (never by the static engine): it overrides no
    hook, so the engine subscribes it to nothing."""

    runtime: ClassVar[bool] = True
    frameworks = ("torch",)

    @classmethod
    def page(cls) -> str:
        text = super().page()
        head, _, rest = text.partition("\n\n")
        note = ("*Reported by `gradlint trace` (and `pytest --gradlint-trace`): it needs a run of the program, "
                "so `gradlint check` reports it only from saved trace results (`--trace-results`).*")
        text = f"{head}\n\n{note}\n\n{rest}"
        return text.replace("## Example (flagged)", "## Example (flagged when traced)").replace(
            "## Correct", "## Correct (silent when traced)")


class ParameterWithoutGradient(RuntimeRule):
    code = "GL601"
    message = "parameters in an optimizer got no gradient in any traced step while the loss reached other parameters"
    severity = Severity.ERROR
    docs = TRACE_DOCS
    rationale = """
        The optimizer holds these parameters, and the loss of every traced step reached some of
        its parameters, but never these: they never train (an optimizer with weight decay still
        shrinks them). When the trace can see the operation that cut them from the loss
        (`.item()`, `.detach()`, a `no_grad` block, an operation without a derivative), it reports
        that operation under its own code (GL101, GL103, GL104, GL410) instead; GL601 is what
        remains: nothing the loss depends on used them — an unused layer, a branch that was not
        taken in the traced steps — reported where the layer was created.

        Instead: use the layer, or leave its parameters out of the optimizer (and freeze them) if
        it is not meant to train.
    """
    invalid = [
        Invalid(
            """
            import torch
            import torch.nn as nn

            class Net(nn.Module):
                def __init__(self):
                    super().__init__()
                    self.body = nn.Linear(8, 8)
                    self.extra = nn.Linear(8, 8)
                    self.head = nn.Linear(8, 1)

                def forward(self, x):
                    return self.head(torch.relu(self.body(x)))

            model = Net()
            opt = torch.optim.SGD(model.parameters(), lr=0.1)
            for step in range(10):
                opt.zero_grad()
                model(torch.randn(4, 8)).pow(2).mean().backward()
                opt.step()
            """,
            line=8,
        )
    ]
    valid = [
        Valid(
            """
            import torch
            import torch.nn as nn

            model = nn.Sequential(nn.Linear(8, 8), nn.ReLU(), nn.Linear(8, 1))
            opt = torch.optim.SGD(model.parameters(), lr=0.1)
            for step in range(10):
                opt.zero_grad()
                model(torch.randn(4, 8)).pow(2).mean().backward()
                opt.step()
            """
        )
    ]


class ParameterNotInOptimizer(RuntimeRule):
    code = "GL602"
    message = "trainable parameters that the loss reaches get gradients but no optimizer holds them: they never change"
    severity = Severity.ERROR
    docs = TRACE_DOCS
    rationale = """
        The loss reaches these parameters (`requires_grad=True`) and backward() computes their
        gradients in every traced step, but no optimizer holds them and nothing else changes
        them. The classic cause is layers kept in a plain Python list or dict inside a module:
        `.parameters()` does not see them, so `optimizer(model.parameters())` leaves them at
        their initial values while their gradients pile up. Another is a second model left out
        of the optimizer.

        Reported for modules in training mode and for modules called inside the forward of a
        module whose other parameters are optimized; a frozen feature extractor in `eval()` mode
        is left alone. Instead: `nn.ModuleList`/`nn.ModuleDict`, add the parameters to the
        optimizer, or freeze them with `requires_grad_(False)`.
    """
    invalid = [
        Invalid(
            """
            import torch
            import torch.nn as nn

            class Net(nn.Module):
                def __init__(self):
                    super().__init__()
                    self.blocks = [nn.Linear(8, 8) for _ in range(3)]
                    self.head = nn.Linear(8, 1)

                def forward(self, x):
                    for block in self.blocks:
                        x = torch.relu(block(x))
                    return self.head(x)

            model = Net()
            opt = torch.optim.SGD(model.parameters(), lr=0.1)
            for step in range(10):
                opt.zero_grad()
                model(torch.randn(4, 8)).pow(2).mean().backward()
                opt.step()
            """,
            line=7,
        )
    ]
    valid = [
        Valid(
            """
            import torch
            import torch.nn as nn

            class Net(nn.Module):
                def __init__(self):
                    super().__init__()
                    self.blocks = nn.ModuleList(nn.Linear(8, 8) for _ in range(3))
                    self.head = nn.Linear(8, 1)

                def forward(self, x):
                    for block in self.blocks:
                        x = torch.relu(block(x))
                    return self.head(x)

            model = Net()
            opt = torch.optim.SGD(model.parameters(), lr=0.1)
            for step in range(10):
                opt.zero_grad()
                model(torch.randn(4, 8)).pow(2).mean().backward()
                opt.step()
            """
        )
    ]


class NonfiniteGradient(RuntimeRule):
    code = "GL603"
    message = "an operation turned finite values or gradients into NaN/Inf: every gradient behind it is NaN"
    severity = Severity.ERROR
    docs = TRACE_DOCS
    rationale = """
        A backward pass produced NaN or Inf gradients. The trace names the forward operation
        whose derivative produced them from finite incoming gradients — `sqrt` or a norm at 0,
        `log` at 0, a division by 0, `acos` at ±1 — or, when the loss itself is already NaN/Inf,
        the forward operation that first produced a non-finite value. One such step is enough to
        turn every parameter into NaN. `torch.autograd.detect_anomaly()` finds the same only
        after the fact, at a large cost, and as a stack trace.

        Instead: keep the input away from the singular point (`sqrt(x + eps)`, `clamp(min=eps)`,
        `torch.linalg.vector_norm` with a safe gradient), or compute the quantity stably
        (`log_softmax` instead of `log(softmax)`).
    """
    invalid = [
        Invalid(
            """
            import torch

            w = torch.nn.Parameter(torch.randn(4, 4))
            opt = torch.optim.SGD([w], lr=0.1)
            for step in range(10):
                x = torch.randn(8, 4)
                x[0] = 0.0
                opt.zero_grad()
                norm = torch.sqrt(((x @ w) ** 2).sum(1))
                norm.mean().backward()
                opt.step()
            """,
            line=9,
        )
    ]
    valid = [
        Valid(
            """
            import torch

            w = torch.nn.Parameter(torch.randn(4, 4))
            opt = torch.optim.SGD([w], lr=0.1)
            for step in range(10):
                x = torch.randn(8, 4)
                x[0] = 0.0
                opt.zero_grad()
                norm = torch.sqrt(((x @ w) ** 2).sum(1) + 1e-12)
                norm.mean().backward()
                opt.step()
            """
        )
    ]


class Float16Overflow(RuntimeRule):
    code = "GL604"
    message = "an operation overflows float16: its result has inf although its inputs are finite"
    severity = Severity.ERROR
    docs = TRACE_DOCS
    rationale = """
        float16's largest value is 65504. An operation in float16 (a `.half()` model, or
        `torch.autocast(dtype=torch.float16)`) whose result exceeds it returns inf, and the loss
        and every gradient after it become inf or NaN. A GradScaler does not help: it protects
        gradients, not forward values.

        Instead: compute that operation in float32 (autocast keeps reductions and softmax in
        float32; do the same for custom code), rescale its inputs, or use bfloat16.
    """
    invalid = [
        Invalid(
            """
            import torch

            lin = torch.nn.Linear(8, 8).half()
            opt = torch.optim.SGD(lin.parameters(), lr=0.1)
            for step in range(10):
                opt.zero_grad()
                energy = torch.exp(lin(torch.randn(4, 8).half()) * 20)
                energy.float().mean().backward()
                opt.step()
            """,
            line=7,
        )
    ]
    valid = [
        Valid(
            """
            import torch

            lin = torch.nn.Linear(8, 8)
            opt = torch.optim.SGD(lin.parameters(), lr=0.1)
            for step in range(10):
                opt.zero_grad()
                with torch.autocast("cpu", dtype=torch.bfloat16):
                    h = lin(torch.randn(4, 8))
                energy = torch.logsumexp(h.float() * 20, dim=1)
                energy.mean().backward()
                opt.step()
            """
        )
    ]


class TapeGradientNone(RuntimeRule):
    code = "GL605"
    message = "GradientTape.gradient returned None for a variable the target depends on"
    severity = Severity.ERROR
    docs = TRACE_DOCS
    frameworks = ("tensorflow",)
    rationale = """
        `tape.gradient(target, sources)` returned None for some sources: the tape recorded no
        differentiable path from them to the target, and `optimizer.apply_gradients` then skips
        them (with only a warning). The trace reports the cut under its static code when it
        sees it (GL111 `.numpy()` inside the tape, GL113 an unwatched constant); GL605 is the
        observed None itself, at the `tape.gradient` call.

        Instead: keep the computation inside the tape and in TensorFlow operations, and make the
        sources `tf.Variable`s (or `tape.watch` them).
    """
    invalid = [
        Invalid(
            """
            import tensorflow as tf

            w = tf.Variable([[1.0], [2.0]])
            b = tf.Variable([0.5])
            opt = tf.keras.optimizers.SGD(0.1)
            for step in range(10):
                with tf.GradientTape() as tape:
                    loss = tf.reduce_mean(tf.matmul(tf.ones((4, 2)), w) ** 2)
                grads = tape.gradient(loss, [w, b])
                opt.apply_gradients(zip(grads, [w, b]))
            """,
            line=9,
        )
    ]
    valid = [
        Valid(
            """
            import tensorflow as tf

            w = tf.Variable([[1.0], [2.0]])
            b = tf.Variable([0.5])
            opt = tf.keras.optimizers.SGD(0.1)
            for step in range(10):
                with tf.GradientTape() as tape:
                    loss = tf.reduce_mean((tf.matmul(tf.ones((4, 2)), w) + b) ** 2)
                grads = tape.gradient(loss, [w, b])
                opt.apply_gradients(zip(grads, [w, b]))
            """
        )
    ]


def runtime_rules() -> list[type[Rule]]:
    from .base import all_rules

    return [r for r in all_rules() if r.runtime]


__all__ = ["RuntimeRule", "runtime_rules", "dedent"]
