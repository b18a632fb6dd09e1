"""GL5xx other autograd API misuse: shapes, inference tensors, checkpointing, JAX transforms, custom
autograd Functions, requires_grad timing.

Why this module is long: it is a catalogue of 15 rules, one class each, and a rule class is
its own specification (rationale, flagged and correct examples, fix); the logic of a rule is a
few dozen lines. Adding a rule adds a class here (see docs/architecture.md).
"""

from __future__ import annotations

import re

import libcst as cst

from ..analysis import facts as F
from ..analysis import kinds as K
from ..analysis.events import AssignEvent, AttrSetEvent, BinOpEvent, CallEvent, DiffEvent, FunctionEvent, StoreEvent, TransformedCallEvent
from ..analysis.frameworks.jax import AT_UPDATES, INDEX_UPDATES, JAX_GRAD, holds_tracer
from ..analysis.frameworks.torch import OUT_OF_PLACE_METHODS, TORCH_RNN_CLASSES, function_saves
from ..analysis.names import dotted_name, in_place_name
from ..analysis.walk import callee_last, walk, walk_own_body
from ..analysis.values import Note
from ..diagnostics import Applicability, Severity
from ._flow import TORCH_DIFF, backward_seed_given, free_names, imported_modules, returns_mention
from .base import Family, Invalid, NodeEdit, Rule, RuleFix

FAMILY = Family("GL5", "other autograd API misuse")


class BackwardOnNonScalar(Rule):
    code = "GL501"
    message = "backward() on a tensor that is not a scalar, without a gradient argument: RuntimeError"
    severity = Severity.ERROR
    docs = "https://pytorch.org/docs/stable/generated/torch.Tensor.backward.html"
    triggers = ("backward",)
    fix_applicability = Applicability.UNSAFE
    rationale = """
        `loss.backward()` without arguments needs a one-element tensor: with a per-sample loss
        (`reduction="none"`) or any vector it raises "grad can be implicitly created only for
        scalar outputs". `torch.autograd.grad(out, x)` and `torch.autograd.backward(out)` without
        `grad_outputs`/`grad_tensors` raise the same error. gradlint reports it when the shape is
        known to be non-scalar (a loss with `reduction="none"` or the deprecated `reduce=False`,
        a layer's output on a batch, a tensor of known size).

        Instead: reduce first (`loss.mean().backward()` or `.sum()`), or pass the vector
        explicitly: `loss.backward(gradient=weights)`, `autograd.grad(out, x, grad_outputs=...)`.
    """
    invalid = [
        Invalid(
            """
            import torch
            import torch.nn as nn
            model = nn.Linear(6, 3)
            criterion = nn.CrossEntropyLoss(reduction="none")
            per_sample = criterion(model(torch.randn(4, 6)), torch.tensor([0, 2, 1, 0]))
            per_sample.backward()
            """,
            line=6,
            fixed="""
            import torch
            import torch.nn as nn
            model = nn.Linear(6, 3)
            criterion = nn.CrossEntropyLoss(reduction="none")
            per_sample = criterion(model(torch.randn(4, 6)), torch.tensor([0, 2, 1, 0]))
            per_sample.mean().backward()
            """,
        )
    ]
    valid = [
        """
        import torch
        import torch.nn as nn
        model = nn.Linear(6, 3)
        per_sample = nn.CrossEntropyLoss(reduction="none")(model(torch.randn(4, 6)), torch.tensor([0, 2, 1, 0]))
        per_sample.mean().backward()
        out = model(torch.randn(4, 6))
        out.backward(torch.ones_like(out))
        """
    ]

    call_names = frozenset({"backward"})

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        self._autograd_backward: set[int] = set()  # `torch.autograd.backward(...)` calls, however imported
        self._pending: list = []  # seedless backward(...) calls of non-scalars, not known to be torch's yet

    def on_call(self, ev: CallEvent) -> None:
        if ev.qual == "torch.autograd.backward":
            self._autograd_backward.add(id(ev.node))

    def on_diff(self, ev: DiffEvent) -> None:
        node = ev.node
        if ev.kind not in ("backward", "autograd_grad") or not isinstance(node, cst.Call):
            return
        t = ev.target
        if t.get(F.SCALAR) is not False or not t.live:
            return
        # `t.backward(...)` (the target is the receiver), not `torch.autograd.backward(t)` nor a
        # helper's `accelerator.backward(t)`
        func = node.func
        if isinstance(func, cst.Attribute) and func.attr.value == "backward" and func.value is ev.target_node:
            # `t.backward(gradient, ...)`: the first positional argument is the gradient
            if backward_seed_given(node):
                return
            fix = RuleFix("Reduce with .mean() before backward()", (NodeEdit(func.value, ".mean()", how="after"),), Applicability.UNSAFE)
            self.report(
                node,
                "backward() without a gradient argument on a tensor that is not a scalar (e.g. a per-sample loss with "
                "reduction=\"none\"): RuntimeError \"grad can be implicitly created only for scalar outputs\"; reduce it first "
                "(`.mean()`/`.sum()`) or pass `gradient=`",
                fix=fix,
            )
            return
        # `torch.autograd.backward(tensors, grad_tensors)`, `torch.autograd.grad(outputs, inputs, grad_outputs)`:
        # the seed gradient is the second / third positional argument or a keyword; `is_grads_batched`
        # and a `**kwargs` spread could supply it too, so they count as given
        seed_at, seed_kw = (1, "grad_tensors") if ev.kind == "backward" else (2, "grad_outputs")
        positional = [a for a in node.args if a.keyword is None and not a.star]
        if len(positional) > seed_at or any(a.star == "**" for a in node.args):
            return
        if any(a.keyword is not None and a.keyword.value in (seed_kw, "is_grads_batched") for a in node.args):
            return
        if ev.kind == "backward":
            # only torch's own backward(tensors, grad_tensors); a helper's backward(loss) has
            # another signature. Its CallEvent comes after the DiffEvent: decide in finish()
            self._pending.append(node)
            return
        self._report_seedless(node, "torch.autograd.grad()", seed_kw)

    def finish(self) -> None:
        for node in self._pending:
            if id(node) in self._autograd_backward:
                self._report_seedless(node, "torch.autograd.backward()", "grad_tensors")

    def _report_seedless(self, node, what: str, seed_kw: str) -> None:
        self.report(
            node,
            f"{what} without `{seed_kw}` on an output that is not a scalar: RuntimeError \"grad can be implicitly "
            f"created only for scalar outputs\"; reduce the output first (`.sum()`), or pass `{seed_kw}=torch.ones_like(...)` "
            f"(a vector-Jacobian product)",
        )


class InferenceTensorInAutograd(Rule):
    code = "GL502"
    message = "a tensor created under torch.inference_mode() is used in a computation that is differentiated"
    severity = Severity.ERROR
    docs = "https://pytorch.org/docs/stable/generated/torch.autograd.grad_mode.inference_mode.html"
    triggers = ("inference_mode",)
    rationale = """
        Tensors created inside `torch.inference_mode()` are "inference tensors": autograd cannot
        save them, so using one in an operation whose result is differentiated raises
        "Inference tensors cannot be saved for backward" (or "Inference tensors do not track
        version counter"). This bites when preprocessing, a cache, or a target computed for
        speed under `inference_mode` is reused in a training step.

        Instead: compute such tensors under `torch.no_grad()` (normal tensors, no graph), or
        `.clone()` them outside inference mode before training with them.
    """
    invalid = [
        Invalid(
            """
            import torch
            encoder, head = torch.nn.Linear(8, 8), torch.nn.Linear(8, 1)
            with torch.inference_mode():
                feats = encoder(torch.randn(4, 8))
            loss = head(feats).pow(2).mean()
            loss.backward()
            """,
            line=3,
        )
    ]
    valid = [
        """
        import torch
        encoder, head = torch.nn.Linear(8, 8), torch.nn.Linear(8, 1)
        with torch.no_grad():
            feats = encoder(torch.randn(4, 8))
        loss = head(feats).pow(2).mean()
        loss.backward()
        with torch.inference_mode():
            preds = head(encoder(torch.randn(2, 8))).tolist()
        """
    ]

    def _check(self, ev, vals, result) -> None:
        if ev.ctx.grad != "on" or not result.live:
            return
        for v in vals:
            region = v.get(F.INFERENCE) if v is not None else None
            if region is not None:
                ev.add_note(Note("inference_use", ev.node, data=region))
                return

    def on_call(self, ev: CallEvent) -> None:
        if ev.ctx.grad != "on" or not ev.result.live:
            return
        vals = list(ev.args) + list(ev.kwargs.values()) + ([ev.recv] if ev.recv is not None else [])
        self._check(ev, vals, ev.result)

    def on_binop(self, ev: BinOpEvent) -> None:
        self._check(ev, [ev.left, ev.right], ev.result)

    def on_diff(self, ev: DiffEvent) -> None:
        if ev.kind not in TORCH_DIFF:
            return
        for n in ev.target.sorted_notes("inference_use"):
            # reported where the inference tensors are made: that is what to change
            self.report(
                n.data,
                lambda line, use=n.node: (
                    f"tensors created under torch.inference_mode() here are used on line {line(use)} in a computation that "
                    f"is differentiated: RuntimeError \"Inference tensors cannot be saved for backward\"; use "
                    f"torch.no_grad() instead, or `.clone()` them outside inference mode"
                ),
            )


class ReentrantCheckpointWithoutGradInput(Rule):
    code = "GL503"
    message = "reentrant activation checkpointing where no input requires grad: the checkpointed block gets no gradients"
    severity = Severity.ERROR
    docs = "https://pytorch.org/docs/stable/checkpoint.html"
    triggers = ("checkpoint",)
    fix_applicability = Applicability.UNSAFE
    rationale = """
        The reentrant implementation of `torch.utils.checkpoint.checkpoint` (`use_reentrant=True`,
        the default when the argument is omitted in PyTorch 2.x) only records a graph when at
        least one *tensor input* requires grad. Checkpointing the first block of a network,
        whose input is the raw batch, yields an output with no graph: the block's parameters
        silently get no gradient (PyTorch warns "None of the inputs have requires_grad=True").

        Instead: `checkpoint(block, x, use_reentrant=False)` — the non-reentrant variant tracks
        the block's parameters too.
    """
    invalid = [
        Invalid(
            """
            import torch
            from torch.utils.checkpoint import checkpoint
            stem = torch.nn.Sequential(torch.nn.Linear(128, 256), torch.nn.ReLU())
            h = checkpoint(stem, torch.randn(16, 128), use_reentrant=True)
            h.mean().backward()
            """,
            line=4,
            fixed="""
            import torch
            from torch.utils.checkpoint import checkpoint
            stem = torch.nn.Sequential(torch.nn.Linear(128, 256), torch.nn.ReLU())
            h = checkpoint(stem, torch.randn(16, 128), use_reentrant=False)
            h.mean().backward()
            """,
        )
    ]
    valid = [
        """
        import torch
        from torch.utils.checkpoint import checkpoint
        stem = torch.nn.Sequential(torch.nn.Linear(128, 256), torch.nn.ReLU())
        block = torch.nn.Linear(256, 256)
        h = checkpoint(stem, torch.randn(16, 128), use_reentrant=False)
        h = checkpoint(block, h, use_reentrant=True)
        h.mean().backward()
        """
    ]

    call_names = frozenset({"checkpoint"})

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        self._module_names: set[str] = set()  # names bound to a trainable module (for a lambda/def block)

    def on_assign(self, ev) -> None:
        if ev.value.kind == "module" and any(o.certain and not o.frozen for o in ev.value.live):
            self._module_names.add(ev.name)

    def on_store(self, ev) -> None:
        if ev.kind == "attr" and ev.root == "self" and ev.value.kind == "module" and any(
                o.certain and not o.frozen for o in ev.value.live):
            self._module_names.add(f"self.{ev.attr}")

    def on_call(self, ev: CallEvent) -> None:
        if ev.qual != "torch.utils.checkpoint.checkpoint" or len(ev.args) < 2 or ev.ctx.grad != "on":
            return
        reentrant = ev.kwargs.get("use_reentrant")
        if reentrant is not None and reentrant.get(F.CONST) is not True:
            return
        if any(a.star for a in ev.node.args):
            return
        # None / numbers / flags passed through (`checkpoint(block, x, None, mask)`) are not
        # inputs autograd looks at; every tensor must be one the program made without grad
        inputs = [v for v in ev.args[1:] if v.kind not in ("none", "number", "bool", "str") and v.get(F.CONST) is None]
        if not inputs or not all(v.kind == "tensor" and not v.live and not v.cuts and v.get(F.FW) == "torch"
                                 and v.get(F.SYM) is None for v in inputs):
            return
        if not self._has_parameters(ev.args[0]):
            return
        fix = None
        node = ev.kw_nodes.get("use_reentrant")
        if node is not None:
            fix = RuleFix("Use the non-reentrant checkpoint", (NodeEdit(node, "False"),), Applicability.UNSAFE)
        self.report(
            ev.node,
            "reentrant checkpoint (use_reentrant=True, also the default when omitted) of a block whose tensor inputs do not "
            "require grad: the output has no graph and the block's parameters get no gradient; pass `use_reentrant=False`",
            fix=fix,
        )


    def _has_parameters(self, fn) -> bool:
        """The checkpointed block certainly holds parameters: a trainable module, or a
        lambda/function of the file that calls one by name (`lambda t: m(t)`)."""
        if fn.kind == "module":
            return any(o.certain for o in fn.live)
        node = getattr(fn.get(F.FN), "node", None)
        if node is None:
            return False
        code = self.ctx.code(node)
        return any(re.search(r"(?<![\w.])" + re.escape(n) + r"\s*\(", code) for n in self._module_names)


class JaxGradHasAuxMismatch(Rule):
    code = "GL504"
    message = "jax.grad/value_and_grad of a function returning (loss, aux) without has_aux=True (or the reverse)"
    severity = Severity.ERROR
    frameworks = ("jax",)
    docs = "https://jax.readthedocs.io/en/latest/_autosummary/jax.grad.html"
    triggers = ("grad",)
    fix_applicability = Applicability.SAFE
    rationale = """
        `jax.grad(f)` and `jax.value_and_grad(f)` require `f` to return a scalar. A loss
        function that also returns metrics, `return loss, {"acc": acc}`, raises "Gradient only
        defined for scalar-output functions" unless the transformation is told with
        `has_aux=True` (then it returns `(loss, aux), grads`). Conversely `has_aux=True` on a
        function returning a bare scalar fails to unpack.

        Instead: `jax.value_and_grad(loss_fn, has_aux=True)`. The fix adds the argument.
    """
    invalid = [
        Invalid(
            """
            import jax
            import jax.numpy as jnp

            def loss_fn(params, x, y):
                err = x @ params["w"] - y
                return jnp.mean(err ** 2), {"mae": jnp.mean(jnp.abs(err))}

            params = {"w": jnp.ones((3, 1))}
            (loss, metrics), grads = jax.value_and_grad(loss_fn)(params, jnp.ones((4, 3)), jnp.zeros((4, 1)))
            """,
            line=9,
            fixed="""
            import jax
            import jax.numpy as jnp

            def loss_fn(params, x, y):
                err = x @ params["w"] - y
                return jnp.mean(err ** 2), {"mae": jnp.mean(jnp.abs(err))}

            params = {"w": jnp.ones((3, 1))}
            (loss, metrics), grads = jax.value_and_grad(loss_fn, has_aux=True)(params, jnp.ones((4, 3)), jnp.zeros((4, 1)))
            """,
        )
    ]
    valid = [
        """
        import jax
        import jax.numpy as jnp
        def loss_fn(params, x):
            out = x @ params["w"]
            return jnp.mean(out ** 2), {"max": jnp.max(out)}
        (loss, aux), grads = jax.value_and_grad(loss_fn, has_aux=True)({"w": jnp.ones((3, 1))}, jnp.ones((4, 3)))
        """
    ]

    def on_diff(self, ev: DiffEvent) -> None:
        if ev.kind != "jax":
            return
        info = ev.transform
        if info is None or info.qual not in JAX_GRAD:
            return
        returns = ev.returns
        if returns is None:
            return
        items = returns.get(F.ITEMS)
        is_tuple = returns.kind == "tuple" and items is not None and len(items) >= 2
        node = info.node
        if is_tuple and not info.has_aux:
            fix = None
            if isinstance(node, cst.Call) and node.args and not any(a.keyword and a.keyword.value == "has_aux" for a in node.args):
                fix = RuleFix("Pass has_aux=True", (NodeEdit(node.args[-1], ", has_aux=True", how="after"),), Applicability.SAFE)
            self.report(
                node,
                f"the function given to {info.qual} returns a tuple (loss, aux), but has_aux is not set: JAX requires a "
                f"scalar output (\"Gradient only defined for scalar-output functions\"); pass `has_aux=True`",
                fix=fix,
            )
        elif info.has_aux is True and returns.kind == "tuple" and items is not None and len(items) != 2:
            self.report(
                node,
                f"has_aux=True, but the function returns a tuple of {len(items)} values: JAX requires exactly a pair "
                f"(output, aux) (\"has_aux=True requires fun to return a pair\"); return `(loss, (a, b))`, packing the "
                f"auxiliary values into one tuple or dict",
            )
        elif info.has_aux is True and returns.kind == "tensor" and returns.get(F.SCALAR) is True:
            self.report(
                node,
                "has_aux=True, but the function returns a single value: JAX expects a pair (output, aux) and fails to "
                "unpack it; drop has_aux or return `(loss, aux)`",
            )


class JaxGradIntegerInput(Rule):
    code = "GL505"
    message = "jax.grad is evaluated at an integer input: gradients need float inputs (TypeError)"
    severity = Severity.ERROR
    frameworks = ("jax",)
    docs = "https://jax.readthedocs.io/en/latest/_autosummary/jax.grad.html"
    triggers = ("grad",)
    rationale = """
        `jax.grad(f)(3)` or `jax.grad(f)(jnp.arange(5))` differentiate with respect to an
        integer: JAX raises "grad requires real- or complex-valued inputs (input dtype that is a
        sub-dtype of np.inexact), but got int32".

        Instead: pass floats, `jax.grad(f)(3.0)` or `jnp.arange(5.0)`; mark integer arguments as
        non-differentiated with `argnums`.
    """
    invalid = [
        Invalid(
            """
            import jax
            def f(x):
                return x ** 3
            print(jax.grad(f)(3))
            """,
            line=4,
        )
    ]
    valid = [
        """
        import jax
        def f(x, n):
            return x ** n
        print(jax.grad(f)(3.0, 2))
        """
    ]

    def on_transformed_call(self, ev: TransformedCallEvent) -> None:
        info = ev.transform
        if info.kind != "grad":
            info = info.inner  # jax.vmap(jax.grad(f)) / jax.jit(jax.grad(f))
            if info is None or info.kind != "grad":
                return
        for idx in info.argnums or (0,):
            if idx >= len(ev.args):
                continue
            v = ev.args[idx]
            c = v.get(F.CONST)
            is_int = (isinstance(c, int) and not isinstance(c, bool) and v.kind == "number") or v.get(F.DTYPE) == "int"
            if is_int:
                self.report(
                    ev.arg_nodes[idx] if idx < len(ev.arg_nodes) else ev.node,
                    "jax.grad differentiates with respect to this argument, but it is an integer: JAX raises \"grad requires "
                    "real- or complex-valued inputs\"; pass a float (`3.0`, `jnp.arange(5.0)`) or exclude it with `argnums`",
                )


class JaxArrayItemAssignment(Rule):
    code = "GL506"
    message = "item assignment on a JAX array: JAX arrays are immutable (TypeError); use x.at[i].set(v)"
    severity = Severity.ERROR
    frameworks = ("jax",)
    docs = "https://jax.readthedocs.io/en/latest/_autosummary/jax.numpy.ndarray.at.html"
    triggers = ("jax",)
    fix_applicability = Applicability.UNSAFE
    rationale = """
        JAX arrays are immutable: `x[i] = v` (and `x[i] += v`) raises "JAX arrays are
        immutable and do not support in-place item assignment" — in eager code and inside
        `jax.grad`/`jit` alike. Code ported from NumPy or PyTorch hits it first in loss
        functions and update steps.

        Instead: `x = x.at[i].set(v)` (`.add`, `.multiply`, `.min`, `.max` for the augmented
        forms); inside `jit` XLA performs it in place when it can.
    """
    invalid = [
        Invalid(
            """
            import jax
            import jax.numpy as jnp
            def loss(w):
                w2 = w * 2
                w2[0] = 0.0
                return jnp.sum(w2 ** 2)
            print(jax.grad(loss)(jnp.ones(3)))
            """,
            line=5,
            fixed="""
            import jax
            import jax.numpy as jnp
            def loss(w):
                w2 = w * 2
                w2 = w2.at[0].set(0.0)
                return jnp.sum(w2 ** 2)
            print(jax.grad(loss)(jnp.ones(3)))
            """,
        )
    ]
    valid = [
        """
        import jax
        import jax.numpy as jnp
        import numpy as np
        def loss(w):
            w2 = (w * 2).at[0].set(0.0)
            return jnp.sum(w2 ** 2)
        buf = np.zeros(3)
        buf[0] = 1.0
        print(jax.grad(loss)(jnp.ones(3)))
        """
    ]

    def on_store(self, ev: StoreEvent) -> None:
        if ev.kind != "item":
            return
        c = ev.container
        if c.get(F.FW) != "jax" or c.kind != "tensor" or not c.get(F.JAX_ARRAY):
            return
        node = ev.node
        self.report(node, self.message_for(), fix=self._fix(node))

    def message_for(self) -> str:
        return (
            "item assignment on a JAX array: JAX arrays are immutable and this raises TypeError (also inside jax.grad/jit); "
            "write `x = x.at[i].set(v)` (or `.add(v)` for `+=`)"
        )

    def _fix(self, node) -> RuleFix | None:
        if isinstance(node, cst.Assign) and len(node.targets) == 1 and isinstance(node.targets[0].target, cst.Subscript):
            target = node.targets[0].target
            op, value = "set", node.value
        elif isinstance(node, cst.AugAssign) and isinstance(node.target, cst.Subscript):
            target = node.target
            ops = {cst.AddAssign: "add", cst.MultiplyAssign: "multiply", cst.SubtractAssign: None}
            op = ops.get(type(node.operator))
            if op is None:
                return None
            value = node.value
        else:
            return None
        if not isinstance(target.value, cst.Name):
            return None
        name = target.value.value
        index = ", ".join(self.ctx.code(e.slice.value) if isinstance(e.slice, cst.Index) else self.ctx.code(e.slice) for e in target.slice)
        text = f"{name} = {name}.at[{index}].{op}({self.ctx.code(value)})"
        return RuleFix(f"Use {name}.at[...].{op}(...)", (NodeEdit(node, text),), Applicability.UNSAFE)


_RG_SET = re.compile(r"\b(\w+)\.requires_grad(?:_\(\s*(?:True)?\s*\)|\s*=\s*True)")


class RequiresGradSetAfterUse(Rule):
    code = "GL507"
    message = "requires_grad is switched on after the tensor was already used in the forward pass (or any computation): its .grad stays None"
    severity = Severity.ERROR
    docs = "https://pytorch.org/tutorials/beginner/fgsm_tutorial.html"
    triggers = ("requires_grad",)
    rationale = """
        Autograd records operations as they run. Setting `x.requires_grad = True` (or
        `x.requires_grad_()`) *after* `logits = model(x)` (or `y = (x ** 2).sum()`) changes
        nothing for what was already computed: the loss has no path to `x`, and `x.grad` stays
        None (an adversarial-example step then crashes on `x.grad.sign()`); when nothing else
        in it requires grad, `backward()` raises "element 0 of tensors does not require grad",
        and `torch.autograd.grad(y, x)` raises "appears to not have been used in the graph".

        Instead: enable it before the forward pass:
        `x.requires_grad_(True)`, then `logits = model(x)`.
    """
    invalid = [
        Invalid(
            """
            import torch
            model = torch.nn.Sequential(torch.nn.Flatten(), torch.nn.Linear(784, 10))
            x = torch.rand(1, 1, 28, 28)
            logits = model(x)
            x.requires_grad = True
            loss = torch.nn.functional.cross_entropy(logits, torch.tensor([3]))
            loss.backward()
            """,
            line=5,
        )
    ]
    valid = [
        """
        import torch
        model = torch.nn.Sequential(torch.nn.Flatten(), torch.nn.Linear(784, 10))
        x = torch.rand(1, 1, 28, 28)
        x.requires_grad = True
        loss = torch.nn.functional.cross_entropy(model(x), torch.tensor([3]))
        loss.backward()
        """
    ]

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        # names that get requires_grad switched on somewhere: only their uses are followed
        self._names = set(_RG_SET.findall(ctx.code_text)) if "requires_grad" in ctx.source.text else set()
        self._enabled = bool(self._names)
        self._sets: dict[str, list] = {}

    def on_call(self, ev: CallEvent) -> None:
        if not self._enabled:
            return
        if ev.method == "requires_grad_" and isinstance(ev.node.func, cst.Attribute) and isinstance(ev.node.func.value, cst.Name):
            flag = ev.arg(0, "requires_grad")
            if flag is None or flag.get(F.CONST) is True:
                self._sets.setdefault(ev.node.func.value.value, []).append(ev)
            return
        operands = list(zip(ev.arg_nodes, ev.args))
        if ev.method is not None and ev.recv is not None and isinstance(ev.node.func, cst.Attribute):
            operands.append((ev.node.func.value, ev.recv))  # `x.pow(2)`, `x.sum()`
        self._mark_use(ev, operands)

    def on_binop(self, ev) -> None:
        if self._enabled:
            self._mark_use(ev, [(ev.node.left, ev.left), (ev.node.right, ev.right)])  # `(x ** 2).sum()`, `a * b`

    def _mark_use(self, ev, operands) -> None:
        """A use of a tensor that gets requires_grad switched on somewhere, before it has it: the
        result (and what is computed from it) has no path to the tensor."""
        names = self._names
        for an, av in operands:
            if isinstance(an, cst.Name) and an.value in names and av.kind == "tensor" and not av.live and av.get(F.FW) == "torch":
                ev.add_note(Note("pre_rg_use", ev.node, data=(an.value, ev.seq, ev.ctx.run)))

    def on_attrset(self, ev: AttrSetEvent) -> None:
        if not self._enabled or ev.attr != "requires_grad" or ev.target_name is None:
            return
        if ev.value.get(F.CONST) is True:
            self._sets.setdefault(ev.target_name, []).append(ev)

    def on_diff(self, ev: DiffEvent) -> None:
        if not self._sets:
            return
        for n in ev.target.sorted_notes("pre_rg_use"):
            name, useq, run = n.data
            for s in self._sets.get(name, ()):
                if s.ctx.run == run and useq < s.seq < ev.seq and not self._made_by_the_use(s, n.node):
                    self.report(
                        s.node,
                        lambda line, use=n.node, name=name: (
                            f"`{name}` gets requires_grad only after it was used on line {line(use)}: what was computed there "
                            f"has no path to `{name}`, so the loss has none either and `{name}.grad` stays None (backward or "
                            f"autograd.grad raises when nothing else requires grad); set requires_grad before the forward pass"
                        ),
                    )

    @staticmethod
    def _made_by_the_use(s, use) -> bool:
        """The tensor that gets requires_grad is the *result* of the early use, not the tensor
        used (`noises.append(noise.repeat(...).normal_())`, then `for noise in noises:
        noise.requires_grad = True`: the same name, another tensor, a fresh one)."""
        target = s.target if isinstance(s, AttrSetEvent) else s.recv
        return target is not None and any(n.kind == "pre_rg_use" and n.node is use for n in target.notes)


# JAX functions that only return a value (no side effect, no `out=`): as a statement they do
# nothing. Structured loops (the loop state is the return value; not lax.cond/switch, which
# code calls for a branch's host effect or to check that it traces) and the jax.numpy
# functions that NumPy code calls for their effect (`np.clip(w, lo, hi, out=w)`, `np.copyto`)
_JAX_PURE = frozenset({
    "jax.lax.fori_loop", "jax.lax.scan", "jax.lax.while_loop", "jax.lax.map",
    "jax.lax.dynamic_update_slice", "jax.lax.stop_gradient",
    *(f"jax.numpy.{n}" for n in ("clip", "where", "maximum", "minimum", "append", "insert", "delete", "fill_diagonal",
                                  "put", "copyto", "nan_to_num", "round", "sort", "flip", "roll", "reshape",
                                  "transpose", "squeeze", "expand_dims", "concatenate", "stack", "add", "multiply",
                                  "subtract", "divide", "abs", "exp", "log", "sqrt")),
})


_HOST_EFFECT = re.compile(r"\bdebug\.|callback|\bprint\(|\blog(ging|ger)?\.")


class ResultDiscarded(Rule):
    code = "GL508"
    message = "the result of an out-of-place tensor operation (or a JAX functional update) is discarded: the line has no effect"
    severity = Severity.ERROR
    docs = "https://jax.readthedocs.io/en/latest/_autosummary/jax.numpy.ndarray.at.html"
    triggers = ("at[", "index_update", "index_add", ".detach()", ".clamp(", ".clip(", ".add(", ".mul(", ".div(",
                ".sub(", ".masked_fill(", ".scatter(", ".index_", ".zero(", ".abs(", ".neg(", ".sqrt(", ".exp(",
                ".renorm(", ".lerp(", ".sign(", ".relu(", ".normal(", ".uniform(", ".squeeze(", ".unsqueeze(",
                ".t(", ".transpose(", ".fill_diagonal(", "fori_loop", "scan(", "while_loop", "jnp.")
    rationale = """
        `w.clamp(0, 1)`, `h.detach()`, `x.masked_fill(mask, 0)` return a *new* tensor and
        leave their receiver unchanged; written as a statement, their result is thrown away
        and the line does nothing — the projection after an optimizer step is never applied,
        the hidden state is never detached (its graph keeps growing), the mask is never
        applied. In JAX every update is functional: `x.at[i].set(v)` (and the old
        `jax.ops.index_update(x, i, v)`) returns the updated array, and a discarded result
        leaves `x` as it was; so does every `jax.numpy` function (`jnp.clip(w, -c, c)` has no
        `out=`) and structured control flow, whose loop state is its return value
        (`lax.fori_loop(0, n, step, (outs, x))` as a statement computes nothing that stays).

        gradlint reports such a call used as a statement when its receiver is proven to be a
        tensor/array. Instead: assign the result (`w = w.clamp(0, 1)`, `x = x.at[i].set(v)`),
        or, in PyTorch, use the in-place twin (`w.clamp_(0, 1)`, `h.detach_()`).
    """
    invalid = [
        Invalid(
            """
            import jax.numpy as jnp
            tab = jnp.zeros(10)
            for i in range(10):
                tab.at[i].set(i * 0.1)
            print(tab.sum())
            """,
            line=4,
        ),
        Invalid(
            """
            import torch
            w = torch.nn.Parameter(torch.rand(4))
            opt = torch.optim.SGD([w], lr=0.1)
            for step in range(5):
                loss = (w - 2).pow(2).sum()
                opt.zero_grad()
                loss.backward()
                opt.step()
                with torch.no_grad():
                    w.clamp(0, 1)
            """,
            line=10,
        ),
    ]
    valid = [
        """
        import jax.numpy as jnp
        tab = jnp.zeros(10)
        for i in range(10):
            tab = tab.at[i].set(i * 0.1)
        """,
        """
        import torch
        w = torch.nn.Parameter(torch.rand(4))
        opt = torch.optim.SGD([w], lr=0.1)
        loss = (w - 2).pow(2).sum()
        loss.backward()
        opt.step()
        with torch.no_grad():
            w.clamp_(0, 1)
        """,
    ]

    call_names = AT_UPDATES | OUT_OF_PLACE_METHODS | INDEX_UPDATES | frozenset(q.rsplit(".", 1)[-1] for q in _JAX_PURE)

    def on_call(self, ev: CallEvent) -> None:
        m = ev.method
        recv = ev.recv
        if not self.ctx.discarded(ev.node):
            return  # the result is used
        at = self._at_base(ev.node)
        # the receiver a JAX array, or unknown (a parameter) in a file that imports JAX: the
        # spelling `x.at[i].set(v)` is JAX's functional update (no other array library has it)
        if m in AT_UPDATES and at is not None and recv is not None and (
                recv.get(F.FW) == "jax" or recv.get(F.AT_OF) or (recv.kind is None and "jax" in self.ctx.frameworks)):
            name = self.ctx.code(at)
            self.report(ev.node, f"JAX arrays are immutable: `.at[...].{m}(...)` returns the updated array and leaves `{name}` "
                                 f"unchanged, so this line does nothing; assign it: `{name} = {self.ctx.code(ev.node)}`")
            return
        if ev.qual in _JAX_PURE and not self._host_effect(ev):
            fn = ev.ctx.fn
            if fn is not None and fn.name.startswith("test"):
                return  # a pytest test running a JAX call for whether it traces (equinox's tests): the point
            what = "the loop's final state" if ev.name in ("fori_loop", "scan", "while_loop", "map") else "a new array"
            self.report(ev.node, f"`{self.ctx.code(ev.node.func)}` returns {what} and changes nothing in place (JAX is "
                                 f"functional), so this line does nothing; assign its result")
            return
        if ev.qual is not None and ev.qual.startswith("jax.ops.") and ev.qual.rsplit(".", 1)[-1] in INDEX_UPDATES:
            first = self.ctx.code(ev.arg_nodes[0]) if ev.arg_nodes else "x"
            self.report(ev.node, f"`{ev.qual}` returns the updated array and leaves `{first}` unchanged (JAX arrays are "
                                 f"immutable), so this line does nothing; assign it (today: `{first} = {first}.at[...].set(...)`)")
            return
        if m not in OUT_OF_PLACE_METHODS or recv is None or recv.kind != "tensor" or recv.get(F.FW) not in ("torch", "jax"):
            return
        if recv.get(F.AT_OF) or at is not None:
            return
        target = self.ctx.code(ev.node.func.value) if isinstance(ev.node.func, cst.Attribute) else "x"
        twin = f" or the in-place `{target}.{m}_(...)`" if recv.get(F.FW) == "torch" else ""
        self.report(ev.node, f"`{m}()` returns a new tensor and leaves `{target}` unchanged; its result is discarded, so "
                             f"this line does nothing: assign it (`{target} = {self.ctx.code(ev.node)}`){twin}")

    def _host_effect(self, ev: CallEvent) -> bool:
        """A loop or branch run for what its body does on the host (`lax.cond(c, lambda _:
        jax.debug.print(...), ...)`, a callback): discarding its value is the point."""
        texts = [self.ctx.code(n) for n in ev.arg_nodes]
        for v in ev.args:
            fn = v.get(F.FN)
            if fn is not None and getattr(fn, "node", None) is not None:
                texts.append(self.ctx.code(fn.node))
        return any(_HOST_EFFECT.search(t) for t in texts)

    @staticmethod
    def _at_base(node):
        """`x` of a call `x.at[...].set(...)`, else None."""
        f = node.func
        if isinstance(f, cst.Attribute) and isinstance(f.value, cst.Subscript):
            inner = f.value.value
            if isinstance(inner, cst.Attribute) and inner.attr.value == "at":
                return inner.value
        return None


def _depends_on(v, node) -> bool | None:
    """Whether `v` depends on an argument traced by the transform at `node` (through a
    differentiable path or a cut); None: a call that was not followed leaves it unknown."""
    for o in v.live:
        if o.kind == K.ORIGIN_JAXARG and o.node is node:
            return True
    for o, _c in v.cuts:
        if o.kind == K.ORIGIN_JAXARG and o.node is node:
            return True
    if any(o.kind == K.ORIGIN_SYM and not o.certain and o.label.endswith("()") for o in v.live):
        return None  # a callee not followed (depth or budget): its result may use the argument
    return False


class JaxGradArgumentUnused(Rule):
    code = "GL509"
    message = "jax.grad differentiates a function whose output does not depend on the differentiated argument: the gradient is all zeros"
    severity = Severity.ERROR
    frameworks = ("jax",)
    docs = "https://jax.readthedocs.io/en/latest/notebooks/autodiff_cookbook.html"
    triggers = ("grad",)
    rationale = """
        `jax.grad(loss)(params, x, y)` differentiates `loss` with respect to `params`. When the
        value `loss` returns is computed without it — the model run *outside* the function
        and its output closed over (a GAN step computing `fake_output` before the loss
        closures), or a typo that uses the labels where the prediction belongs — JAX returns
        a gradient of exact zeros, the optimizer never moves, and nothing raises.

        gradlint reports it when the analysis followed every call on the way and the returned
        value reaches the differentiated argument neither through a differentiable path nor
        through a cut. Instead: compute the output inside the function from the argument
        (`logits = model.apply(params, x)` inside `loss_fn`).
    """
    invalid = [
        Invalid(  # jax#2097: the cross-entropy is written with the labels in place of the prediction
            """
            import jax
            import jax.numpy as jnp

            def loss(params, x, y):
                p = jax.nn.sigmoid(x @ params["w"])
                ce = -jnp.sum(y * jnp.log(y) + (1 - y) * jnp.log(1 - y))
                return ce

            g = jax.grad(loss)({"w": jnp.ones((2, 1))}, jnp.ones((4, 2)), jnp.full((4, 1), 0.5))
            """,
            line=6,
        ),
        Invalid(  # flax#359: the forward pass run before the loss closure, outside jax.grad
            """
            import jax
            import jax.numpy as jnp

            def apply_model(params, x):
                return jnp.tanh(x @ params["w"])

            def train_step(params, x, y):
                pred = apply_model(params, x)

                def loss_fn(p):
                    return jnp.mean((pred - y) ** 2)

                grads = jax.grad(loss_fn)(params)
                return jax.tree_util.tree_map(lambda a, b: a - 0.1 * b, params, grads)
            """,
            line=8,
        ),
    ]
    valid = [
        """
        import jax
        import jax.numpy as jnp

        def loss(params, x, y):
            p = jax.nn.sigmoid(x @ params["w"])
            return -jnp.sum(y * jnp.log(p) + (1 - y) * jnp.log(1 - p))

        g = jax.grad(loss)({"w": jnp.ones((2, 1))}, jnp.ones((4, 2)), jnp.full((4, 1), 0.5))
        """,
        """
        import jax
        import jax.numpy as jnp

        def train_step(params, x, y):
            def loss_fn(p):
                return jnp.mean((jnp.tanh(x @ p["w"]) - y) ** 2)

            grads = jax.grad(loss_fn)(params)
            return jax.tree_util.tree_map(lambda a, b: a - 0.1 * b, params, grads)
        """,
    ]

    def on_diff(self, ev: DiffEvent) -> None:
        if ev.kind != "jax" or ev.transform is None or ev.fn is None:
            return
        info, fn = ev.transform, ev.fn
        target = ev.target
        if target.kind not in (K.TENSOR, K.NUMBER) or not isinstance(fn.node, cst.FunctionDef):
            return  # what the function returns is not known to be a computed value
        if _depends_on(target, info.node) is not False:
            return
        names = [name for i, (name, kind, _a) in enumerate(fn.params) if kind == "pos" and i - info.bound[0] + info.skip in (info.argnums or (0,))]
        if not names or returns_mention(fn.node, set(names)):
            return  # the syntax says it may use them (a library call the data flow does not follow)
        arg = ", ".join(f"`{n}`" for n in names)
        outside = self._closed_over_result(fn)
        if outside is not None:
            name, at = outside
            self.report(at, lambda line, name=name, at=at: (
                f"`{name}` is computed here, outside `{fn.name}`, and `{fn.name}` closes over it instead of computing its "
                f"output from {arg}, the argument {info.qual or 'jax.grad'} differentiates: the gradient is all zeros; "
                f"compute the output inside `{fn.name}` from its argument"))
            return
        site = self._return_of(fn.node) or fn.node
        self.report(site, (
            f"what `{fn.name}` returns does not depend on {arg}, the argument {info.qual or 'jax.grad'} differentiates "
            f"(argnums={tuple(info.argnums or (0,))}): the gradient is all zeros and the optimizer never moves; compute "
            f"the returned value from {arg}"))

    def _closed_over_result(self, fn):
        """(name, assignment) of a value `fn` reads from the function around it that was
        computed there by a call (`pred = apply_model(params, x)` before `def loss_fn(p)`)."""
        enclosing = next((a for a in self.ctx.ancestors(fn.node) if isinstance(a, cst.FunctionDef)), None)
        if enclosing is None:
            return None
        # the enclosing function's `name = call(...)` statements before `fn`, by name (last wins)
        made: dict[str, cst.Assign] = {}
        for stmt in enclosing.body.body:
            if stmt is fn.node:
                break
            for small in stmt.body if isinstance(stmt, cst.SimpleStatementLine) else ():
                if (isinstance(small, cst.Assign) and isinstance(small.value, cst.Call) and len(small.targets) == 1
                        and isinstance(small.targets[0].target, cst.Name) and not self._library_call(small.value)):
                    made[small.targets[0].target.value] = small
        # follow each closed-over value back to the first model run it comes from (`fake_out =
        # D(fake)` <- `fake = G(noise)`): the forward pass to move into `fn` starts there
        best = None
        for name in sorted(free_names(fn.node) & made.keys()):
            seen, todo, first = set(), [name], None
            while todo:
                cur = todo.pop()
                if cur in seen or cur not in made:
                    continue
                seen.add(cur)
                stmt = made[cur]
                if first is None or self.ctx.range_of(stmt) < self.ctx.range_of(first[1]):
                    first = (cur, stmt)
                todo.extend(n.value for n in walk(stmt.value, code_only=True) if isinstance(n, cst.Name))
            if first is not None and (best is None or self.ctx.range_of(first[1]) < self.ctx.range_of(best[1])):
                best = first
        return best

    def _library_call(self, call: cst.Call) -> bool:
        """`jax.random.normal(...)`, `jnp.ones(...)`: data made by a library, not a model run."""
        f = call.func
        while isinstance(f, cst.Attribute):
            f = f.value
        return isinstance(f, cst.Name) and f.value in imported_modules(self.ctx)

    @staticmethod
    def _return_of(node):
        """The last `return` of a function, or the assignment of the name it returns (`ce =
        ...` for `return ce`: the line that should have used the argument)."""
        simple = [small for stmt in node.body.body if isinstance(stmt, cst.SimpleStatementLine) for small in stmt.body]
        ret = next((s for s in reversed(simple) if isinstance(s, cst.Return)), None)
        if ret is not None and isinstance(ret.value, cst.Name):
            bound = [s for s in simple if isinstance(s, cst.Assign) and len(s.targets) == 1
                     and isinstance(s.targets[0].target, cst.Name) and s.targets[0].target.value == ret.value.value]
            if len(bound) == 1:
                return bound[0]
        return ret


# calls that apply gradients to parameters: optax's `tx.update(grads, state, params)` and
# `apply_updates(params, updates)`, flax's `state.apply_gradients(grads=...)`, the
# example_libraries' `opt_update(i, grads, state)` (a hand-written step, `params =
# tree_map(lambda p, g: p - lr * g, params, grads)` or `w -= lr * g`, is an assignment of the
# parameters that reads the gradients: a `tree_map` that only compares them is not a step)
_GRADIENT_CONSUMERS = frozenset({"update", "apply_gradients", "apply_updates", "opt_update"})


class JaxGradWrongArgument(Rule):
    code = "GL510"
    message = "jax.grad differentiates an argument that is not the parameters the optimizer updates with its gradients"
    severity = Severity.ERROR
    frameworks = ("jax",)
    docs = "https://jax.readthedocs.io/en/latest/_autosummary/jax.grad.html"
    triggers = ("grad",)
    rationale = """
        `jax.grad(f)` differentiates `f` with respect to its *first* argument unless `argnums`
        says otherwise. A loss written `loss(x, y, params)`, or one that reads the parameters
        from the enclosing scope instead of taking them (`model(x)` using a global `params`),
        is differentiated with respect to the data: the "gradients" have the shape of `x` or
        `y_true`, and the optimizer that receives them fails (optax: `TypeError: unsupported
        operand type(s) for *: 'float' and 'dict'`) or updates nothing useful.

        gradlint reports the transformed call whose gradients reach an optimizer update
        (`tx.update`, `apply_updates`, `apply_gradients`, `opt_update`, a `tree_map` with the
        parameters) when the differentiated argument is not one of the program's parameter
        trees (given to `tx.init`, `apply_updates` directly or as the `updates` that
        `tx.update(grads, ...)` made from them, `get_params`) but another argument is, or
        the function reads one from outside. Instead: put the parameters first, or pass
        `argnums=` their position, and take them as an argument.
    """
    invalid = [
        Invalid(  # optax#366: the parameters are the last argument
            """
            import jax
            import jax.numpy as jnp
            import optax

            def model_loss(x, y, params):
                return jnp.mean((x @ params["w"] - y) ** 2)

            params = {"w": jnp.zeros((3, 1))}
            tx = optax.adam(1e-3)
            opt_state = tx.init(params)
            x, y = jnp.ones((8, 3)), jnp.ones((8, 1))
            loss, grads = jax.value_and_grad(model_loss)(x, y, params)
            updates, opt_state = tx.update(grads, opt_state)
            params = optax.apply_updates(params, updates)
            """,
            line=12,
        ),
        Invalid(  # optax#808: the model reads the global parameters; the loss is differentiated w.r.t. y_true
            """
            import jax
            import jax.numpy as jnp
            import optax

            params = {"w": jnp.ones((3, 3))}

            def model(x):
                return x @ params["w"]

            def loss(y_true, x):
                return jnp.mean((y_true - model(x)) ** 2)

            x = jnp.ones((16, 3))
            y_true = 5 * x - 10
            tx = optax.adam(2e-3)
            opt_state = tx.init(params)
            value, grads = jax.value_and_grad(loss)(y_true, x)
            updates, opt_state = tx.update(grads, opt_state)
            params = optax.apply_updates(params, updates)
            """,
            line=17,
        ),
    ]
    valid = [
        """
        import jax
        import jax.numpy as jnp
        import optax

        def model_loss(x, y, params):
            return jnp.mean((x @ params["w"] - y) ** 2)

        params = {"w": jnp.zeros((3, 1))}
        tx = optax.adam(1e-3)
        opt_state = tx.init(params)
        x, y = jnp.ones((8, 3)), jnp.ones((8, 1))
        loss, grads = jax.value_and_grad(model_loss, argnums=2)(x, y, params)
        updates, opt_state = tx.update(grads, opt_state)
        params = optax.apply_updates(params, updates)
        """,
        """
        import jax
        import jax.numpy as jnp

        params = {"w": jnp.ones((3, 3))}

        def loss(x, y):
            return jnp.mean((x @ params["w"] - y) ** 2)

        x, y = jnp.ones((16, 3)), jnp.ones((16, 3))
        g = jax.grad(loss)(x, y)
        x_adv = x + 0.01 * jnp.sign(g)  # an input gradient (FGSM): no optimizer takes it
        """,
    ]

    # every call: the example_libraries' `opt_init`/`opt_update` are plain names the analysis
    # does not resolve (the rule runs only on files that import JAX)
    call_names = None

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        self._calls: dict[int, TransformedCallEvent] = {}  # grad calls, by node
        # grad call -> the parameter trees its gradients update (name -> where that is shown)
        self._updates: dict[int, dict[str, cst.CSTNode]] = {}
        self._init_of: dict[str, tuple[str, cst.CSTNode]] = {}  # optimizer state -> the tree it was made for
        self._got_params: set[str] = set()  # `params = get_params(opt_state)`: a parameter tree
        self._read_by: dict[int, set[str]] = {}  # transform node -> free names of the functions its trace ran
        self._grad_names: dict[str, cst.CSTNode] = {}  # names bound to gradients -> the grad call
        self._rhs: dict[tuple, list] = {}  # (function, name) -> its assignments there, (seq, node) in order
        self._reads: dict[int, frozenset[str]] = {}  # id(rhs) -> its names (a statement runs many times)
        self._grad_made: dict[tuple, object] = {}  # (assignment, name) -> the grad call it bound the name to

    def _updated(self, grad_call, tree_node, shown_at=None) -> None:
        name = dotted_name(tree_node) if isinstance(tree_node, cst.BaseExpression) else tree_node
        trees = self._updates.setdefault(id(grad_call), {})
        if name:
            trees.setdefault(name, shown_at if shown_at is not None else tree_node)

    def on_call(self, ev: CallEvent) -> None:
        name = ev.name or callee_last(ev.node)
        if name not in _GRADIENT_CONSUMERS:
            return
        nodes = ev.arg_nodes
        if name == "apply_updates" and len(nodes) >= 2 and ev.args[1].get(F.GRAD_RESULT) is None:
            # `updates, opt_state = tx.update(grads, opt_state)` then `apply_updates(params,
            # updates)`: the updates are the gradients transformed, for the same tree
            g = self._updates_of(ev, nodes[1])
            if g is not None:
                self._updated(g, nodes[0])
        for i, v in enumerate(ev.args):
            g = v.get(F.GRAD_RESULT)
            if g is None:
                continue
            others = [n for j, n in enumerate(nodes) if j != i]
            if name in ("update", "opt_update"):
                # `tx.update(grads, opt_state[, params])`, `opt_update(i, grads, opt_state)`: the
                # tree the state was made for (`opt_state = tx.init(params)`), and optax's params
                for n in others:
                    state = dotted_name(n)
                    if state in self._init_of:
                        self._updated(g, *self._init_of[state])
                if name == "update" and len(nodes) >= 3 and i == 0:
                    self._updated(g, nodes[2])
            elif name == "apply_updates":
                self._updated(g, nodes[0])
            else:  # `state.apply_gradients(grads=...)`: the state's own parameters
                self._updates.setdefault(id(g), {})
        for v in ev.kwargs.values():
            g = v.get(F.GRAD_RESULT)
            if g is not None:
                self._updates.setdefault(id(g), {})

    def on_assign(self, ev: AssignEvent) -> None:
        node = ev.node
        g = ev.value.get(F.GRAD_RESULT)
        if g is not None and ev.value.get(F.FW) == "jax":
            # `grads = jax.grad(f)(...)`, `loss, grads = value_and_grad(f)(...)` (not torch's
            # autograd.grad of a file that also imports jax: no jax transform made those)
            self._grad_names[ev.name] = g
            self._grad_made[(id(node), ev.name)] = g
        rhs = node.value if isinstance(node, (cst.Assign, cst.AugAssign)) else None
        if rhs is None:
            return
        if isinstance(node, cst.Assign) and isinstance(rhs, cst.Call):
            callee = callee_last(rhs)
            if callee == "get_params":
                self._got_params.add(ev.name)
            elif (callee == "opt_init" or callee == "init" and isinstance(rhs.func, cst.Attribute)) and len(rhs.args) == 1:
                tree = dotted_name(rhs.args[0].value)
                if tree:
                    self._init_of[ev.name] = (tree, rhs)  # `opt_state = tx.init(params)`
        self._rhs.setdefault((ev.ctx.fn, ev.name), []).append((ev.seq, node))
        if not self._grad_names:
            return  # no gradient bound yet: nothing this right-hand side reads can be one
        if isinstance(rhs, cst.Call) and callee_last(rhs) in _GRADIENT_CONSUMERS:
            return  # `updates, opt_state = tx.update(grads, opt_state)`: on_call's, not a hand-written step
        if ev.name in self._grad_names:
            return  # `grads = tree_map(jnp.conj, grads)`: the gradients transformed, not a step
        read = self._names_read(rhs)
        grads = [self._grad_names[n] for n in read if n in self._grad_names]
        if grads and (isinstance(node, cst.AugAssign) or ev.name in read):
            for grad_call in grads:  # a hand-written step: `w -= lr * g`, `params = params - lr * grads`
                self._updated(grad_call, ev.target_node)

    def _updates_of(self, ev: CallEvent, node) -> object | None:
        """The grad call whose gradients `updates` (a name) was computed from by an optimizer's
        `update(grads, ...)` in this function, before this call."""
        made = self._last_assignment(ev.ctx.fn, node, ev.seq)
        if made is None:
            return None
        seq, stmt = made
        rhs = getattr(stmt, "value", None)
        if not isinstance(rhs, cst.Call) or callee_last(rhs) not in ("update", "opt_update") or not rhs.args:
            return None
        first = rhs.args[1 if callee_last(rhs) == "opt_update" and len(rhs.args) > 1 else 0].value
        # the gradients' own assignment before it (a name rebound by another cell's
        # `grads = eqx.filter_grad(...)(...)` is not the jax.grad call of an earlier one)
        bound = self._last_assignment(ev.ctx.fn, first, seq)
        return self._grad_made.get((id(bound[1]), first.value)) if bound is not None and isinstance(first, cst.Name) else None

    def _last_assignment(self, fn, node, before: int):
        """(seq, statement) of the last assignment of a name in `fn` before event `before`."""
        if not isinstance(node, cst.Name):
            return None
        return next(((seq, n) for seq, n in reversed(self._rhs.get((fn, node.value), ())) if seq < before), None)

    def _names_read(self, rhs) -> frozenset[str]:
        """The names a right-hand side reads, computed once per node (a statement runs many
        times) and only when asked: most assignments of a file never need it."""
        read = self._reads.get(id(rhs))
        if read is None:
            read = self._reads[id(rhs)] = frozenset(n.value for n in walk(rhs, code_only=True) if isinstance(n, cst.Name))
        return read

    def on_function(self, ev: FunctionEvent) -> None:
        traced = ev.ctx.traced
        if traced is not None and traced.node is not None and isinstance(ev.fn.node, cst.FunctionDef):
            self._read_by.setdefault(id(traced.node), set()).update(free_names(ev.fn.node))

    def on_transformed_call(self, ev: TransformedCallEvent) -> None:
        if ev.transform.kind == "grad" and ev.transform.fn is not None:
            self._calls.setdefault(id(ev.node), ev)

    def finish(self) -> None:
        for key, ev in self._calls.items():
            trees = self._updates.get(key)
            if trees:
                self._check(ev, trees)

    def _check(self, ev: TransformedCallEvent, trees: dict[str, cst.CSTNode]) -> None:
        info = ev.transform
        argnums = tuple(info.argnums or (0,))
        names = [dotted_name(n) for n in ev.arg_nodes]
        taken = [names[i] for i in argnums if i < len(names)]
        if not taken or any(n is None or n in trees or n in self._got_params or n.endswith(".params") for n in taken):
            return  # differentiated with respect to the parameters it updates (or an expression: unknown)
        what = ", ".join(f"`{n}`" for n in taken)
        qual = info.qual or "jax.grad"
        for j, n in enumerate(names):
            if j not in argnums and n is not None and n in trees:
                self.report(ev.node, lambda line, n=n, j=j: (
                    f"{qual} differentiates argument {argnums[0] if len(argnums) == 1 else argnums} ({what}), but the "
                    f"parameters its gradients update, `{n}` (line {line(trees[n])}), are argument {j}: the gradients have "
                    f"the shape of {what} and the update fails or changes nothing; pass `argnums={j}` or make the "
                    f"parameters the first argument"))
                return
        read = sorted(self._read_by.get(id(info.node), set()) & trees.keys())
        if read:
            n = read[0]
            fn_name = info.fn.name
            self.report(ev.node, lambda line, n=n: (
                f"`{fn_name}` reads the parameters `{n}` (updated with its gradients, line {line(trees[n])}) from outside "
                f"instead of taking them as an argument, and {qual} differentiates {what}: the gradients are not the "
                f"parameters', and the update fails or changes nothing; make `{n}` the differentiated argument"))
            return
        for d in taken:
            # the assignment that reaches the call, in the function that differentiates it
            made = next((n for seq, n in reversed(self._rhs.get((ev.ctx.fn, d), ())) if seq < ev.seq), None)
            source = sorted(self._names_read(made.value) & trees.keys()) if made is not None else []
            if source:
                n = source[0]
                self.report(ev.node, lambda line, n=n, d=d, made=made: (
                    f"{qual} differentiates `{d}`, which is computed from the parameters `{n}` (line {line(made)}), not "
                    f"the parameters themselves: the gradients have the shape of `{d}` and the update of `{n}` fails or is "
                    f"wrong; differentiate a function of `{n}` that computes `{d}` inside"))
                return


class CustomFunctionGradientCount(Rule):
    code = "GL511"
    message = "a custom autograd.Function's backward returns a different number of values than its forward takes inputs: RuntimeError"
    severity = Severity.ERROR
    frameworks = ("torch",)
    docs = "https://pytorch.org/docs/stable/notes/extending.html#extending-torch-autograd"
    triggers = ("Function",)
    chunk_triggers = (r"\b[A-Z]\w*\.apply\s*\(",)  # `Sign.apply(x, flag)`: how many inputs it is given
    rationale = """
        `backward(ctx, *grad_outputs)` must return one value per input given to
        `Function.apply(...)` — a gradient, or None for an input that needs none (a flag, an
        integer, a non-differentiable tensor). A backward that returns fewer (a straight-through
        sign that returns only `grad_output` for `forward(ctx, input, is_training)`) or none at
        all (the gradients computed and never returned) makes every backward pass through the
        function raise "function XBackward returned an incorrect number of gradients (expected
        2, got 1)".

        Instead: `return grad_input, None` — one entry per input, in order.
    """
    invalid = [
        Invalid(  # 1zb/pytorch-image-comp-rnn#4: the binarizer's flag is an input too
            """
            import torch
            from torch.autograd import Function

            class Sign(Function):
                @staticmethod
                def forward(ctx, input, is_training=True):
                    return input.sign() if not is_training else input.clamp(-1, 1)

                @staticmethod
                def backward(ctx, grad_output):
                    return grad_output

            x = torch.randn(4, requires_grad=True)
            Sign.apply(x, True).sum().backward()
            """,
            line=11,
        )
    ]
    valid = [
        """
        import torch
        from torch.autograd import Function

        class Sign(Function):
            @staticmethod
            def forward(ctx, input, is_training=True):
                return input.sign() if not is_training else input.clamp(-1, 1)

            @staticmethod
            def backward(ctx, grad_output):
                return grad_output, None

        x = torch.randn(4, requires_grad=True)
        Sign.apply(x, True).sum().backward()
        Sign.apply(x).sum().backward()
        """
    ]

    # every call: `Sign.apply(x)` is an attribute of a class, which events do not name (the rule
    # runs only on files that import torch, and returns at once for other calls)
    call_names = None

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        self._applied: dict[str, dict[int, cst.CSTNode]] = {}  # class name -> {inputs given: a call}
        self._numbers: dict[str, dict[int, cst.CSTNode]] = {}  # class name -> inputs that are numbers at every call
        self._helpers: dict[str, int] | None = None

    def on_call(self, ev: CallEvent) -> None:
        name = _applied_class(ev)
        if name is None:
            return
        self._applied.setdefault(name, {}).setdefault(len(ev.args), ev.node)
        _note_number_inputs(self._numbers, name, ev)

    def finish(self) -> None:
        for info in self.ctx.interp.classes:
            if not info.is_autograd_fn:
                continue
            fwd, bwd = info.methods.get("forward"), info.methods.get("backward")
            if fwd is None or bwd is None or not isinstance(fwd.node, cst.FunctionDef) or not isinstance(bwd.node, cst.FunctionDef):
                continue
            expected, where = self._inputs(info, fwd.node)
            if expected is None:
                continue
            if expected == 1 and not _has_return(bwd.node):
                # no error to tell: the one input silently gets None (the gradients computed and
                # never returned)
                self.report(bwd.node, (
                    f"`{info.name}.backward` returns nothing: autograd takes that as None, so the input of "
                    f"`{info.name}.apply` gets no gradient and nothing before it learns; return the gradient"))
                continue
            if self._gradient_for_number(info, bwd.node):
                continue
            for site, got in self._returns(bwd.node, _torch_module_names(self.ctx.code_text), self._helper_counts()):
                if got is None or got == expected:
                    continue
                if got > expected and isinstance(site, cst.Return) and isinstance(site.value, cst.Tuple) and all(
                        isinstance(e.value, cst.Name) and e.value.value == "None" for e in site.value.elements[expected:]):
                    continue  # extra gradients that are None are accepted
                self._report(info, site, got, expected, where)
                break

    def _gradient_for_number(self, info, bwd: cst.FunctionDef) -> bool:
        """A backward that returns a gradient (a computed value, not None) for an input every
        call gives a Python number (`RMSNormFn.apply(x, w, 1e-6)` and `return dx, dw,
        dw.new_zeros(()), None`): autograd raises RuntimeError at every backward."""
        numbers = self._numbers.get(info.name)
        if not numbers:
            return False
        for n in walk_own_body(bwd):
            if not isinstance(n, cst.Return) or not isinstance(n.value, cst.Tuple):
                continue
            elems = n.value.elements
            for i, call in sorted(numbers.items()):
                if i < len(elems) and isinstance(elems[i].value, (cst.Call, cst.BinaryOperation, cst.Subscript)):
                    e = elems[i].value
                    self.report(e, lambda line, i=i, call=call: (
                        f"`{info.name}.backward` returns a gradient for input {i + 1} of `{info.name}.apply`, which is a "
                        f"Python number (line {line(call)}): every backward pass raises RuntimeError \"returned a gradient "
                        f"different than None at position {i + 1}, but the corresponding forward input was not a "
                        f"Variable\"; return None there"))
                    return True
        return False

    def _inputs(self, info, fwd: cst.FunctionDef):
        """How many inputs `apply` is given (at its calls; else forward's parameters after ctx
        when none has a default), and a call that shows it."""
        sites = self._applied.get(info.name, {})
        if len(sites) == 1:
            (n, site), = sites.items()
            return n, site
        if sites:
            return None, None  # called with different counts: PyTorch expects each call's own
        p = fwd.params
        if p.star_arg is not None and isinstance(p.star_arg, cst.Param) or p.kwonly_params or p.star_kwarg is not None:
            return None, None
        params = list(p.posonly_params) + list(p.params)
        if "setup_context" in info.methods or "setup_context" in info.elided:
            # `forward(X)` with a separate `setup_context(ctx, inputs, output)`: no ctx parameter
            return (len(params), None) if params and not any(q.default is not None for q in params) else (None, None)
        if len(params) < 1 or any(q.default is not None for q in params[1:]):
            return None, None
        return len(params) - 1, None

    def _helper_counts(self) -> dict[str, int]:
        """Module-level functions of the file that return a tuple of one fixed length at every
        return (`def _rms_norm_backward(...): ... return grad_x, grad_weight`): name -> length."""
        if self._helpers is None:
            self._helpers = {}
            for stmt in self.ctx.module_statements():
                if not isinstance(stmt, cst.FunctionDef):
                    continue
                rets = [n.value for n in walk_own_body(stmt) if isinstance(n, cst.Return)]
                lengths = {_tuple_length(v) for v in rets}
                if len(lengths) == 1 and None not in lengths:
                    self._helpers[stmt.name.value] = lengths.pop()
        return self._helpers

    @staticmethod
    def _returns(bwd: cst.FunctionDef, torch_names: frozenset = frozenset({"torch", "F"}), helpers: dict | None = None):
        """(node, number of values) of each `return` of backward (None: not known from the syntax);
        a backward without a return returns None: one value."""
        grads = {q.name.value for q in list(bwd.params.params)[1:]}
        found: list[tuple[cst.CSTNode, int | None]] = []
        tuples = _tuple_bindings(bwd)
        rebinds = _rebindings(bwd)

        for n in walk_own_body(bwd):
            if not isinstance(n, cst.Return):
                continue
            v = n.value
            if v is None or isinstance(v, cst.Name) and v.value == "None":
                found.append((n, 1))
            elif isinstance(v, cst.Tuple):
                found.append((n, _tuple_length(v)))
            elif isinstance(v, cst.BinaryOperation) and isinstance(v.operator, cst.Add) and any(
                    isinstance(side, cst.Tuple) or isinstance(side, cst.Name) and side.value in tuples for side in (v.left, v.right)):
                # `return helper(...) + (None,)`: a tuple concatenation, as many values as both sides
                sides = [_tuple_length(side) if isinstance(side, cst.Tuple)
                         else tuples.get(side.value) if isinstance(side, cst.Name)
                         else (helpers or {}).get(side.func.value) if isinstance(side, cst.Call) and isinstance(side.func, cst.Name)
                         else None for side in (v.left, v.right)]
                found.append((n, None if None in sides else sum(sides)))
            elif isinstance(v, cst.Name) and v.value in grads or isinstance(v, (cst.BinaryOperation, cst.UnaryOperation)):
                found.append((n, 1))  # `return grad_output`, `return grad_output * mask`
            elif isinstance(v, cst.Name) and v.value in tuples:
                found.append((n, tuples[v.value]))  # `grads = (g,)` ... `return grads`
            elif helpers and isinstance(v, cst.Call) and isinstance(v.func, cst.Name) and v.func.value in helpers:
                found.append((n, helpers[v.func.value]))  # `return _rms_norm_backward(g, x, w, r)`
            elif _one_tensor(v, grads, rebinds, torch_names):
                found.append((n, 1))  # `return grad_input` of `grad_input = grad_output.clone()`, `return F.hardtanh(g)`
            else:
                found.append((n, None))
        if not found:
            found.append((bwd, 1))
        return found

    def _report(self, info, site, got, expected, where) -> None:
        nothing = isinstance(site, cst.FunctionDef)
        what = "returns nothing (None, one value)" if nothing else f"returns {got} value{'s' if got != 1 else ''}"
        self.report(site, lambda line: (
            f"`{info.name}.backward` {what}, but `{info.name}.apply` is given {expected} input{'s' if expected != 1 else ''}"
            f"{f' (line {line(where)})' if where is not None else ''}: every backward pass through it raises \"function "
            f"{info.name}Backward returned an incorrect number of gradients (expected {expected}, got {got})\"; return one "
            f"gradient per input, None for those that need none"))


def _tuple_length(node) -> int | None:
    """How many values a tuple display holds (`(g, None)`: 2), None when not a display or starred."""
    if not isinstance(node, cst.Tuple) or any(isinstance(e, cst.StarredElement) for e in node.elements):
        return None
    return len(node.elements)


def _applied_class(ev: CallEvent) -> str | None:
    """`Name.apply(a, b)` with positional arguments only: the class name (a custom Function's,
    if it is one: the rules look the name up among the file's Function classes)."""
    f = ev.node.func
    if not (isinstance(f, cst.Attribute) and f.attr.value == "apply" and isinstance(f.value, cst.Name)):
        return None
    if any(a.star for a in ev.node.args) or ev.kwargs:
        return None
    return f.value.value


def _note_number_inputs(numbers: dict, name: str, ev: CallEvent) -> None:
    """Record which inputs of `name.apply(...)` are Python numbers: those that are at every
    call seen (a position a call gives a tensor, or leaves out, is dropped)."""
    mine = {i: ev.node for i, (node, v) in enumerate(zip(ev.arg_nodes, ev.args))
            if isinstance(node, (cst.Integer, cst.Float)) or v.kind == K.NUMBER}
    if name in numbers:
        numbers[name] = {i: n for i, n in numbers[name].items() if i in mine}
    else:
        numbers[name] = mine


def _has_return(fn: cst.FunctionDef) -> bool:
    """`fn` returns a value somewhere (nested functions aside), or raises (not a gradient)."""
    return any(isinstance(n, cst.Return) and n.value is not None or isinstance(n, (cst.Raise, cst.Yield))
               for n in walk_own_body(fn))


# torch functions and tensor methods that give several tensors (or, by their arguments, may)
_SEVERAL_RESULTS = frozenset({
    "split", "chunk", "unbind", "tensor_split", "hsplit", "vsplit", "dsplit", "max", "min", "median", "nanmedian",
    "mode", "sort", "topk", "kthvalue", "aminmax", "var_mean", "std_mean", "lu", "qr", "svd", "eig", "eigh", "slogdet",
    "lstsq", "unique", "unique_consecutive", "histogram", "frexp", "broadcast_tensors", "meshgrid", "nonzero", "where",
    "grad", "apply", "cummax", "cummin", "geqrf", "triangular_solve", "backward", "vjp", "jvp", "saved_tensors",
})
_TORCH_ALIAS = re.compile(r"^\s*(?:import\s+torch[\w.]*\s+as\s+(\w+)|from\s+torch[\w.]*\s+import\s+\w+\s+as\s+(\w+)"
                          r"|from\s+torch(?:\.nn)?\s+import\s+(functional|nn)\b)", re.M)


def _torch_module_names(text: str) -> frozenset:
    """Names that stand for torch modules in the file (`torch`, `F`, `import torch.nn.functional as fn`)."""
    out = {"torch", "F"}
    for m in _TORCH_ALIAS.finditer(text):
        out.update(g for g in m.groups() if g)
    return frozenset(out)


def _rebindings(fn: cst.FunctionDef) -> dict[str, list]:
    """Every value a name is bound to in `fn` (`a = b = None`, `a = f(x)`, `a += g`: its
    expression); None among them for a binding whose value is not one expression (a loop
    target, an unpacking, a `with` target). An item store (`g[mask] = 0`) binds nothing."""
    out: dict[str, list] = {}
    for n in walk(fn.body, code_only=True):
        if isinstance(n, cst.Assign):
            for t in n.targets:
                if isinstance(t.target, cst.Name):
                    out.setdefault(t.target.value, []).append(n.value)
                else:
                    for name in walk(t.target, code_only=True):
                        if isinstance(name, cst.Name) and not isinstance(t.target, (cst.Subscript, cst.Attribute)):
                            out.setdefault(name.value, []).append(None)
        elif isinstance(n, cst.AugAssign) and isinstance(n.target, cst.Name):
            out.setdefault(n.target.value, []).append(cst.BinaryOperation(n.target, cst.Add(), n.value))
        elif isinstance(n, (cst.For, cst.NamedExpr, cst.CompFor, cst.AnnAssign)) or isinstance(n, cst.AsName):
            target = n.name if isinstance(n, cst.AsName) else n.target
            for name in walk(target, code_only=True):
                if isinstance(name, cst.Name):
                    out.setdefault(name.value, []).append(getattr(n, "value", None) if isinstance(n, cst.AnnAssign) else None)
    return out


def _one_tensor(v, grads: set, rebinds: dict, torch_names: frozenset, depth: int = 0) -> bool:
    """Is `v` provably a single value (one gradient, or None) in backward: a gradient
    parameter, arithmetic, a torch function or a tensor method of one (not one that gives
    several: split, max(dim), sort...), an index of one, or a local every binding of which is
    one of those."""
    if depth > 4:
        return False
    again = lambda e: _one_tensor(e, grads, rebinds, torch_names, depth + 1)  # noqa: E731
    if isinstance(v, cst.Name):
        if v.value in grads or v.value == "None":
            return True
        bound = rebinds.get(v.value)
        return bool(bound) and all(b is not None and again(b) for b in bound)
    if isinstance(v, (cst.BinaryOperation, cst.UnaryOperation, cst.Integer, cst.Float)):
        return True
    if isinstance(v, cst.Subscript):
        return again(v.value)
    if isinstance(v, cst.IfExp):
        return again(v.body) and again(v.orelse)
    if isinstance(v, cst.Call) and isinstance(v.func, cst.Attribute) and v.func.attr.value not in _SEVERAL_RESULTS:
        head = dotted_name(v.func.value)
        if head is not None and head.split(".", 1)[0] in torch_names:
            return True  # `torch.clamp(g, -1, 1)`, `F.hardtanh(g)`
        return again(v.func.value)  # `grad_output.mm(weight)`, `g.clone()`
    return False


def _tuple_bindings(fn: cst.FunctionDef) -> dict[str, int]:
    """Names bound exactly once in `fn`, to a tuple literal of known length: `grads = (g, None)`."""
    return {k: len(v.elements) for k, v in _single_bindings(fn).items()
            if isinstance(v, cst.Tuple) and not any(isinstance(e, cst.StarredElement) for e in v.elements)}


class LegacyAutogradFunction(Rule):
    code = "GL512"
    message = ("a custom autograd.Function is written or called the legacy way (an instance, a non-static forward, forward "
               "called directly): RuntimeError, or a backward that never runs")
    severity = Severity.ERROR
    frameworks = ("torch",)
    docs = "https://pytorch.org/docs/stable/notes/extending.html#extending-torch-autograd"
    triggers = ("Function",)
    rationale = """
        Since PyTorch 1.5 an autograd.Function is a class of static methods: `forward(ctx, ...)`
        and `backward(ctx, ...)`, invoked as `MyFn.apply(x, ...)`. Code written for older
        versions keeps settings on `self` in `__init__` and calls an instance
        (`GradReverse(coeff)(x)`, `self.lower = LowerBound()` then `self.lower(x)`): calling an
        instance raises "Legacy autograd function with non-static forward method is
        deprecated", and a `forward(self, ...)` that reads `self.coeff` has no such attribute
        on the `ctx` that `apply` passes. Calling the static forward directly
        (`GradReverse.forward(None, x, coeff)`) raises nothing: autograd records the
        operations inside it as ordinary ones, and the custom backward never runs (the
        gradient is not reversed, a straight-through estimator gets the true gradient).

        Instead: `@staticmethod def forward(ctx, x, coeff)` (store what backward needs on
        `ctx`), `@staticmethod def backward(ctx, grad)` returning one gradient per input
        (None for `coeff`), and call `GradReverse.apply(x, coeff)`.
    """
    invalid = [
        Invalid(  # thuml/MDD#6
            """
            import torch
            from torch.autograd import Function

            class GradientReverseLayer(Function):
                def __init__(self, coeff=1.0):
                    self.coeff = coeff

                def forward(self, input):
                    return input.view_as(input)

                def backward(self, grad_output):
                    return -self.coeff * grad_output

            feat = torch.randn(4, 8, requires_grad=True)
            GradientReverseLayer(0.1)(feat).sum().backward()
            """,
            line=8,
        ),
        Invalid(  # longcw/RoIAlign.pytorch#41: static methods, but an instance is called
            """
            import torch
            from torch.autograd import Function

            class LowerBound(Function):
                @staticmethod
                def forward(ctx, inputs, bound):
                    ctx.save_for_backward(inputs)
                    return inputs.clamp(min=bound)

                @staticmethod
                def backward(ctx, grad_output):
                    return grad_output, None

            class GDN(torch.nn.Module):
                def __init__(self):
                    super().__init__()
                    self.beta = torch.nn.Parameter(torch.ones(3))
                    self.lower = LowerBound()

                def forward(self, x):
                    return x / self.lower(self.beta, 1e-6)
            """,
            line=21,
        ),
    ]
    valid = [
        """
        import torch
        from torch.autograd import Function

        class GradientReverse(Function):
            @staticmethod
            def forward(ctx, input, coeff):
                ctx.coeff = coeff
                return input.view_as(input)

            @staticmethod
            def backward(ctx, grad_output):
                return -ctx.coeff * grad_output, None

        reverse = GradientReverse.apply
        feat = torch.randn(4, 8, requires_grad=True)
        reverse(feat, 0.1).sum().backward()
        GradientReverse.apply(feat, 0.5).sum().backward()
        """
    ]

    call_names = None  # an instance's call has no name

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        self._called: dict[int, cst.CSTNode] = {}  # class node -> the first call of an instance

    def on_call(self, ev: CallEvent) -> None:
        f = ev.func
        info = f.get(F.CLS) if f is not None and f.kind == K.INSTANCE else None
        if info is not None and getattr(info, "is_autograd_fn", False):
            self._called.setdefault(id(info.node), ev.node)
            return
        fn = f.get(F.FN) if f is not None and f.kind == K.FUNCTION else None
        owner = getattr(fn, "cls", None)
        node = ev.node.func
        if (fn is not None and fn.name == "forward" and owner is not None and owner.is_autograd_fn and fn.is_static
                and isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name) and node.value.value == owner.name
                and (ev.ctx.fn is None or ev.ctx.fn.cls is not owner)):
            # `GradReverse.forward(None, x, lambd)`: an ordinary call of the staticmethod
            self.report(ev.node, (
                f"this calls `{owner.name}.forward` directly: autograd records the operations inside it, not the Function, "
                f"so `{owner.name}.backward` never runs (a gradient reversal does not reverse; a straight-through estimator "
                f"gets the true, often zero, gradient); call `{owner.name}.apply(...)` without the ctx argument"))

    def finish(self) -> None:
        for info in self.ctx.interp.classes:
            if not info.is_autograd_fn:
                continue
            call = self._called.get(id(info.node))
            fwd = info.methods.get("forward")
            if fwd is not None and isinstance(fwd.node, cst.FunctionDef) and _legacy_forward(fwd):
                self.report(fwd.node, lambda line, name=info.name, call=call: (
                    f"`{name}.forward` is not a @staticmethod taking `ctx`: `{name}` is a legacy autograd Function"
                    f"{f' (an instance is called on line {line(call)})' if call is not None else ''}, which PyTorch 1.5+ "
                    f"refuses (RuntimeError \"Legacy autograd function with non-static forward method is deprecated\"); make "
                    f"forward and backward @staticmethods with `ctx` first, keep per-call settings on `ctx`, and call "
                    f"`{name}.apply(...)`"))
            elif call is not None:
                self.report(call, (
                    f"this calls an instance of the autograd Function `{info.name}`: RuntimeError \"Legacy autograd function "
                    f"with non-static forward method is deprecated\"; call `{info.name}.apply(...)` (its methods are static, "
                    f"the class is not instantiated)"))


def _legacy_forward(fn) -> bool:
    """`def forward(self, ...)` of a Function without @staticmethod: written for PyTorch < 1.5
    (a classmethod or a staticmethod taking `ctx` is the modern form)."""
    if fn.is_static or fn.is_classmethod:
        return False
    params = list(fn.node.params.params)
    return bool(params) and params[0].name.value == "self"


class CustomFunctionNonTensor(Rule):
    code = "GL513"
    message = "a custom autograd.Function saves or returns a non-tensor where autograd needs a tensor: TypeError/RuntimeError"
    severity = Severity.ERROR
    frameworks = ("torch",)
    docs = "https://pytorch.org/docs/stable/notes/extending.html#extending-torch-autograd"
    triggers = ("Function",)
    rationale = """
        `ctx.save_for_backward(...)` keeps tensors only (and None): a shape, a number or a
        NumPy array raises "save_for_backward can only save variables, but argument 1 is of
        type torch.Size". And `backward` must return tensors (or None): a gradient computed
        with NumPy and returned as an ndarray, or a Python float, raises "expected Variable or
        None (got numpy.ndarray)" on every backward pass.

        Instead: keep non-tensors as attributes of `ctx` (`ctx.shape = x.shape`), and convert
        a NumPy gradient back (`torch.from_numpy(g).to(grad_output)`).
    """
    invalid = [
        Invalid(
            """
            import torch

            class SumToScalar(torch.autograd.Function):
                @staticmethod
                def forward(ctx, x):
                    ctx.save_for_backward(x, x.shape)
                    return x.sum()

                @staticmethod
                def backward(ctx, g):
                    x, shape = ctx.saved_tensors
                    return g.expand(shape)
            """,
            line=6,
        ),
        Invalid(  # pytorch#16940
            """
            import numpy as np
            import torch

            class MySin(torch.autograd.Function):
                @staticmethod
                def forward(ctx, input):
                    ctx.save_for_backward(input)
                    return torch.from_numpy(np.sin(input.detach().numpy()))

                @staticmethod
                def backward(ctx, grad_output):
                    args = ctx.saved_tensors[0].detach().numpy()
                    return grad_output.numpy() * np.cos(args)
            """,
            line=13,
        ),
    ]
    valid = [
        """
        import numpy as np
        import torch

        class MySin(torch.autograd.Function):
            @staticmethod
            def forward(ctx, input, factor=1.0):
                ctx.save_for_backward(input, None)
                ctx.shape, ctx.factor = input.shape, factor
                return torch.from_numpy(np.sin(input.detach().numpy()))

            @staticmethod
            def backward(ctx, grad_output):
                input, _ = ctx.saved_tensors
                g = grad_output.numpy() * np.cos(input.detach().numpy())
                return torch.from_numpy(g).reshape(ctx.shape), None
        """
    ]

    call_names = None  # NumPy calls too (`np.cos`, however imported)

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        self._np_calls: set[int] = set()  # NumPy function calls, however the module is imported
        self._numbers: dict[str, dict[int, cst.CSTNode]] = {}  # class name -> inputs that are numbers at every call

    def on_call(self, ev: CallEvent) -> None:
        if ev.qual is not None and ev.qual.split(".", 1)[0] == "numpy":
            self._np_calls.add(id(ev.node))
            return
        applied = _applied_class(ev)
        if applied is not None:
            _note_number_inputs(self._numbers, applied, ev)
            return
        fn = ev.ctx.fn
        if ev.method != "save_for_backward" or fn is None or fn.cls is None or not fn.cls.is_autograd_fn:
            return
        for node, v in zip(ev.arg_nodes, ev.args):
            what = _non_tensor(v, node)
            if what is not None:
                self.report(node, (
                    f"`ctx.save_for_backward` saves tensors only: `{self.ctx.code(node)}` is {what}, so the forward "
                    f"raises TypeError \"save_for_backward can only save variables\"; keep it on ctx instead "
                    f"(`ctx.{_attr_name(node)} = ...`)"))
                return

    def finish(self) -> None:
        """`PowerAct.apply(h, 3)` with `ctx.save_for_backward(x, p)`: the forward analysed on
        its own cannot know `p` is a number; the calls say so."""
        for info in self.ctx.interp.classes:
            numbers = self._numbers.get(info.name) if info.is_autograd_fn else None
            fwd = info.methods.get("forward") if numbers else None
            if fwd is None or not fwd.is_static or not isinstance(fwd.node, cst.FunctionDef):
                continue
            saved = function_saves(info).inputs
            hit = min((i for i in numbers if i in saved), default=None)
            if hit is not None:
                node, call = saved[hit], numbers[hit]
                self.report(node, lambda line, node=node, call=call: (
                    f"`ctx.save_for_backward` saves tensors only: `{self.ctx.code(node)}` is a Python number at the call "
                    f"on line {line(call)}, so the forward raises TypeError \"save_for_backward can only save variables\"; "
                    f"keep it on ctx instead (`ctx.{_attr_name(node)} = ...`)"))

    def on_function(self, ev) -> None:
        fn = ev.fn
        if ev.kind != "standalone" or fn.name != "backward" or fn.cls is None or not fn.cls.is_autograd_fn:
            return
        bindings = _single_bindings(fn.node)
        for ret in walk_own_body(fn.node):
            if not isinstance(ret, cst.Return) or ret.value is None:
                continue
            elems = [e.value for e in ret.value.elements] if isinstance(ret.value, cst.Tuple) else [ret.value]
            for i, e in enumerate(elems):
                what = _returned_non_tensor(e, ev.returns, len(elems), i, bindings, self._np_calls)
                if what is not None:
                    self.report(e, (
                        f"`{fn.cls.name}.backward` returns {what} as a gradient: autograd takes tensors (or None), so every "
                        f"backward pass raises RuntimeError \"expected Variable or None\"; convert it back "
                        f"(`torch.from_numpy(...).to(grad_output)`)"))
                    return


def _attr_name(node) -> str:
    """A name for the ctx attribute that should hold `node` (`x.shape` -> `shape`)."""
    if isinstance(node, cst.Attribute):
        return node.attr.value
    if isinstance(node, cst.Name):
        return node.value
    return "saved"


def _non_tensor(v, node) -> str | None:
    """What `v` is when certainly not a tensor nor None: a shape, a number, a NumPy array."""
    if isinstance(node, (cst.Integer, cst.Float, cst.SimpleString)):
        return "a constant"
    return _kind_words(v)


def _kind_words(v) -> str | None:
    return {K.META: "a shape/size (not a tensor)", K.NDARRAY: "a NumPy array", K.NUMBER: "a Python number"}.get(v.kind)


def _returned_non_tensor(node, returns, n: int, i: int, bindings: dict, np_calls: set[int]) -> str | None:
    """What the i-th of n returned gradients is when certainly not a tensor: what the analysis
    computed for it (an ndarray, a Python number), or what its syntax proves (`_host_value`)."""
    if n == 1:
        what = _kind_words(returns)
    else:
        items = returns.get(F.ITEMS)
        what = _kind_words(items[i]) if items is not None and len(items) == n else None
    if what is None:
        host = _host_value(node, bindings, np_calls)
        what = {"ndarray": "a NumPy array", "number": "a Python number"}.get(host or "")
    return what


def _host_value(node, bindings: dict, np_calls: set[int], depth: int = 0) -> str | None:
    """"ndarray" / "number" when `node` certainly computes a NumPy array or a Python number
    (never a tensor): `.numpy()` (and its `.T`), `.item()`, a NumPy function (`np_calls`: the
    calls whose callee resolved to numpy), a number literal, arithmetic of those, a name bound
    once to one of them. None when not certain."""
    if depth > 8:
        return None
    if isinstance(node, (cst.Integer, cst.Float)):
        return "number"
    if isinstance(node, cst.UnaryOperation):
        return _host_value(node.expression, bindings, np_calls, depth + 1)
    if isinstance(node, cst.Attribute) and node.attr.value in ("T", "real") and _host_value(node.value, bindings, np_calls, depth + 1) == "ndarray":
        return "ndarray"
    if isinstance(node, cst.Call):
        f = node.func
        if isinstance(f, cst.Attribute) and f.attr.value in ("numpy", "item") and not node.args:
            return "ndarray" if f.attr.value == "numpy" else "number"
        return "ndarray" if id(node) in np_calls else None
    if isinstance(node, cst.BinaryOperation):
        left, right = _host_value(node.left, bindings, np_calls, depth + 1), _host_value(node.right, bindings, np_calls, depth + 1)
        if left is None or right is None:
            return None
        return "ndarray" if "ndarray" in (left, right) else "number"
    if isinstance(node, cst.Name) and node.value in bindings:
        return _host_value(bindings[node.value], bindings, np_calls, depth + 1)
    return None


def _single_bindings(fn: cst.FunctionDef) -> dict:
    """Names bound exactly once in `fn` by a plain `name = value`: name -> value."""
    counts: dict[str, int] = {}
    values: dict = {}
    for n in walk(fn.body, code_only=True):
        if isinstance(n, cst.Assign):
            for t in n.targets:
                for name in walk(t.target, code_only=True):
                    if isinstance(name, cst.Name):
                        counts[name.value] = counts.get(name.value, 0) + 1
                if isinstance(t.target, cst.Name):
                    values[t.target.value] = n.value
        elif isinstance(n, (cst.AugAssign, cst.AnnAssign, cst.For, cst.NamedExpr, cst.With, cst.CompFor)):
            for name in walk(getattr(n, "target", None) or n, code_only=True) if not isinstance(n, cst.With) else ():
                if isinstance(name, cst.Name):
                    counts[name.value] = counts.get(name.value, 0) + 2
    return {k: v for k, v in values.items() if counts.get(k) == 1}


class InplaceInputWithoutMarkDirty(Rule):
    code = "GL514"
    message = ("a custom autograd.Function modifies in place a tensor autograd handed it (an input in forward without "
               "ctx.mark_dirty(), grad_output in backward): wrong gradients or RuntimeError")
    severity = Severity.WARNING
    frameworks = ("torch",)
    docs = "https://pytorch.org/docs/stable/generated/torch.autograd.function.FunctionCtx.mark_dirty.html"
    triggers = ("Function",)
    rationale = """
        Autograd must be told about every input a custom Function's `forward` modifies in
        place (`ctx.mark_dirty(x)`): otherwise the version checks that protect tensors saved
        for backward do not see the change, so gradients through earlier uses of the input are
        silently wrong, a Parameter given to the Function is changed by every forward, and an
        output that is the input itself raises "Output 0 of CustomOpBackward is a view and is
        being modified inplace" when the caller changes it (pytorch#30454).

        gradlint reports an in-place method (`x.mul_(2)`, `x.clamp_(0)`) on a parameter of
        `forward`, or `x *= 2` / `x[m] = 0` on one that forward saves or returns (a tensor), that
        is not rebound first (`x = x.clone()`) nor marked dirty.

        The same holds in `backward` for the incoming gradient: `grad_output *= 2` or
        `grad_output[x < 0] = 0` writes into a buffer autograd may share with another branch
        of the graph (whose inputs then get a wrong gradient, silently) or that is an expanded
        view when the loss is a `.sum()`/`.mean()` (RuntimeError "more than one element of the
        written-to tensor refers to a single memory location", pytorch#30454).

        Instead: work on a copy (`out = x.clone(); out.mul_(2)`, `grad_input =
        grad_output.clone()`), or call `ctx.mark_dirty(x)` and return `x`.
    """
    invalid = [
        Invalid(  # pytorch#30454
            """
            import torch

            class CustomOp(torch.autograd.Function):
                @staticmethod
                def forward(ctx, x):
                    x *= 2.0
                    return x

                @staticmethod
                def backward(ctx, grad_output):
                    return grad_output * 2.0
            """,
            line=6,
        )
    ]
    valid = [
        """
        import torch

        class Scale(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                ctx.mark_dirty(x)
                x.mul_(2.0)
                return x

            @staticmethod
            def backward(ctx, grad_output):
                return grad_output * 2.0

        class ReLU6(torch.autograd.Function):
            @staticmethod
            def forward(ctx, inp):
                ctx.save_for_backward(inp)
                out = inp.clone()
                out.clamp_(min=0, max=6)
                return out

            @staticmethod
            def backward(ctx, grad_output):
                (inp,) = ctx.saved_tensors
                grad_input = grad_output.clone()
                grad_input[(inp < 0) | (inp > 6)] = 0
                return grad_input
        """
    ]

    def finish(self) -> None:
        for info in self.ctx.interp.classes:
            fwd = info.methods.get("forward") if info.is_autograd_fn else None
            if fwd is None or not fwd.is_static or not isinstance(fwd.node, cst.FunctionDef):
                continue
            site = _unmarked_inplace_input(fwd.node)
            if site is not None:
                node, name = site
                self.report(node, (
                    f"`{info.name}.forward` modifies its input `{name}` in place without `ctx.mark_dirty({name})`: autograd's "
                    f"checks do not see the change, so gradients through earlier uses of `{name}` are wrong (and an output "
                    f"that is `{name}` itself raises when changed in place later); work on `{name}.clone()`, or mark it dirty"))
            bwd = info.methods.get("backward")
            if bwd is None or not bwd.is_static or not isinstance(bwd.node, cst.FunctionDef):
                continue
            site = _unmarked_inplace_input(bwd.node, all_tensors=True)
            if site is not None:
                node, name = site
                self.report(node, (
                    f"`{info.name}.backward` modifies the incoming gradient `{name}` in place: autograd may share that buffer "
                    f"with other branches of the graph (which then get a wrong gradient) or hand an expanded one (after a "
                    f"`.sum()`/`.mean()`: RuntimeError \"more than one element of the written-to tensor refers to a single "
                    f"memory location\"); compute on `{name}.clone()` or out of place"))


_NOT_INPLACE = frozenset({"requires_grad_", "retain_grad_", "share_memory_"})


def _unmarked_inplace_input(fwd: cst.FunctionDef, all_tensors: bool = False) -> tuple[cst.CSTNode, str] | None:
    """The first in-place change of a tensor parameter of a Function's static forward (`ctx`
    aside) that is neither rebound before it nor passed to `ctx.mark_dirty`, and its name.
    `all_tensors`: every parameter is a tensor (backward's incoming gradients)."""
    params = [p.name.value for p in list(fwd.params.params)[1:]]
    if not params:
        return None
    marked: set[str] = set()
    tensors: set[str] = set()  # saved for backward or returned: certainly tensors
    rebound: dict[str, int] = {}  # name -> line-order index of its first rebinding
    sites: list[tuple[int, cst.CSTNode, str, bool]] = []  # (order, node, name, needs tensor evidence)

    for order, n in enumerate(walk_own_body(fwd)):
        if isinstance(n, cst.Call) and isinstance(n.func, cst.Attribute):
            meth, recv = n.func.attr.value, n.func.value
            if meth in ("mark_dirty", "save_for_backward"):
                names = {a.value.value for a in n.args if isinstance(a.value, cst.Name)}
                (marked if meth == "mark_dirty" else tensors).update(names)
            elif isinstance(recv, cst.Name) and recv.value in params and in_place_name(meth) and meth not in _NOT_INPLACE:
                sites.append((order, n, recv.value, False))
        elif isinstance(n, cst.Return) and n.value is not None:
            for e in walk(n.value, code_only=True):
                if isinstance(e, cst.Name):
                    tensors.add(e.value)
        elif isinstance(n, cst.AugAssign) and isinstance(n.target, cst.Name) and n.target.value in params:
            sites.append((order, n, n.target.value, True))
        elif isinstance(n, cst.Assign):
            for t in n.targets:
                if isinstance(t.target, cst.Subscript) and isinstance(t.target.value, cst.Name) and t.target.value.value in params:
                    sites.append((order, n, t.target.value.value, True))
                for nm in walk(t.target, code_only=True):
                    if isinstance(nm, cst.Name) and isinstance(t.target, (cst.Name, cst.Tuple, cst.List)):
                        rebound.setdefault(nm.value, order)
        elif isinstance(n, (cst.For, cst.NamedExpr, cst.AnnAssign)):
            for nm in walk(n.target, code_only=True):
                if isinstance(nm, cst.Name):
                    rebound.setdefault(nm.value, order)
    for order, node, name, needs_tensor in sites:
        if name in marked or rebound.get(name, order + 1) < order or needs_tensor and not all_tensors and name not in tensors:
            continue
        return node, name
    return None


# the workaround the error message's threads give: cuDNN off for the RNN (its CPU/native
# kernels have a backward in eval mode too)
_CUDNN_OFF = re.compile(r"cudnn\.enabled\s*=\s*False|cudnn\.flags\(\s*enabled\s*=\s*False")


class RnnBackwardInEvalMode(Rule):
    code = "GL515"
    message = "backward through an nn.LSTM/GRU/RNN whose forward ran in eval mode: cuDNN raises \"cudnn RNN backward can only be called in training mode\""
    severity = Severity.ERROR
    docs = "https://pytorch.org/docs/stable/generated/torch.nn.LSTM.html"
    triggers = ("eval", "train(")
    rationale = """
        On CUDA, `nn.LSTM`, `nn.GRU` and `nn.RNN` run cuDNN kernels, and cuDNN implements the
        RNN backward only for a forward pass made in training mode. A model put in `eval()`
        mode (to switch dropout off) and then differentiated — dynamic evaluation, test-time
        adaptation, an adversarial attack or a saliency map computed on a trained text model —
        raises "cudnn RNN backward can only be called in training mode" at `backward()` /
        `autograd.grad` (pytorch/pytorch#5878). On the CPU the same code runs, which is why it
        passes locally.

        Instead: call `model.train()` before the forward pass that is differentiated (set the
        dropout probabilities to 0 if it must behave as in evaluation), or run that forward
        with cuDNN disabled: `with torch.backends.cudnn.flags(enabled=False):`.
    """
    invalid = [
        Invalid(
            """
            import torch
            import torch.nn as nn
            model = nn.LSTM(8, 16, batch_first=True).cuda()
            model.eval()
            x = torch.randn(4, 10, 8, device="cuda", requires_grad=True)
            out, _ = model(x)
            out[:, -1].sum().backward()
            saliency = x.grad.abs()
            """,
            line=7,
        )
    ]
    valid = [
        """
        import torch
        import torch.nn as nn
        model = nn.LSTM(8, 16, batch_first=True).cuda()
        model.eval()
        x = torch.randn(4, 10, 8, device="cuda", requires_grad=True)
        with torch.no_grad():
            preds, _ = model(x)
        model.train()
        out, _ = model(x)
        out[:, -1].sum().backward()
        """,
        """
        import torch
        import torch.nn as nn
        model = nn.LSTM(8, 16, batch_first=True).cuda()
        model.eval()
        x = torch.randn(4, 10, 8, device="cuda", requires_grad=True)
        with torch.backends.cudnn.flags(enabled=False):
            out, _ = model(x)
        out[:, -1].sum().backward()
        """,
    ]

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        text = ctx.source.text
        self._enabled = "cuda" in text and not _CUDNN_OFF.search(text)
        self._modes: list = []  # (run, seq, origins, training?) of train()/eval() calls

    def on_call(self, ev: CallEvent) -> None:
        if not self._enabled:
            return
        func = ev.func
        if ev.method in ("eval", "train") and ev.recv is not None and ev.recv.kind == K.MODULE:
            flag = ev.arg(0, "mode")
            c = flag.get(F.CONST) if flag is not None else True
            if isinstance(c, bool) or ev.method == "eval":
                self._modes.append((ev.ctx.run, ev.seq, frozenset(o for o in ev.recv.live if o.certain), ev.method == "train" and c))
            return
        if func is None or func.kind != K.MODULE or func.get(F.QUAL_NEW) not in TORCH_RNN_CLASSES or not ev.result.live:
            return
        if ev.ctx.grad != "on":
            return
        rnn = frozenset(o for o in func.live if o.certain)
        if not rnn:
            return
        holders = frozenset().union(rnn, *(self.ctx.interp.holders_of(o) for o in rnn))
        last = None
        for run, seq, origins, training in self._modes:
            if run == ev.ctx.run and seq < ev.seq and origins & holders and (last is None or seq > last[0]):
                last = (seq, training)
        if last is not None and not last[1]:
            ev.add_note(Note("rnn_eval", ev.node))

    def on_diff(self, ev: DiffEvent) -> None:
        if ev.kind not in ("backward", "autograd_grad"):
            return
        for n in ev.target.sorted_notes("rnn_eval"):
            self.report(
                ev.node,
                lambda line, fwd=n.node: (
                    f"this backward goes through the recurrent layer called on line {line(fwd)} while its model was in "
                    "eval mode: on CUDA, cuDNN raises \"cudnn RNN backward can only be called in training mode\"; call "
                    "model.train() before that forward pass (dropout p=0 if needed), or run it under "
                    "`torch.backends.cudnn.flags(enabled=False)`"
                ),
            )
            return


class JaxReverseModeWhileLoop(Rule):
    code = "GL516"
    message = "reverse-mode differentiation through jax.lax.while_loop (or a fori_loop with traced bounds): ValueError"
    severity = Severity.ERROR
    frameworks = ("jax",)
    docs = "https://docs.jax.dev/en/latest/_autosummary/jax.lax.while_loop.html"
    triggers = ("while_loop", "fori_loop")
    rationale = """
        `jax.lax.while_loop` runs an unknown number of iterations, so JAX cannot store what
        the backward pass would need: `jax.grad`, `value_and_grad`, `jax.vjp`, `jacrev` and
        `hessian` of a function whose result goes through one raise "Reverse-mode
        differentiation does not work for lax.while_loop or lax.fori_loop with dynamic
        start/stop values". `lax.fori_loop` is lowered to a while_loop when its bounds are
        traced: under `jax.jit(jax.grad(f))` a trip count passed as an argument is a tracer.
        Forward mode (`jax.jvp`, `jacfwd`) works; a loop that does not depend on the
        differentiated arguments (through its initial value or what its body closes over) is
        not differentiated and is fine.

        Instead: `jax.lax.scan` over a fixed number of steps (masking the steps after
        convergence), a `fori_loop` with static bounds (`static_argnums` for the trip count),
        or a `jax.custom_vjp` that differentiates the fixed point implicitly.
    """
    invalid = [
        Invalid(
            """
            import jax
            import jax.numpy as jnp
            def rollout_cost(x, A):
                def body(carry):
                    t, h, cost = carry
                    h = A @ h
                    return t + 1, h, cost + jnp.sum(h ** 2)
                _, _, cost = jax.lax.while_loop(lambda c: c[0] < 10, body, (0, x, 0.0))
                return cost
            g = jax.grad(rollout_cost)(jnp.ones(2), jnp.eye(2) * 0.5)
            """,
            line=8,
        )
    ]
    valid = [
        """
        import jax
        import jax.numpy as jnp
        def rollout_cost(x, A):
            def body(carry, _):
                h, cost = carry
                h = A @ h
                return (h, cost + jnp.sum(h ** 2)), None
            (_, cost), _ = jax.lax.scan(body, (x, 0.0), None, length=10)
            return cost
        def power(x, n):
            return jax.lax.fori_loop(0, n, lambda i, acc: acc * x, 1.0)
        g = jax.grad(rollout_cost)(jnp.ones(2), jnp.eye(2) * 0.5)
        print(jax.grad(power)(2.0, 3), jax.jacfwd(rollout_cost)(jnp.ones(2), jnp.eye(2)))
        """
    ]

    call_names = frozenset({"while_loop", "fori_loop"})

    def on_call(self, ev: CallEvent) -> None:
        tr = ev.ctx.traced
        if tr is None or not tr.reverse or ev.qual not in ("jax.lax.while_loop", "jax.lax.fori_loop"):
            return
        if not (ev.result.live & tr.reverse):
            return  # the loop does not depend on what is differentiated
        if ev.qual == "jax.lax.fori_loop":
            # static bounds: JAX lowers it to a scan, which reverse mode differentiates
            if not any(holds_tracer(b, tr.kind == "jit") for b in (ev.arg(0, "lower"), ev.arg(1, "upper"))):
                return
            what = "jax.lax.fori_loop with a traced trip count (a tracer under jit, so it becomes a while_loop)"
        else:
            what = "jax.lax.while_loop"
        self.report(
            ev.node,
            f"{what} inside a function differentiated in reverse mode (jax.grad, value_and_grad, vjp, jacrev), and its result "
            "depends on the differentiated arguments: JAX raises \"Reverse-mode differentiation does not work for "
            "lax.while_loop or lax.fori_loop with dynamic start/stop values\"; use jax.lax.scan over a fixed number of steps, "
            "a fori_loop with static bounds (static_argnums), or forward mode (jax.jacfwd)",
        )
