"""GL1xx graph breaks: a value leaves the autograd graph on its way to what is differentiated.

Why this module is long: it is a catalogue of 12 rules, one class each, and a rule class is
its own specification (rationale, flagged and correct examples, fix); the logic of a rule is a
few dozen lines. Adding a rule adds a class here (see docs/architecture.md).
"""

from __future__ import annotations

import re

import libcst as cst

from ..analysis import facts as F
from ..analysis import kinds as K
from ..analysis.frameworks.jax import holds_tracer
from ..analysis.frameworks.numpy import DEFER_TO_METHOD
from ..analysis.frameworks.torch import is_loss_function
from ..analysis.frameworks.python import BUILTIN_CASTS
from ..analysis.frameworks.tensorflow import (
    KERAS_BACKEND_GRADIENTS, KERAS_GRAPH_METHODS, KERAS_INPUT, KERAS_SYMBOLIC_NOTE, KERAS_TO_NUMPY, RUNS_EAGERLY, TF1_GRAPH_MODE,
    TF_NUMPY_FUNCTION, traced_by_tf_function,
)
from ..analysis.events import AssignEvent, CallEvent, DiffEvent, StoreEvent, UseEvent
from ..analysis.values import EMPTY, REWRAP, Cut, Note, Val
from ..analysis.names import dotted_name
from ..analysis.queries import certainly_requires_grad, dtype_named
from ..analysis.walk import callee_last, own_small_statements, walk
from ..diagnostics import Applicability, Severity
from ._flow import (
    BackwardLog,
    SecondOrder,
    StarvedOrigins,
    backward_seed_given,
    behind_graph_check,
    carried_from_earlier_iteration,
    hidden_from_inspection,
    TORCH_DIFF,
    TORCH_GRAPH_DIFF,
    diff_phrase,
    HARD_CONVERSIONS,
    NO_GRAD,
    SOFT_DETACH,
    call_name,
    certain_cuts,
    rewrapped_leaves,
    origin_name,
    source_items,
    trained_forward,
)
from .base import Family, Invalid, NodeEdit, Rule, RuleFix

FAMILY = Family("GL1", "graph breaks")

_TORCH_TRIGGERS = ("backward", "autograd", "training_step")

_HOW = {
    "numpy": ("`.numpy()`", "keep the computation in torch operations"),
    "item": ("`.item()`", "keep it a tensor (drop `.item()`), or call `.detach()` if a constant is really intended"),
    "tolist": ("`.tolist()`", "keep it a tensor"),
    "float": ("`float()`", "keep it a tensor (drop `float()`), or call `.detach()` if a constant is really intended"),
    "int": ("`int()`", "keep it a tensor"),
    "bool": ("`bool()`", "keep it a tensor"),
    "np_call": ("a NumPy function", "use the torch equivalent (torch.mean, torch.log, ...)"),
    "math_call": ("a `math` function", "use the torch equivalent (torch.exp, torch.log, ...)"),
    "predict": ("`model.predict()`", "call the model directly: `model(x, training=True)`"),
    "numpy_function": ("`tf.numpy_function`", "it has no gradient: write the computation with TensorFlow ops"),
    "keras_to_numpy": ("a conversion to NumPy", "keep the value a tensor (`keras.ops`/`tf` operations)"),
}


def _detaches(node) -> bool:
    """The converted expression itself detaches (`x.detach().cpu().numpy()`, `np.exp(x.data)`)."""
    return any(isinstance(n, cst.Attribute) and n.attr.value in ("detach", "detach_", "data") for n in walk(node, code_only=True))


def _describe(cut, origin=None) -> tuple[str, str]:
    what, instead = _HOW.get(cut.kind, ("this conversion", "keep the value in the framework"))
    if cut.kind == "keras_to_numpy" and isinstance(cut.node, cst.Call):
        what = f"`{call_name(cut.node)}`, a conversion to NumPy,"
    if cut.kind == "np_call" and isinstance(cut.node, cst.Call):
        what = f"`{call_name(cut.node)}`"
        name = call_name(cut.node).split(".")[-1].rstrip("()")
        torch_eq = {"mean": "torch.mean", "sum": "torch.sum", "log": "torch.log", "exp": "torch.exp", "cosh": "torch.cosh", "abs": "torch.abs", "sqrt": "torch.sqrt", "maximum": "torch.maximum", "clip": "torch.clamp", "square": "torch.square", "dot": "torch.dot", "matmul": "torch.matmul", "array": "torch.stack", "asarray": "torch.as_tensor"}
        if name in torch_eq:
            instead = f"use `{torch_eq[name]}` instead"
    if cut.kind in ("numpy", "np_call") and not cut.detached and not _detaches(cut.node) and origin is not None \
            and origin.certain and not origin.frozen and origin.framework == "torch":
        # applied to the tensor itself (not after a detach): it requires grad, and torch refuses
        # to hand NumPy its data (`t.numpy()`, and NumPy's functions, which call `t.__array__()`)
        instead += (" (as written it raises first: \"Can't call numpy() on Tensor that requires grad\")")
    return what, instead


class ConversionOnLossPath(Rule):
    code = "GL101"
    message = "a tensor with autograd history is converted to NumPy or a Python number on its way to the loss: its gradient silently stops"
    severity = Severity.ERROR
    docs = "https://pytorch.org/docs/stable/notes/faq.html"
    triggers = _TORCH_TRIGGERS
    rationale = """
        `.numpy()`, `.item()`, `.tolist()`, `float()`, `int()` and NumPy functions turn a tensor
        into a value autograd cannot see. When the result still flows into the loss that is
        differentiated (often re-wrapped with `torch.tensor(..., requires_grad=True)` so that
        `backward()` "works"), the terms computed that way contribute nothing to the gradient:
        the model trains on a different objective than the one printed, or not at all.

        gradlint reports the conversion only when its input has autograd history (it depends on
        a module, a parameter or a tensor that requires grad) *and* its result reaches a
        `backward()` / `torch.autograd.grad` call. Conversions for logging or metrics after the
        backward pass are fine, and so is a detached copy converted into a weight that multiplies
        a term trained on its own (an advantage computed in NumPy from the critic's values, an
        importance or priority weight): the constant is the point there. So is a converted value
        used as the *target* a prediction of the same model is compared with (a bootstrapped TD
        target, PPO's old log-probability), and one the model is fed as data by the very loss
        that trains it (an action sent to the environment comes back in the next observation).

        Instead: keep the computation in torch operations (`torch.log(torch.cosh(p - t)).mean()`),
        or call `.detach()` explicitly where a constant is really intended.
    """
    invalid = [
        Invalid(
            """
            import numpy as np
            import torch

            model = torch.nn.Linear(8, 1)
            def log_cosh(pred, target):
                p = pred.detach().cpu().numpy()
                return torch.tensor(np.mean(np.log(np.cosh(p - target.numpy()))), requires_grad=True)

            loss = log_cosh(model(torch.randn(4, 8)), torch.randn(4, 1))
            loss.backward()
            """,
            line=6,
        ),
        Invalid(
            """
            import torch
            model = torch.nn.Linear(20, 5)
            logits = model(torch.randn(8, 20))
            reg = float(sum(p.norm() ** 2 for p in model.parameters()))
            loss = logits.logsumexp(1).mean() + 1e-3 * reg
            loss.backward()
            """,
            line=4,
        ),
    ]
    valid = [
        """
        import torch
        model = torch.nn.Linear(20, 1)
        history = []
        for step in range(10):
            out = model(torch.randn(8, 20))
            loss = out.pow(2).mean()
            loss.backward()
            history.append(loss.item())
            scores = out.detach().cpu().numpy()
        """,
        """
        import torch
        model = torch.nn.Linear(20, 1)
        x = torch.randn(8, 20)
        mask = (x.sum(1) > 0).float()
        n = float(mask.sum())
        loss = (model(x).squeeze(1) * mask).sum() / max(n, 1.0)
        loss.backward()
        """,
    ]

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        self._log = BackwardLog()
        # the differentiations and inspections with their (origin, cut) pairs, judged at the end
        # (when the steps after each are known); the pairs taken at the time, as what is frozen
        # changes later (`requires_grad(discriminator, False)` for the generator's turn)
        self._pending: list = []
        self._weights: set[int] = set()  # hard cuts (ids) that make a term's own weight (`_weighting`)
        self._stored: set[int] = set()  # hard cuts (ids) of values kept in a container (a replay buffer)

    def on_opt(self, ev) -> None:
        self._log.opt(ev)

    def on_binop(self, ev) -> None:
        if ev.op in ("*", "/"):
            self._weighting(ev.left, ev.right)
            self._weighting(ev.right, ev.left)
        elif ev.op == "-":
            self._compared(ev, ev.left, ev.right)
            self._compared(ev, ev.right, ev.left)

    def on_call(self, ev) -> None:
        if ev.name in ("mul", "div", "multiply", "divide", "true_divide"):
            vals = ([ev.recv] if ev.method is not None and ev.recv is not None else []) + list(ev.args)
            if len(vals) == 2:
                self._weighting(vals[0], vals[1])
                self._weighting(vals[1], vals[0])
        func = ev.func
        if len(ev.args) >= 2 and (ev.qual is not None and is_loss_function(ev.qual) or func is not None and func.get(F.LOSS_MODULE)):
            self._compared(ev, ev.args[0], ev.args[1])
            self._compared(ev, ev.args[1], ev.args[0])
        elif func is not None and ev.qual is None and (func.kind == K.MODULE or func.kind == K.BOUND and (func.get(F.SELF) or EMPTY).kind == K.MODULE):
            fed = frozenset(id(c) for a in list(ev.args) + list(ev.kwargs.values()) for _, c in a.cuts if c.hard)
            if fed:
                # on the module's output: only a loss computed from that output counts
                ev.add_note(Note(_FED, ev.node, fed, through_cuts=True))

    def on_store(self, ev) -> None:
        if ev.kind in ("append", "item"):
            self._stored.update(id(c) for _, c in ev.value.cuts if c.hard)

    def _compared(self, ev, prediction: Val, target: Val) -> None:
        """`prediction - target` or `loss_fn(prediction, target)` where the target was converted
        from the output of a model that the prediction is computed by: a bootstrapped target
        (`r + gamma * v(s_next).item()` against `v(s)`) or PPO's old log-probability is a
        constant on purpose (semi-gradient): the prediction carries the model's gradient. Only a
        constant converted from *another* forward pass (of another input, or an earlier one):
        a term of one formula over the same outputs (`-0.5 * np.log(var) - (x - mu) ** 2 / var`)
        is differentiated through, and the conversion starves it."""
        if not target.cuts or not any(o.certain for o in prediction.live) or any(o.certain for o in target.live):
            return
        interp = self.ctx.interp
        ids = frozenset(id(c) for o, c in target.cuts
                        if c.hard and o.certain and c.converted and not (c.converted & prediction.graphs)
                        and interp.parts_of(o) & prediction.live)
        if ids:
            # on the comparison's result: only a loss computed from it counts (the target
            # compared there may also be backpropagated on its own)
            ev.add_note(Note(_TARGET, ev.node, ids, through_cuts=True))

    def _weighting(self, term: Val, weight: Val) -> None:
        """`term * w` where w is made from a detached copy (`x.detach().cpu().numpy()`) and the
        term is trained on its own: the conversion makes a constant weight on purpose. Of the
        term's own history (importance weights, prioritized replay, focal terms; in this
        iteration or, through a priority buffer, an earlier one), or of another model's: an
        advantage computed in NumPy from the critic's values (GAE in PPO, A2C's bootstrapped
        returns) weights the actor's log-probabilities, which carry the gradient. (A summand is
        not a weight: a VAE's `bce.detach().numpy()` added to its KL term stays reported.)"""
        if not any(o.certain and o.framework == "torch" for o in term.live) or not weight.cuts:
            return
        if any(o.certain for o in weight.live):
            return  # not a constant: trained through this factor too (`emb @ emb.T` of a copy)
        for _, c in weight.cuts:
            if c.hard and c.detached:
                self._weights.add(id(c))

    def on_diff(self, ev: DiffEvent) -> None:
        self._log.diff(ev)
        if ev.kind in TORCH_DIFF:
            self._note(ev)

    def on_inspect(self, ev) -> None:
        self._note(ev)

    def _note(self, ev) -> None:
        cuts = certain_cuts(ev.target, HARD_CONVERSIONS, framework="torch")
        if cuts:
            self._pending.append((ev, cuts))

    def finish(self) -> None:
        for ev, cuts in self._pending:
            self._report_cuts(ev, cuts)

    def on_function(self, ev) -> None:
        """The output of a PyTorch model's forward() that nothing in the file calls is trained
        wherever the model is (`def fit(model, ...)`, another module): a conversion there that
        cuts one of the model's own parameters starves it as surely as one before a backward
        in the file. Only an output that still carries another of its parameters (the model
        is trained through it: not an inference wrapper that returns NumPy boxes)."""
        if ev.kind != "standalone" or ev.ctx.grad != "on" or not trained_forward(ev.fn):
            return
        if not any(o.certain and not o.frozen for o in ev.returns.live):
            return
        for o, c in certain_cuts(ev.returns, HARD_CONVERSIONS, framework="torch"):
            what, instead = _describe(c, o)
            who = origin_name(o)
            self.report(
                c.node,
                f"{what} turns a tensor with autograd history into a value autograd cannot see, and the result flows into "
                f"what `forward()` returns, the output the model is trained on: no gradient reaches {who} through it; {instead}",
            )

    def _report_cuts(self, ev, cuts: list) -> None:
        for o, c in cuts:
            if o.weak and _converts_call_of(c.node, o.label):
                continue  # `float(schedule(progress))`: proven a module only by being called
            if id(c) in self._weights or _noted(ev.target, _TARGET, c):
                continue  # `per_sample * w`, `v(s) - td_target`: a constant by design
            parts = self.ctx.interp.parts_of(o)
            if (id(c) in self._stored and _noted(ev.target, _FED, c) and parts & ev.target.live
                    and c.converted and not (c.converted & ev.target.graphs)):
                # `env.step(a.item())`, kept in a replay buffer ... `pi(s_next)`: data from
                # another forward pass (the rollout's) for the model this loss trains; not a
                # translated image fed back in the same pass (`enc(tensor(dec(c).detach().numpy()))`)
                continue
            if self._log.trained_by_another_loss(ev, o, parts, self.ctx.interp.holders_of(o)):
                continue  # SAC's `alpha = log_alpha.exp().item()` in the actor's loss
            if carried_from_earlier_iteration(self.ctx, ev, c.node) or not hidden_from_inspection(self.ctx, ev, c.node):
                continue
            what, instead = _describe(c, o)
            who = origin_name(o)
            self.report(
                c.node,
                lambda line, what=what, instead=instead, who=who, ev=ev: (
                    f"{what} turns a tensor with autograd history into a value autograd cannot see, and the result "
                    f"flows into {diff_phrase(ev, line)}: no gradient reaches {who} through it; {instead}"
                ),
            )


# notes GL101 puts on the values a conversion reaches a loss through by design (data: cut ids)
_TARGET = "gl101_compared_target"  # the result of `prediction - target` / `loss_fn(prediction, target)`
_FED = "gl101_fed_to_module"  # the output of a module fed the converted value


def _noted(v: Val, kind: str, c) -> bool:
    return any(n.kind == kind and id(c) in n.data for n in v.notes)


def _converts_call_of(node, label: str) -> bool:
    """`float(f(x))` / `f(x).item()`: the conversion is applied directly to a call of `label`
    (a name or an attribute `self.label`)."""
    if not isinstance(node, cst.Call):
        return False
    f = node.func
    inner = f.value if isinstance(f, cst.Attribute) else node.args[0].value if node.args else None
    if not isinstance(inner, cst.Call):
        return False
    return callee_last(inner) == label


class TensorFromTensors(Rule):
    code = "GL102"
    message = "torch.tensor() copies the values of tensors with autograd history into a new leaf: the graph is dropped"
    severity = Severity.ERROR
    docs = "https://pytorch.org/docs/stable/generated/torch.tensor.html"
    triggers = _TORCH_TRIGGERS
    fix_applicability = Applicability.SAFE
    rationale = """
        `torch.tensor([t1, t2])`, `torch.as_tensor(...)`, `torch.Tensor(t)` and `torch.FloatTensor(...)`
        read the *values* of their arguments and build a new leaf tensor. When the arguments
        have autograd history and the new tensor feeds the loss, nothing upstream gets a
        gradient (PyTorch warns "To copy construct from a tensor, it is recommended to use
        sourceTensor.clone().detach()" only in some of these cases).

        Instead: `torch.stack([t1, t2])` (or `torch.cat`) keeps the history. The fix replaces
        `torch.tensor` with `torch.stack` for a flat list of tensors; it is safe because where the
        original did not raise, both build the same values.
    """
    invalid = [
        Invalid(
            """
            import torch
            a = torch.tensor(0.3, requires_grad=True)
            b = torch.tensor(1.2, requires_grad=True)
            vec = torch.tensor([torch.cos(a), torch.cos(b)])
            vec.sum().backward()
            """,
            line=4,
            fixed="""
            import torch
            a = torch.tensor(0.3, requires_grad=True)
            b = torch.tensor(1.2, requires_grad=True)
            vec = torch.stack([torch.cos(a), torch.cos(b)])
            vec.sum().backward()
            """,
        )
    ]
    valid = [
        """
        import torch
        scorer = torch.nn.Linear(32, 1)
        items = [torch.randn(32) for _ in range(8)]
        labels = torch.tensor([1, 0, 1, 1, 0, 0, 1, 0], dtype=torch.float32)
        scores = torch.stack([scorer(it).squeeze() for it in items])
        torch.nn.functional.binary_cross_entropy_with_logits(scores, labels).backward()
        """
    ]

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        self._zero_dim: set[int] = set()  # torch.tensor([...]) calls whose elements are all proven 0-dim

    call_names = frozenset({"tensor"})  # torch.tensor (its resolved last name)

    def on_call(self, ev: CallEvent) -> None:
        if ev.qual == "torch.tensor" and len(ev.args) == 1:
            items = ev.args[0].get(F.ITEMS)
            if items and all(i.get(F.SCALAR) is True for i in items):
                self._zero_dim.add(id(ev.node))

    def on_diff(self, ev: DiffEvent) -> None:
        if ev.kind not in TORCH_DIFF:
            return
        self._report_cuts(ev)

    def on_inspect(self, ev) -> None:
        self._report_cuts(ev)

    def _report_cuts(self, ev) -> None:
        for o, c in certain_cuts(ev.target, ("tensor_ctor",), framework="torch"):
            node = c.node
            if not isinstance(node, cst.Call) or not hidden_from_inspection(self.ctx, ev, node):
                continue
            self.report(node, self._message(node, o), fix=self._fix(node))

    def _message(self, node: cst.Call, o) -> str:
        name = call_name(node)
        return (
            f"`{name}` copies the values of tensors with autograd history into a new leaf, so no gradient reaches "
            f"{origin_name(o)} through it; use `torch.stack([...])` (or `torch.cat`) to keep the graph"
        )

    def _fix(self, node: cst.Call) -> RuleFix | None:
        f = node.func
        if not (isinstance(f, cst.Attribute) and f.attr.value == "tensor" and len(node.args) == 1):
            return None
        arg = node.args[0]
        if arg.keyword is not None or not isinstance(arg.value, (cst.List, cst.Tuple)):
            return None
        if any(isinstance(e.value, (cst.List, cst.Tuple, cst.Integer, cst.Float)) or isinstance(e, cst.StarredElement) for e in arg.value.elements):
            return None
        # torch.tensor turns one-element tensors of any shape into numbers; torch.stack keeps their
        # shape: the same result only when every element is certainly 0-dim (shape (1,) elements
        # would gain a dimension and broadcast differently downstream)
        proven = id(node) in self._zero_dim
        return RuleFix("Use torch.stack to keep the autograd graph", (NodeEdit(f.attr, "stack"),),
                       Applicability.SAFE if proven else Applicability.UNSAFE)


class DetachStarvesParameters(StarvedOrigins):
    code = "GL103"
    message = "every path from the trained parameters to the loss goes through .detach(): they get no gradient"
    severity = Severity.ERROR
    docs = "https://pytorch.org/docs/stable/generated/torch.Tensor.detach.html"
    triggers = _TORCH_TRIGGERS + ("GradientTape", "stop_gradient", "requires_grad", "grad_fn")
    rationale = """
        `.detach()` (and `.data`, `tf.stop_gradient`, `jax.lax.stop_gradient`) is the right tool
        for a target that must stay constant (a DQN target, the discriminator step of a GAN, a
        straight-through estimator). It is a bug when it cuts *every* path from something that
        is being trained to the loss: a generator loss computed on `fake.detach()`, logits
        detached before the criterion after a logging refactor. The optimizer then steps with
        zero (or None) gradients, or `backward()` raises "element 0 of tensors does not require
        grad".

        gradlint reports a detach when the loss depends on a model or parameter only through
        it, and that model is the one an optimizer steps right after the backward pass (or the
        loss has no other path to anything trainable at all). Detaching the target of a
        TD/bootstrap update, or one of two branches, stays silent. `torch.autograd.grad(y, x)`
        names what it wants the gradient of: when `y` reaches `x` only through a detach, or was
        computed under `no_grad` (or in a custom Function's backward, which runs with gradients
        off) and then made a new leaf with `requires_grad`, it is reported too: the gradient is
        None (`allow_unused=True`) or the call raises.

        Code that checks a result's graph (`print(loss.grad_fn)`, `assert out.requires_grad`)
        expects it to have one: a detach inside the function that produced it is reported too
        (not one in the checking code itself, which demonstrates what detach does).

        Instead: drop the `.detach()` on this path (keep it in the discriminator/target step).
    """
    invalid = [
        Invalid(
            """
            import torch
            import torch.nn as nn
            G, D = nn.Linear(4, 8), nn.Linear(8, 1)
            opt_g = torch.optim.Adam(G.parameters())
            fake = G(torch.randn(16, 4))
            g_loss = D(fake.detach()).mean()
            g_loss.backward()
            opt_g.step()
            """,
            line=6,
        ),
        Invalid(  # deep-cage: the regularised weights are detached inside the deformation helper
            """
            import torch
            def deform(cage, query):
                weights = torch.cdist(query, cage).softmax(-1)
                weights = weights.detach()
                return weights @ cage, weights
            cage = torch.nn.Parameter(torch.rand(8, 3))
            deformed, weights = deform(cage, torch.rand(20, 3))
            reg = weights.pow(2).mean()
            print(reg.requires_grad)
            """,
            line=4,
        ),
    ]
    valid = [
        """
        import torch
        x = torch.ones(2, requires_grad=True)
        y = (x * 2).detach()
        print(y.requires_grad)
        """,
        """
        import torch
        import torch.nn as nn
        policy, target_net = nn.Linear(4, 2), nn.Linear(4, 2)
        opt = torch.optim.AdamW(policy.parameters())
        s, s2, r = torch.randn(8, 4), torch.randn(8, 4), torch.randn(8)
        q = policy(s).max(1).values
        with torch.no_grad():
            nxt = target_net(s2).max(1).values
        loss = nn.functional.smooth_l1_loss(q, r + 0.99 * nxt)
        opt.zero_grad()
        loss.backward()
        opt.step()
        """,
        """
        import torch
        def ste_round(x):
            return x + (torch.round(x) - x).detach()
        w = torch.randn(4, requires_grad=True)
        ste_round(w * 3).sum().backward()
        """,
    ]
    kinds = SOFT_DETACH | {REWRAP}

    def emit_cut(self, ev: DiffEvent, o, c) -> None:
        if c.kind not in self.kinds:
            return
        if any(oo is o and cc.hard for oo, cc in ev.target.cuts):
            return  # a conversion out of the framework on the same path: GL101/GL111 explain it
        who = origin_name(o)
        data = c.kind == "data" or isinstance(c.node, cst.Attribute) and c.node.attr.value == "data"
        what = "`.data`" if data else f"`{call_name(c.node)}`" if isinstance(c.node, cst.Call) else "this detach"
        if c.kind == REWRAP:
            # the detached value was made a new leaf: evidence is an optimizer stepping what it
            # detached (StarvedOrigins._wanted), never a check of its graph, which it now has
            if ev.kind == "inspect":
                return
            if not _detach_node(c.node):
                # computed with gradients off (a no_grad block, a custom Function's backward)
                region = c.node
                hook = region.name.value if isinstance(region, cst.FunctionDef) else None
                self.report(
                    c.then,
                    lambda line, region=region, hook=hook, who=who, ev=ev: (
                        (f"this makes a new leaf of a value computed in `{hook}` (line {line(region)}), which runs with "
                         f"gradients off" if hook else f"this makes a new leaf of a value computed with gradients off (line {line(region)})")
                        + f": that silences \"does not require grad\", but nothing connects it to {who}, so {who} gets no "
                        f"gradient from {diff_phrase(ev, line)}; compute it under `torch.enable_grad()` from inputs that require grad"
                    ),
                )
                return
            self.report(
                c.node,
                lambda line, what=what, who=who, ev=ev, then=c.then: (
                    f"{what} followed by requires_grad on line {line(then)} makes a new leaf: that silences \"does not require "
                    f"grad\", but it cuts every path from {who} to {diff_phrase(ev, line)}: {who} gets no gradient; "
                    f"remove both and compute the loss from the model's output itself"
                ),
            )
            return
        self.report(
            c.node,
            lambda line, what=what, who=who, ev=ev: (
                f"{what} cuts every path from {who} to {diff_phrase(ev, line)}: {who} gets no gradient; "
                f"remove the detach on this path (keep it only where a constant target is intended)"
            ),
        )


def _detach_node(node) -> bool:
    """A REWRAP cut's own node is a detach (`x.detach()`, `.data`) rather than the region that
    computed with gradients off (a `with torch.no_grad():` block, a function)."""
    return isinstance(node, (cst.Call, cst.Attribute))


def _implicit_scalar_backward(ev: DiffEvent) -> bool:
    """`loss.backward()` (or `scaler.scale(loss).backward()`) with no gradient argument: torch
    requires the loss to be a scalar, so each of its summands is one too."""
    node = ev.node
    if ev.kind != "backward" or not isinstance(node, cst.Call) or not isinstance(node.func, cst.Attribute):
        return False
    return node.func.attr.value == "backward" and not backward_seed_given(node)


class DetachedLossTerm(Rule):
    code = "GL105"
    message = "a detached loss term is added to the loss that is backpropagated: it is a constant and contributes no gradient"
    severity = Severity.WARNING
    docs = "https://pytorch.org/docs/stable/generated/torch.Tensor.detach.html"
    triggers = ("detach",)
    rationale = """
        `loss = loss_a + loss_b.detach()` adds the *value* of `loss_b` to the loss but not its
        graph: `backward()` computes no gradient from it, so whatever `loss_b` was meant to
        train (a reconstruction term, the discriminator's loss on real images, an auxiliary
        head) does not learn from it — silently, while the logged loss includes it. It happens
        when a `.detach()` meant for a *target* lands on a whole term, or when a logging line
        is copied into the loss.

        A detached value inside a term (`mse(pred, target.detach())`, a stop-gradient target,
        `loss / loss.detach()` normalisation, a weight `w = l1.detach() / l2.detach()`) is not
        flagged: only a 0-dim term added to or subtracted from the loss that is itself
        detached, or that reaches a trained model only through a detach
        (`-torch.mean(real_score.detach()) + torch.mean(fake_score)`, `criterion(logits.detach(),
        y)` added to a live loss, `cfg.w * bce(D(fake).detach(), y)` in the generator's loss)
        while the rest of the loss trains that model; that one is reported at the detach. A
        term whose shape is not known counts when the loss is backpropagated with no gradient
        argument (then every summand is 0-dim), and only sums that are the loss itself count
        (a running mean fed back into a penalty holds a constant on purpose). Where nothing in
        the loss reaches a model but through a detach, GL103 reports the detach. Instead: add
        the term itself (`loss_a + loss_b`), or leave it out of the loss and log it separately.
    """
    invalid = [
        Invalid(
            """
            import torch
            model = torch.nn.Linear(8, 8)
            opt = torch.optim.SGD(model.parameters(), lr=0.1)
            for step in range(10):
                x = torch.randn(4, 8)
                out = model(x)
                recon = (out - x).pow(2).mean()
                sparsity = out.abs().mean()
                loss = recon + 0.1 * sparsity.detach()
                opt.zero_grad()
                loss.backward()
                opt.step()
            """,
            line=9,
        ),
        Invalid(
            """
            import torch
            critic = torch.nn.Linear(16, 1)
            opt = torch.optim.RMSprop(critic.parameters(), lr=5e-5)
            real, fake = torch.randn(64, 16), torch.randn(64, 16)
            loss = -torch.mean(critic(real).detach()) + torch.mean(critic(fake))
            opt.zero_grad()
            loss.backward()
            opt.step()
            """,
            line=5,
        ),
    ]
    valid = [
        """
        import torch
        online, target = torch.nn.Linear(8, 8), torch.nn.Linear(8, 8)
        opt = torch.optim.SGD(online.parameters(), lr=0.1)
        x = torch.randn(4, 8)
        loss = (online(x) - target(x).detach()).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        """,
        """
        import torch
        model = torch.nn.Linear(8, 1)
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        l1 = model(torch.randn(4, 8)).pow(2).mean()
        l2 = model(torch.randn(4, 8)).abs().mean()
        loss = l1 / l1.detach() + l2 / l2.detach()
        opt.zero_grad()
        loss.backward()
        opt.step()
        """,
    ]

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        self._scalar_detach: set[int] = set()  # `.detach()` calls of 0-dim values with certain history
        self._done: set[int] = set()
        # summands of a sum (`a + term`, `loss += term`) whose trained history arrives only through
        # a detach: id(term node) -> (node, its value)
        self._dead_terms: dict[int, tuple] = {}
        # (term statement, backward) -> _sum_is_the_loss: asked for every term at every
        # differentiation (a loop's run replays them), answered from the syntax alone
        self._is_the_loss: dict[tuple[int, int], bool] = {}
        # such a term stored into a container (`losses["memory"] = mem_loss(f.detach())`,
        # `terms.append(...)`): id(term node) -> the container's name, summed into the loss later
        self._stored_in: dict[int, str] = {}

    def on_binop(self, ev) -> None:
        if ev.op in ("+", "-") and isinstance(ev.node, cst.BinaryOperation):
            self._note_term(ev.node.left, ev.left)
            self._note_term(ev.node.right, ev.right)

    def on_assign(self, ev: AssignEvent) -> None:
        if ev.op in ("+", "-") and isinstance(ev.node, cst.AugAssign):
            self._note_term(ev.node.value, ev.value)

    def on_store(self, ev: StoreEvent) -> None:
        if ev.kind in ("item", "append") and ev.root is not None and ev.value_node is not None:
            self._note_term(ev.value_node, ev.value)
            if id(ev.value_node) in self._dead_terms:
                self._stored_in[id(ev.value_node)] = ev.root

    def _note_term(self, node, v: Val) -> None:
        """A 0-dim summand computed from trained values only through `.detach()`/`.data`
        (`-torch.mean(real_validity.detach())`, `criterion(D(x.detach()), y)`): it has no live
        origin at all, every certain origin it has is cut by a detach, and nothing reaches it
        through a call the analysis cannot see into (that might be a live path). A summand whose
        shape is unknown (`cfg.w * bce(pred.detach(), y)`, a weight the analysis cannot see) is
        kept too: it counts only for a loss backpropagated with no gradient argument, whose
        summands must be 0-dim (`backward()` of anything else raises)."""
        if v.get(F.SCALAR) is False or not v.cuts:
            return
        if v.live and not rewrapped_leaves(v, certain_only=False):
            return  # live: not a constant (a leaf re-wrapped from a detach is one to the model)
        detached = False
        for o, c in v.cuts:
            if c.kind not in SOFT_DETACH and not (c.kind == REWRAP and _detach_node(c.node)):
                return  # an opaque call (maybe live) or a conversion (GL101's): not this rule's
            detached = detached or (o.certain and o.framework == "torch")
        if detached:
            self._dead_terms[id(node)] = (node, v)

    call_names = frozenset({"detach"})  # `x.detach()`, torch.detach(x)

    def on_call(self, ev: CallEvent) -> None:
        recv = ev.recv if ev.method == "detach" else ev.args[0] if ev.qual == "torch.detach" and ev.args else None
        if recv is not None and recv.get(F.SCALAR) is True and recv.graphs and any(o.certain for o in recv.live):
            self._scalar_detach.add(id(ev.node))

    def on_diff(self, ev: DiffEvent) -> None:
        if ev.kind not in TORCH_DIFF:
            return
        for _, c in certain_cuts(ev.target, ("detach", REWRAP), framework="torch"):
            node = c.node
            # `d_loss_real.detach().requires_grad_()`: the new leaf is the term
            term = c.then if c.kind == REWRAP and _rewraps(c.then, node) else node if c.kind == "detach" else None
            if term is None or id(node) in self._done or id(node) not in self._scalar_detach or not self._additive_term(term):
                continue
            if carried_from_earlier_iteration(self.ctx, ev, node):
                continue
            self._done.add(id(node))
            self.report(
                node,
                lambda line, node=node, ev=ev: (
                    f"`{self.ctx.code(node)}` is a detached loss term: it adds a constant to the loss differentiated on line "
                    f"{line(ev.node)}, so nothing learns from it; add the term itself, or log it outside the loss"
                ),
            )
        self._cut_off_terms(ev)

    def _cut_off_terms(self, ev: DiffEvent) -> None:
        """A summand of the backpropagated loss whose trained origins all arrive through a
        detach, while the rest of the loss keeps them live (an origin the whole loss starves is
        GL103's: it reports the detach)."""
        if not ev.target.certain_live():
            return
        target_cuts = ev.target.cuts
        implicit = _implicit_scalar_backward(ev)
        for key, (node, v) in list(self._dead_terms.items()):
            if v.get(F.SCALAR) is not True and not implicit:
                continue  # 0-dim only because a loss backpropagated without a gradient is
            certain = [oc for oc in v.cuts if oc[0].certain]
            if not certain or not all(oc in target_cuts for oc in certain):
                continue  # not (this run of) this loss
            memo = (id(node), id(ev.node))
            is_loss = self._is_the_loss.get(memo)
            stored_in = self._stored_in.get(key)
            if is_loss is None:
                is_loss = self._is_the_loss[memo] = (self._sum_is_the_loss(node, ev) if stored_in is None
                                                      else _container_summed(self.ctx, stored_in, ev))
            if not is_loss:
                continue  # an intermediate sum (a running mean squared later) may hold a constant
            cuts = sorted(certain, key=lambda oc: (oc[0].seq, oc[1].seq))
            live_cuts = [(o, c) for o, c in cuts if o in ev.target.live]
            if not live_cuts:
                continue  # the whole loss starves all of them: GL103 reports the detach itself
            cuts = live_cuts  # name a model the rest of the loss trains (the generator, not D)
            inside = {id(n) for n in walk(node)}
            # the detach written in the term itself first, then the one made last before the
            # loss: a value stored earlier into an object the term reads (a memory bank filled
            # with detached features) is meant to be constant
            cuts.sort(key=lambda oc: (id(oc[1].node) not in inside, -oc[1].seq))
            if any(id(c.node) in self._done for _, c in cuts) or stored_in is None and not self._additive_term(node):
                continue
            c = cuts[0][1]
            if carried_from_earlier_iteration(self.ctx, ev, c.node):
                continue
            del self._dead_terms[key]
            self._done.add(id(c.node))
            what = "`.data`" if c.kind == "data" else f"`{self.ctx.code(c.node)}`"
            # reported where the cut is (what to remove); the term is named with its line
            self.report(
                c.node,
                lambda line, node=node, ev=ev, what=what, o=cuts[0][0]: (
                    f"{what} cuts the loss term on line {line(node)} off from {origin_name(o)}, which the rest of the loss "
                    f"differentiated on line {line(ev.node)} trains: the term adds a constant, so nothing learns from it; "
                    f"remove the detach on this path, or log the term outside the loss"
                ),
            )

    def _sum_is_the_loss(self, node, ev: DiffEvent) -> bool:
        """The statement holding the term assigns (or adds into) the very name that is
        backpropagated, or is the backward call itself: `loss = a + w * t.detach();
        loss.backward()` — not an intermediate sum used inside a square later (a running mean)."""
        target = dotted_name(ev.target_node) if ev.target_node is not None else None
        cur = node
        while cur is not None and not isinstance(cur, (cst.Assign, cst.AugAssign, cst.AnnAssign, cst.SimpleStatementLine)):
            if cur is ev.node:
                return True
            cur = self.ctx.parent(cur)
        if target is None or cur is None:
            return False
        if isinstance(cur, cst.Assign):
            return len(cur.targets) == 1 and dotted_name(cur.targets[0].target) == target
        if isinstance(cur, (cst.AugAssign, cst.AnnAssign)):
            return dotted_name(cur.target) == target
        return False

    def _additive_term(self, node) -> bool:
        """The detached value is a summand of the loss itself: `a + t.detach()`, `a - 0.1 * t.detach()`,
        `loss += t.detach()`, `sum([..., t.detach()])` — the whole sum being what is assigned,
        returned or backpropagated; not inside a factor, a divisor or another call's argument."""
        cur, parent = node, self.ctx.parent(node)
        if _constant_weight(parent):  # `0.1 * t.detach()` is still a term
            cur, parent = parent, self.ctx.parent(parent)
        if isinstance(parent, cst.Element):
            seq = self.ctx.parent(parent)
            arg = self.ctx.parent(seq) if seq is not None else None
            call = self.ctx.parent(arg) if isinstance(arg, cst.Arg) else None
            if not (isinstance(call, cst.Call) and call_name(call) in ("sum", "torch.sum")):
                return False
            cur, parent = call, self.ctx.parent(call)
        elif isinstance(parent, cst.AugAssign):
            return parent.value is cur and isinstance(parent.operator, (cst.AddAssign, cst.SubtractAssign))
        elif not _additive(parent):
            return False
        while _additive(parent) or _constant_weight(parent):  # climb the sum
            cur, parent = parent, self.ctx.parent(parent)
        if isinstance(parent, cst.Attribute):
            return parent.attr.value == "backward"  # `(a + b.detach()).backward()`
        return isinstance(parent, (cst.Assign, cst.Return, cst.AugAssign, cst.AnnAssign))


def _container_summed(ctx, container: str, ev: DiffEvent) -> bool:
    """The backpropagated loss is the sum of the container's items: `loss = sum(losses.values())`,
    `torch.stack(terms).sum()`, `sum(terms).backward()` — a statement binding the differentiated
    name in the backward's function (or the differentiated expression itself) that sums over it."""
    def sums_it(expr) -> bool:
        nodes = list(walk(expr))
        return any(callee_last(n) in ("sum", "stack", "cat") for n in nodes if isinstance(n, cst.Call)) and any(
            isinstance(n, (cst.Name, cst.Attribute)) and dotted_name(n) == container for n in nodes)
    if ev.target_node is None:
        return False
    target = dotted_name(ev.target_node)
    if target is None:
        return sums_it(ev.target_node)
    scope = next((a for a in ctx.ancestors(ev.node) if isinstance(a, cst.FunctionDef)), None)
    stmts = own_small_statements(scope) if scope is not None else (s for top in ctx.module_statements() for s in walk(top))
    return any(isinstance(s, cst.Assign) and len(s.targets) == 1 and dotted_name(s.targets[0].target) == target
               and sums_it(s.value) for s in stmts)


def _rewraps(call, detach) -> bool:
    """`call` is `detach.requires_grad_(...)`, chained on the detach itself."""
    return isinstance(call, cst.Call) and isinstance(call.func, cst.Attribute) and call.func.value is detach


def _additive(node) -> bool:
    return isinstance(node, cst.BinaryOperation) and isinstance(node.operator, (cst.Add, cst.Subtract))


def _constant_weight(node) -> bool:
    return isinstance(node, cst.BinaryOperation) and isinstance(node.operator, (cst.Multiply, cst.Divide)) and (
        isinstance(node.left, (cst.Integer, cst.Float)) or isinstance(node.right, (cst.Integer, cst.Float)))


_REBOUND_WITHOUT_GRAD = "gl104_rebound_without_grad"  # a graph-carrying name recomputed from itself under no_grad
_CONSTANT_TERM = "gl104_constant_term"  # a loss of values that all lost their graph under no_grad
# comparisons of a prediction with a target that losses are built from (BYOL's cosine term)
_SIMILARITIES = frozenset({"cosine_similarity", "pairwise_distance"})


class LossComputedWithoutGrad(StarvedOrigins):
    code = "GL104"
    message = "the value differentiated here was computed under torch.no_grad()/inference_mode(): it has no grad_fn"
    severity = Severity.ERROR
    docs = "https://pytorch.org/docs/stable/generated/torch.no_grad.html"
    triggers = _TORCH_TRIGGERS
    # Lightning runs its evaluation hooks without autograd: a hook that calls a helper which
    # differentiates must be analysed although it does not mention differentiation itself
    chunk_triggers = ("validation_step", "test_step", "predict_step")
    rationale = """
        Inside `torch.no_grad()` (or `inference_mode()`, or a function decorated with either)
        autograd records nothing. A loss computed there has no `grad_fn`: `backward()` raises
        "element 0 of tensors does not require grad and does not have a grad_fn" — or, when the
        loss also has a path outside the block, the parameters used inside silently get no
        gradient. The usual cause is a training step copied from an evaluation loop.

        A partial case is reported where it happens: a prediction computed with its graph and
        then recomputed from itself inside a `no_grad` block (`pred = ema_model(pred)`), the
        loss later taken from the new `pred` while other terms keep the loss differentiable, so
        nothing raises and that term trains nothing. Likewise a loss term (a loss function, a
        cosine similarity) none of whose inputs carries a graph, one of them computed under
        `no_grad` from parameters the same loss trains through its other terms: the student's
        logits of a distillation term computed inside the teacher's `no_grad` block. A target
        made under `no_grad` (DQN, pseudo-labels, a teacher's soft labels) is compared with a
        prediction that carries its graph, and is not reported.

        Instead: run the forward pass of a training step outside `no_grad`, or re-enable
        gradients locally with `torch.enable_grad()` (which gradlint understands).

        The same holds inside a custom `torch.autograd.Function`: autograd runs its `forward`
        and `backward` with gradients off, so a backward that recomputes part of the forward
        pass and calls `torch.autograd.grad` on it must do the recomputation under
        `torch.enable_grad()` (from detached inputs that require grad).
    """
    invalid = [
        Invalid(
            """
            import torch
            model = torch.nn.Linear(10, 2)
            opt = torch.optim.SGD(model.parameters(), lr=0.1)
            with torch.no_grad():
                loss = model(torch.randn(4, 10)).pow(2).mean()
                opt.zero_grad()
                loss.backward()
                opt.step()
            """,
            line=7,
        ),
        Invalid(  # pytorch/pytorch#45405: a custom backward recomputes and differentiates with grad mode off
            """
            import torch
            class Recompute(torch.autograd.Function):
                @staticmethod
                def forward(ctx, x):
                    ctx.save_for_backward(x)
                    return torch.tanh(x)
                @staticmethod
                def backward(ctx, grad_out):
                    x, = ctx.saved_tensors
                    x = x.detach().requires_grad_()
                    y = torch.tanh(x)
                    return torch.autograd.grad(y, x, grad_out)
            Recompute.apply(torch.randn(3, requires_grad=True)).sum().backward()
            """,
            line=12,
        ),
    ]
    valid = [
        """
        import torch
        class Recompute(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                ctx.save_for_backward(x)
                return torch.tanh(x)
            @staticmethod
            def backward(ctx, grad_out):
                x, = ctx.saved_tensors
                with torch.enable_grad():
                    x = x.detach().requires_grad_()
                    y = torch.tanh(x)
                return torch.autograd.grad(y, x, grad_out)
        Recompute.apply(torch.randn(3, requires_grad=True)).sum().backward()
        """,
        """
        import torch
        model = torch.nn.Linear(10, 2)
        @torch.no_grad()
        def attack(x):
            with torch.enable_grad():
                x = x.clone().requires_grad_(True)
                model(x).sum().backward()
            return x.grad.sign()
        attack(torch.randn(4, 10))
        """
    ]
    kinds = NO_GRAD

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        self._unrecorded: list = []  # (DiffEvent, the no-grad region as a Cut, or REGRAD_NO_GRAD)

    def on_assign(self, ev: AssignEvent) -> None:
        """`pred = ema_model(pred)` inside a `with torch.no_grad():` block, `pred` having been
        computed with its graph: the name now holds a value without it. Noted on the value; a
        loss that still has other paths (so nothing is fully starved) is reported here."""
        if ev.op is not None or ev.ctx.grad != "off" or not isinstance(ev.ctx.grad_node, cst.With):
            return
        old = ev.old
        if old is None or not old.graphs or not any(o.certain and not o.frozen and not o.weak and o.framework == "torch" for o in old.live):
            return
        value = getattr(ev.node, "value", None)
        if not isinstance(ev.target_node, cst.Name) or value is None or not any(
                isinstance(n, cst.Name) and n.value == ev.name for n in walk(value, code_only=True)):
            return  # recomputed from itself: the graph-carrying value is replaced by a constant of it
        ev.add_note(Note(_REBOUND_WITHOUT_GRAD, ev.node, data=(ev.name, ev.ctx.grad_node)))

    def on_call(self, ev: CallEvent) -> None:
        """`F.kl_div(F.log_softmax(s_aug / T), t_soft)` with the student run under no_grad: a
        loss none of whose inputs carries a graph, one of them cut from trained parameters by a
        no-grad block, is a constant. Noted here; reported if the loss that adds it trains those
        parameters through another term (so nothing raises)."""
        q = ev.qual or ""
        if ev.ctx.grad != "on" or not (is_loss_function(q) or q.rsplit(".", 1)[-1] in _SIMILARITIES and q.startswith("torch.")
                                       or ev.func is not None and ev.func.get(F.LOSS_MODULE)):
            return
        inputs = [*ev.args, *ev.kwargs.values()]
        if len(inputs) < 2 or any(o.certain and o.framework == "torch" for v in inputs for o in v.live):
            return
        cut = [(o, c) for v in inputs for o, c in certain_cuts(v, NO_GRAD, framework="torch")]
        if cut:
            ev.add_note(Note(_CONSTANT_TERM, ev.node, data=(frozenset(o for o, _ in cut), cut[0][1].node)))

    def on_diff(self, ev: DiffEvent) -> None:
        super().on_diff(ev)
        self._no_graph_at_all(ev)
        if ev.kind not in TORCH_DIFF or not any(o.certain and not o.frozen for o in ev.target.live):
            return  # fully starved: the finding at the backward says it
        for n in ev.target.sorted_notes(_CONSTANT_TERM):
            origins, region = n.data
            if origins & ev.target.live:
                self.report(
                    n.node,
                    lambda line, region=region, bw=ev.node: (
                        f"every input of this loss term was computed under torch.no_grad()/inference_mode() (line {line(region)}) "
                        f"from parameters that the loss differentiated on line {line(bw)} trains through its other terms: this "
                        f"term is a constant and trains nothing, silently; compute its prediction outside the no-grad block"
                    ),
                )
        for n in ev.target.sorted_notes(_REBOUND_WITHOUT_GRAD):
            name, region = n.data
            self.report(
                n.node,
                lambda line, name=name, region=region, bw=ev.node: (
                    f"`{name}` carried its graph, and this recomputes it from itself under torch.no_grad() (line "
                    f"{line(region)}): the new `{name}` has no graph, yet the loss differentiated on line {line(bw)} is "
                    f"computed from it, so nothing behind `{name}` gets a gradient through this term; compute the new "
                    f"value outside the no-grad block, or give it another name if the old `{name}` was meant to be used"
                ),
            )

    def _no_graph_at_all(self, ev: DiffEvent) -> None:
        """What is differentiated was computed by torch operations with gradients off from
        tensors not known to require grad (a custom Function's backward recomputing from its saved
        tensors): it has no grad_fn whatever they were. Or it was then made a new leaf
        (`out.requires_grad = True`) and autograd.grad asks for the gradient of inputs it was
        computed from: it has no path to them."""
        if ev.kind not in TORCH_GRAPH_DIFF or ev.target.cuts:
            return
        made = ev.target.get(F.NO_GRAD_MADE)
        if made is not None and not ev.target.live:
            self._unrecorded.append((ev, Cut("no_grad" if made[0] == "off" else "inference", made[1], hard=False)))
            return
        regrad = ev.target.get(F.REGRAD_NO_GRAD)
        sources = ev.sources.live if ev.kind == "autograd_grad" and ev.sources is not None else frozenset()
        if regrad is not None and all(o.node is regrad[1] for o in ev.target.live) and any(o.certain for o in sources) \
                and not any(o.node is regrad[1] for o in sources):
            self._unrecorded.append((ev, regrad))

    def finish(self) -> None:
        super().finish()
        for ev, what in self._unrecorded:
            if any(behind_graph_check(self.ctx, n) for n in (ev.node, *ev.ctx.calls)):
                continue  # `if out.requires_grad: ...`
            if isinstance(what, Cut):
                self.emit_cut(ev, None, what)
                continue
            (mode, region), set_at = what
            self.report(
                set_at,
                lambda line, region=region, grad=ev.node: (
                    "this value was computed with gradients off ("
                    + (f"in `{region.name.value}` (line {line(region)}) of a custom autograd.Function, which autograd runs without them"
                       if isinstance(region, cst.FunctionDef) else f"line {line(region)}")
                    + "), so setting requires_grad makes it a "
                    f"new leaf with no path to what it was computed from: the autograd.grad on line {line(grad)} finds its "
                    f"inputs unused (an error, or None with allow_unused=True); recompute it under `with torch.enable_grad():` "
                    f"from inputs that require grad"
                ),
            )

    def emit_cut(self, ev: DiffEvent, o, c) -> None:
        if c.kind not in self.kinds or (ev.kind not in TORCH_DIFF and ev.kind != "inspect"):
            return
        mode = "torch.no_grad()" if c.kind == "no_grad" else "torch.inference_mode()"
        region = c.node
        if c.kind == "no_grad" and isinstance(region, cst.With) and any(
                isinstance(item.item, cst.Call) and callee_last(item.item) == "set_grad_enabled" for item in region.items):
            mode = "torch.set_grad_enabled(False)"  # (`set_grad_enabled(not freeze)`: what it came to)
        if c.kind == "no_grad":
            instead = "run the training forward pass outside the no-grad block (or wrap it in torch.enable_grad())"
        else:  # enable_grad() does not leave inference mode
            instead = "run it outside inference mode (`torch.inference_mode(False)`; enable_grad() is not enough)"
        hook = region.name.value if isinstance(region, cst.FunctionDef) else None
        runner = "which Lightning runs"
        if hook in ("forward", "backward"):  # a custom autograd.Function's: autograd runs it with gradients off
            runner = "of a custom autograd.Function, which autograd runs"
            instead = "compute it under `with torch.enable_grad():` from detached inputs that require grad"
        elif hook is not None:  # a hook the framework runs without autograd (Lightning's test_step)
            if c.kind == "inference":
                instead = "create the Trainer with `inference_mode=False` and wrap the computation in torch.enable_grad()"
            else:
                instead = "wrap the computation in torch.enable_grad()"

        used = "its graph is checked" if ev.kind == "inspect" else "it is differentiated"

        def message(line, region=region, mode=mode, hook=hook, instead=instead, runner=runner, used=used) -> str:
            where = f"in `{hook}` (line {line(region)}) {runner} under {mode}" if hook else f"under {mode} (line {line(region)})"
            return (
                f"this value was computed {where}, so autograd recorded nothing, but {used}: "
                f"backward()/autograd.grad raises or the parameters get no gradient; {instead}"
            )

        self.report(ev.node, message)


# ----------------------------------------------------------------------------- TensorFlow
def _function_of(ctx, node):
    """The function definition `node` is written in, or None at module level."""
    return next((a for a in ctx.ancestors(node) if isinstance(a, cst.FunctionDef)), None)


_TF_TRIGGERS = ("GradientTape", "compile(")


class NumpyInGradientTape(Rule):
    code = "GL111"
    message = "a value recorded by the GradientTape leaves TensorFlow on its way to the taped target: the gradient is None"
    severity = Severity.ERROR
    frameworks = ("tf",)
    docs = "https://www.tensorflow.org/guide/autodiff#cases_where_gradient_returns_none"
    triggers = _TF_TRIGGERS
    rationale = """
        A `tf.GradientTape` records TensorFlow operations only. `np.mean(x)`, `x.numpy()`,
        `float(x)`, `int(x)` or `model.predict(x)` inside the tape produce NumPy values or
        Python numbers; anything computed from them re-enters TensorFlow as a constant, and
        `tape.gradient(target, sources)` returns None for the sources upstream of it. Keras
        then fails with "No gradients provided for any variable", or a hand-written loop
        silently applies nothing.

        This includes helper functions of the same module called inside the tape (a loss
        helper that binarises `image.numpy()`), which gradlint follows.

        Instead: use TensorFlow ops (`tf.reduce_mean`, `tf.math.log`, ...) and call the model
        directly (`model(x, training=True)`), not `model.predict`.
    """
    invalid = [
        Invalid(
            """
            import numpy as np
            import tensorflow as tf
            x = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
            with tf.GradientTape() as tape:
                col_mean = np.mean(x ** 2, axis=0)
                y = tf.reduce_mean(col_mean)
            print(tape.gradient(y, x))
            """,
            line=5,
        )
    ]
    valid = [
        """
        import tensorflow as tf
        model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
        x, y = tf.random.normal((8, 4)), tf.random.normal((8, 1))
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(model(x, training=True) - y))
        grads = tape.gradient(loss, model.trainable_variables)
        print(float(loss), loss.numpy())
        """
    ]

    call_names = frozenset({"numpy_function", "py_func"})

    def on_call(self, ev: CallEvent) -> None:
        if ev.qual in TF_NUMPY_FUNCTION and ev.ctx.tapes:
            # its result carries no gradient even when its inputs carry none to cut (a rollout run in NumPy)
            ev.add_note(Note("numpy_function", ev.node, data=ev.ctx.tapes))

    def on_diff(self, ev: DiffEvent) -> None:
        if ev.kind not in ("tape", "keras"):
            return
        wanted: set = set()
        if ev.kind == "tape" and ev.sources is not None:
            wanted = {o for item in source_items(ev.sources) for o in item.live}
            if wanted and not (wanted & ev.target.live):
                for n in ev.target.sorted_notes("numpy_function"):
                    if any(t is ev.tape for t in n.data):
                        self.report(
                            n.node,
                            lambda line, dt=ev.node: (
                                f"`tf.numpy_function` runs Python/NumPy code that has no gradient, and the target differentiated on "
                                f"line {line(dt)} depends on the sources only through its result: every gradient is None; compute "
                                f"the values the loss needs with TensorFlow ops inside the tape"
                            ),
                        )
        for o, c in certain_cuts(ev.target, HARD_CONVERSIONS | {"numpy_function", "keras_to_numpy"}, framework="tf"):
            if o in ev.target.live or wanted & ev.target.live and not self._related(o, wanted):
                # the target also reaches `o` through TensorFlow ops (an RL rollout feeds NumPy
                # actions back into the model's *input*): its gradient is not None. Or it
                # reaches the sources so, and `o` is none of them (the critic's `predict` giving
                # the actor's advantages, a constant of the actor's loss by design)
                continue
            if ev.kind == "keras" and c.kind in ("numpy", "keras_to_numpy") and not RUNS_EAGERLY.search(self.ctx.code_text):
                continue  # in a compiled loss `.numpy()` raises before any gradient: GL124
            what, instead = _describe(c)
            if c.kind == "np_call":
                name = call_name(c.node).split(".")[-1].rstrip("()") if isinstance(c.node, cst.Call) else ""
                tf_eq = {"mean": "tf.reduce_mean", "sum": "tf.reduce_sum", "max": "tf.reduce_max", "log": "tf.math.log", "exp": "tf.exp", "abs": "tf.abs", "sqrt": "tf.sqrt", "square": "tf.square"}
                instead = f"use `{tf_eq[name]}` instead" if name in tf_eq else "use the TensorFlow equivalent"
            elif c.kind in ("numpy", "float", "int", "item"):
                instead = "keep the value a tf.Tensor inside the tape"
            dt = ev.node
            self.report(
                c.node,
                lambda line, what=what, instead=instead, dt=dt, k=ev.kind: (
                    f"{what} inside the GradientTape leaves TensorFlow, and its result flows into the target "
                    f"{'differentiated on line ' + str(line(dt)) if k == 'tape' else 'of this Keras loss'}: the tape cannot "
                    f"differentiate through it and the gradient is None; {instead}"
                ),
            )


    def _related(self, o, wanted: set) -> bool:
        """`o` is a source, part of one (a layer of the model whose variables are asked for) or
        holds one."""
        interp = self.ctx.interp
        return o in wanted or bool(interp.holders_of(o) & wanted) or bool(interp.parts_of(o) & wanted)


class VariableAssignInTape(Rule):
    code = "GL112"
    message = "tf.Variable.assign*() inside the tape builds the target through a stateful update: no gradient flows through it"
    severity = Severity.ERROR
    frameworks = ("tf",)
    docs = "https://www.tensorflow.org/guide/autodiff#4_took_gradients_through_a_stateful_object"
    triggers = ("assign",)
    rationale = """
        `v.assign(x)`, `v.assign_add(x)` and `v.assign_sub(x)` change the state of a variable;
        the tape does not differentiate through a state change. A target computed from `v`
        afterwards has no path back to `x`, so `tape.gradient(target, x)` is None.

        Instead: compute the value as a tensor (`running = running + x0`) inside the tape, and
        assign to the variable after the gradient was taken.
    """
    invalid = [
        Invalid(
            """
            import tensorflow as tf
            x0 = tf.Variable(3.0)
            running = tf.Variable(0.0)
            with tf.GradientTape() as tape:
                running.assign_add(x0)
                y = running ** 2
            print(tape.gradient(y, x0))
            """,
            line=5,
        )
    ]
    valid = [
        """
        import tensorflow as tf
        w = tf.Variable(3.0)
        with tf.GradientTape() as tape:
            loss = (w - 1.0) ** 2
        g = tape.gradient(loss, w)
        w.assign_sub(0.1 * g)
        """
    ]

    def on_diff(self, ev: DiffEvent) -> None:
        if ev.kind != "tape":
            return
        for o, c in certain_cuts(ev.target, ("assign",), framework="tf"):
            dt = ev.node
            self.report(
                c.node,
                lambda line, dt=dt, who=origin_name(o): (
                    f"this assign updates a variable's state inside the tape; the target differentiated on line {line(dt)} "
                    f"depends on {who} only through it, so that gradient is None; compute the value as a tensor "
                    f"(e.g. `running = running + x0`) and assign after taking the gradient"
                ),
            )


class UnwatchedTapeSource(Rule):
    code = "GL113"
    message = "tape.gradient() is asked for a tensor the tape does not watch (a tf.constant, a Keras model's symbolic input): the result is None"
    severity = Severity.ERROR
    frameworks = ("tf",)
    docs = "https://www.tensorflow.org/guide/autodiff#controlling_what_the_tape_watches"
    triggers = ("GradientTape",)
    rationale = """
        A GradientTape watches trainable `tf.Variable`s automatically, but not plain tensors
        (`tf.constant`, results of ops, inputs). `tape.gradient(y, x)` for such an `x` returns
        None unless `tape.watch(x)` was called inside the tape before `x` was used. The same
        holds, whatever is watched, for a Keras model's symbolic tensors (`model.inputs`,
        `model.input`, `model.outputs`, `layer.output`): they are placeholders of the model's
        graph, not the eager tensors a call `model(images)` computed with (saliency maps and
        adversarial examples taken "with respect to `model.input`"); that finding is reported
        at the `tape.watch(...)` of the placeholder when there is one.

        Instead: call `tape.watch(x)` at the start of the `with` block, or make `x` a
        `tf.Variable`; differentiate with respect to the tensor passed to the model.
    """
    invalid = [
        Invalid(
            """
            import tensorflow as tf
            x = tf.constant(1.5)
            with tf.GradientTape() as tape:
                y = x ** 3 - 2.0 * x
            dy_dx = tape.gradient(y, x)
            """,
            line=5,
        )
    ]
    valid = [
        """
        import tensorflow as tf
        x = tf.constant([1.0, 3.0])
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = x * x
        dy_dx = tape.gradient(y, x)
        """
    ]

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        self._keras_models: set[str] = set()  # names bound to a Keras model or layer
        self._watched: dict[str, cst.CSTNode] = {}  # `tape.watch(<code>)` calls by the code watched
        # names bound to a Keras model's placeholder (`dream = model.input`), per function
        self._symbolic_names: set[tuple[int | None, str]] = set()

    call_names = frozenset({"watch"})

    def on_call(self, ev: CallEvent) -> None:
        if ev.method == "watch" and ev.recv is not None and ev.recv.kind == "tape" and ev.arg_nodes:
            self._watched.setdefault(self.ctx.code(ev.arg_nodes[0]), ev.node)

    def on_diff(self, ev: DiffEvent) -> None:
        if ev.kind != "tape" or ev.sources is None:
            return
        symbolic = self._symbolic_keras_tensor(ev.source_node, ev.sources)
        target = self._symbolic_keras_tensor(ev.target_node, ev.target, unknown_owner=True)
        if symbolic is None and target is not None:
            # `tape.gradient(model.output[:, 0], ...)`: a placeholder of the model's graph is not
            # what any call inside the tape computed (Grad-CAM ported from TF1's tf.gradients)
            self.report(ev.node, (
                f"`{self.ctx.code(target)}` is the Keras model's symbolic tensor (a placeholder of its graph): no operation "
                f"the tape recorded produced it, so the gradient is None (or the call fails); run the model inside the tape "
                f"(`out = model(x)`) and differentiate what it returns"))
            return
        if symbolic is not None:
            # reported where the placeholder is watched when it is (that line is what to change)
            self.report(
                self._watched.get(self.ctx.code(symbolic), ev.node),
                f"`{self.ctx.code(symbolic)}` is the Keras model's symbolic tensor (a placeholder of its graph), not the "
                f"tensor this call computed with: the tape never saw it, so the gradient is None (Keras 3 raises "
                f"\"'KerasTensor' object has no attribute '_id'\"); watch and differentiate the input you passed to the model "
                f"(or the output the call returned)",
            )
            return
        for item in source_items(ev.sources):
            if not item.get(F.TFCONST):
                continue
            if any(o.kind in ("watched", "tfvar") for o in item.live):
                continue
            self.report(
                ev.node,
                "this gradient is taken with respect to a plain tensor (a tf.constant or an op result) that the tape does not "
                "watch, so it is None; call `tape.watch(x)` inside the `with` block before using it, or make it a tf.Variable",
            )
            return


    def on_assign(self, ev: AssignEvent) -> None:
        if ev.op is None and ev.value.kind == "module" and ev.value.get(F.FW) == "tf":
            self._keras_models.add(ev.name)
        if ev.op is None:
            key = (id(ev.ctx.fn.node) if ev.ctx.fn is not None else None, ev.name)
            value = ev.node.value if isinstance(ev.node, cst.Assign) and len(ev.node.targets) == 1 else None
            if value is not None and isinstance(ev.node.targets[0].target, cst.Name) and self._placeholder(value) is not None:
                self._symbolic_names.add(key)  # `dream = model.input`: the name is the placeholder
            else:
                self._symbolic_names.discard(key)

    def on_store(self, ev) -> None:
        if ev.kind == "attr" and ev.root == "self" and ev.value.kind == "module" and ev.value.get(F.FW) == "tf":
            self._keras_models.add(f"self.{ev.attr}")

    def _symbolic_keras_tensor(self, node, sources, unknown_owner: bool = False):
        """`model.inputs`, `model.input`, `model.outputs`, `layer.output` of a Keras model given as
        a gradient source: the graph's placeholders, never the eager tensors the tape recorded.
        `unknown_owner`: also of a model received as a function parameter (in a file that uses
        TensorFlow, only a Keras model or layer has these attributes)."""
        if node is None:
            return None
        nodes = [e.value for e in node.elements] if isinstance(node, (cst.List, cst.Tuple)) else [node]
        items = source_items(sources)
        fn = _function_of(self.ctx, node)
        for n in nodes:
            if isinstance(n, cst.Name) and (id(fn) if fn is not None else None, n.value) in self._symbolic_names:
                return n  # bound to `model.input` earlier in the same scope
            if self._placeholder(n) is not None:
                return self._placeholder(n)
            if isinstance(n, cst.Subscript):
                n = n.value  # `model.inputs[0]`
            if not isinstance(n, cst.Attribute) or n.attr.value not in ("input", "inputs", "output", "outputs"):
                continue
            if unknown_owner and isinstance(n.value, cst.Name) and self._parameter_of_function(n.value):
                return n
            for item in items:
                owner = item.get(F.MEMBER_OF)
                if owner is not None and owner.get(F.FW) == "tf" and owner.kind == "module":
                    return n
        return None


    def _placeholder(self, n):
        """`model.input`, `model.inputs[0]`, `layer.output` of a Keras model or layer the file
        binds to a name: the attribute node, else None."""
        if isinstance(n, cst.Subscript):
            n = n.value
        if isinstance(n, cst.Attribute) and n.attr.value in ("input", "inputs", "output", "outputs") \
                and dotted_name(n.value) in self._keras_models:
            return n
        return None

    def _parameter_of_function(self, name: cst.Name) -> bool:
        fn = _function_of(self.ctx, name)
        if fn is None:
            return False
        p = fn.params
        return any(param.name.value == name.value and name.value != "self" for param in (*p.posonly_params, *p.params, *p.kwonly_params))


class NonPersistentTapeReused(Rule):
    code = "GL114"
    message = "a non-persistent GradientTape is asked for a second gradient: this raises RuntimeError"
    severity = Severity.ERROR
    frameworks = ("tf",)
    docs = "https://www.tensorflow.org/api_docs/python/tf/GradientTape"
    triggers = ("GradientTape",)
    rationale = """
        A GradientTape releases its resources after the first `gradient()` (or `jacobian()`)
        call unless it was created with `persistent=True`; a second call raises
        "A non-persistent GradientTape can only be used to compute one set of gradients".
        This includes a tape created outside a loop and used inside it.

        Instead: ask for both gradients in one call (`tape.gradient(y, [a, b])`), or create the
        tape with `persistent=True` and `del tape` when done.
    """
    invalid = [
        Invalid(
            """
            import tensorflow as tf
            x = tf.Variable(2.0)
            with tf.GradientTape() as tape:
                y1 = x ** 2
                y2 = x ** 3
            dy1 = tape.gradient(y1, x)
            dy2 = tape.gradient(y2, x)
            """,
            line=7,
        )
    ]
    valid = [
        """
        import tensorflow as tf
        x = tf.constant([1.0, 3.0])
        with tf.GradientTape(persistent=True) as tape:
            tape.watch(x)
            y = x * x
            z = y * y
        dz_dx = tape.gradient(z, x)
        dy_dx = tape.gradient(y, x)
        del tape
        """
    ]

    def on_diff(self, ev: DiffEvent) -> None:
        if ev.kind != "tape" or ev.tape is None or ev.tape.persistent is not False:
            return
        if ev.tape_used_before:
            self.report(
                ev.node,
                "this tape is not persistent and was already used for a gradient: this call raises RuntimeError; "
                "ask for all gradients in one call (`tape.gradient(y, [a, b])`) or create it with `persistent=True`",
            )


class GradientInsideTape(Rule):
    code = "GL115"
    message = "tape.gradient() is called inside the tape's own with-block: the gradient computation is recorded too"
    severity = Severity.WARNING
    frameworks = ("tf",)
    docs = "https://www.tensorflow.org/api_docs/python/tf/GradientTape#gradient"
    triggers = ("GradientTape",)
    rationale = """
        While the `with tf.GradientTape(persistent=True) as tape:` block is open, the tape
        records every operation — including the ones `tape.gradient()` itself runs (and the
        optimizer update after it). That wastes memory and time (TensorFlow warns "Calling
        GradientTape.gradient on a persistent tape inside its context is significantly less
        efficient"). A non-persistent tape stops recording when its gradient is taken
        (TensorFlow pops it), so the same code with a plain `GradientTape()` is not flagged.

        Instead: dedent the `tape.gradient(...)` call and the update so they run after the
        `with` block closes. Higher-order derivatives that really need the gradient recorded
        (the result, or an element of the list of gradients, is differentiated again by a tape
        that recorded it: the same persistent tape, or an outer one) are not flagged.
    """
    invalid = [
        Invalid(
            """
            import tensorflow as tf
            model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
            x, y = tf.random.normal((8, 4)), tf.random.normal((8, 1))
            with tf.GradientTape(persistent=True) as tape:
                loss = tf.reduce_mean((model(x) - y) ** 2)
                grads = tape.gradient(loss, model.trainable_variables)
            """,
            line=6,
        )
    ]
    valid = [
        """
        import tensorflow as tf
        x = tf.Variable(1.0)
        with tf.GradientTape(persistent=True) as tape:
            y = x ** 3
            dy = tape.gradient(y, x)
        d2y = tape.gradient(dy, x)
        """
    ]

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        self._inside: list[tuple] = []  # (the gradient's DiffEvent, why, [the line that changed its target])
        self._exempt: set[int] = set()
        self._taken: dict[str, tuple] = {}  # target name -> (DiffEvent, tape) of a gradient taken inside its tape

    call_names = frozenset({"gradient"})

    def on_call(self, ev: CallEvent) -> None:
        if ev.method == "gradient" and ev.recv is not None and ev.recv.kind == "tape":
            # the tapes that record this gradient computation: its own, and any other recording
            # around it (`with outer:` ... `with inner:` ... `inner.gradient(...)`)
            tape = ev.recv.attrs[F.TAPE]
            recording = frozenset({id(tape)} | {id(t) for t in ev.ctx.tapes if t.active})
            ev.add_note(Note("tape_grad", ev.node, data=recording, through_cuts=True))

    def on_diff(self, ev: DiffEvent) -> None:
        if ev.kind != "tape" or ev.tape is None:
            return
        for n in ev.target.notes:  # order does not matter: a set of exempt sites
            if n.kind == "tape_grad" and id(ev.tape) in n.data:
                # differentiated again by a tape that recorded it: a second-order derivative
                self._exempt.add(id(n.node))
        if not any(t is ev.tape for t in ev.ctx.tapes):
            return
        others = [t for t in ev.ctx.tapes if t is not ev.tape and t.active]
        if others:
            # `with gen_tape, disc_tape:` ... `gen_tape.gradient(...)`: disc_tape still records
            self._inside.append((ev, f"`{others[0].name or 'the other tape'}` is still recording, so it records this "
                                     f"gradient computation (memory grows with every step)"))
        elif ev.tape.persistent is not False:
            # a non-persistent tape stops recording at its gradient() call (TensorFlow pops it)
            self._inside.append((ev, "the persistent tape records the gradient computation (and anything after it) as well"))
        else:
            name = dotted_name(ev.target_node) if ev.target_node is not None else None
            if name:
                self._taken[name] = (ev, ev.tape)

    def on_assign(self, ev: AssignEvent) -> None:
        """`loss += 5e-4 * l2` after `grads = tape.gradient(loss, ...)` in the same block: the
        gradient was taken of the loss before the term was added."""
        taken = self._taken.pop(ev.name, None) if ev.name in self._taken else None
        if taken is None:
            return
        diff, tape = taken
        if any(t is tape for t in ev.ctx.tapes):
            self._inside.append((diff, f"`{ev.name}` is changed after it (line {{changed}}), and the gradient was "
                                       f"taken of its value before the change: the added term never reaches the update",
                                 ev.node))

    def finish(self) -> None:
        for item in self._inside:
            ev, why = item[0], item[1]
            if id(ev.node) in self._exempt:
                continue
            changed = item[2] if len(item) > 2 else None
            self.report(
                ev.node,
                lambda line, why=why, changed=changed: (
                    f"tape.gradient() runs inside the `with` block: {why.format(changed=line(changed)) if changed is not None else why}; "
                    f"move it, and the update, after the block (once the loss is complete)"),
            )


class IntegerVariableDifferentiated(Rule):
    code = "GL116"
    message = "a tf.Variable with an integer dtype is differentiated: its gradient is None"
    severity = Severity.ERROR
    frameworks = ("tf",)
    docs = "https://www.tensorflow.org/guide/autodiff#3_took_gradients_through_an_integer_or_string"
    triggers = ("Variable", "add_weight", "add_variable")
    # a Keras layer's `build` creates its weights: kept by the first pass where one is added
    chunk_triggers = (r"\badd_(?:weight|variable)\s*\(",)
    fix_applicability = Applicability.UNSAFE
    rationale = """
        `tf.Variable(3)` has dtype int32. Integers are not differentiable: the tape warns "The
        dtype of the source tensor must be floating" and the gradient is None (an optimizer
        then skips it or fails with "No gradients provided").

        Instead: `tf.Variable(3.0)` or `tf.Variable(3, dtype=tf.float32)`.
    """
    invalid = [
        Invalid(
            """
            import tensorflow as tf
            shift = tf.Variable(3)
            scale = tf.Variable(2.0)
            with tf.GradientTape() as tape:
                loss = (scale * 2.0 + tf.cast(shift, tf.float32)) ** 2
            grads = tape.gradient(loss, [scale, shift])
            """,
            line=2,
        )
    ]
    valid = [
        """
        import tensorflow as tf
        step = tf.Variable(0, trainable=False)
        w = tf.Variable(2.0)
        with tf.GradientTape() as tape:
            loss = w ** 2
        g = tape.gradient(loss, [w])
        step.assign_add(1)
        """
    ]

    call_names = frozenset({"add_weight", "add_variable"})

    def on_call(self, ev: CallEvent) -> None:
        """A Keras layer's own weight created trainable with an integer dtype
        (`self.add_weight(..., dtype=tf.int32)` in `build`): whatever trains the model gets no
        gradient for it ("No gradients provided for any variable")."""
        if ev.method not in ("add_weight", "add_variable") or not isinstance(ev.node.func, cst.Attribute):
            return
        fn = ev.ctx.fn
        if fn is None or fn.cls is None or not fn.cls.is_keras or dotted_name(ev.node.func.value) != "self":
            return
        if dtype_named(ev.kwargs.get("dtype")) not in ("int", "bool"):
            return
        trainable = ev.kwargs.get("trainable")
        if trainable is not None and trainable.get(F.CONST) is not True:
            return  # `trainable=False` (a counter, a step): never differentiated
        self.report(
            ev.node,
            "this layer weight is trainable but has an integer dtype: integers have no gradient, so training gets none "
            "for it (\"No gradients provided for any variable\"); create it as a float (`dtype=\"float32\"`), or pass "
            "`trainable=False` if it is a counter",
        )

    def on_diff(self, ev: DiffEvent) -> None:
        if ev.kind != "tape":
            return
        items = []
        for item in source_items(ev.sources):
            if item.kind == "params" and item.get(F.CLS) is not None:
                # `layer.trainable_variables` of a class of this module: its variables
                fields = dict(self.ctx.interp.class_facts(item.get(F.CLS)))
                fields.update(item.get(F.FIELDS) or {})
                items.extend(fields.values())
            else:
                items.append(item)
        for item in items:
            if item.get(F.DTYPE) not in ("int", "bool") or not item.get(F.TFVAR):
                continue
            for o in item.live:
                if o.kind == "tfvar" and o.node is not None:
                    self.report(
                        o.node,
                        f"{origin_name(o)} is a tf.Variable of integer dtype and is passed to tape.gradient as a source; "
                        f"integers have no gradient, so it will be None: create it as a float (`tf.Variable(3.0)` or "
                        f"`dtype=tf.float32`)",
                        fix=self._fix(o.node),
                    )

    def _fix(self, node) -> RuleFix | None:
        if not isinstance(node, cst.Call) or not node.args:
            return None
        first = node.args[0]
        if first.keyword is None and isinstance(first.value, cst.Integer) and not any(a.keyword and a.keyword.value == "dtype" for a in node.args):
            return RuleFix("Create the variable as a float", (NodeEdit(first.value, f"{first.value.value}.0"),), Applicability.UNSAFE)
        return None


class VariableReplacedByTensor(Rule):
    code = "GL117"
    message = "a tf.Variable is rebound to a tensor expression: the next iteration's tape no longer watches it"
    severity = Severity.ERROR
    frameworks = ("tf",)
    docs = "https://www.tensorflow.org/guide/autodiff#1_replaced_a_variable_with_a_tensor"
    triggers = ("GradientTape",)
    fix_applicability = Applicability.UNSAFE
    rationale = """
        `w = w - lr * g` does not update the variable: it binds the name `w` to a new
        `tf.Tensor`. From the next iteration on the tape does not watch `w` (tensors are not
        watched automatically) and `tape.gradient(loss, w)` is None.

        Instead: update in place with `w.assign_sub(lr * g)` (or use an optimizer).
    """
    invalid = [
        Invalid(
            """
            import tensorflow as tf
            w = tf.Variable(5.0)
            for epoch in range(3):
                with tf.GradientTape() as tape:
                    loss = (w - 2.0) ** 2
                g = tape.gradient(loss, w)
                w = w - 0.1 * g
            """,
            line=7,
            fixed="""
            import tensorflow as tf
            w = tf.Variable(5.0)
            for epoch in range(3):
                with tf.GradientTape() as tape:
                    loss = (w - 2.0) ** 2
                g = tape.gradient(loss, w)
                w.assign_sub(0.1 * g)
            """,
        )
    ]
    valid = [
        """
        import tensorflow as tf
        w = tf.Variable(5.0)
        for epoch in range(3):
            with tf.GradientTape() as tape:
                loss = (w - 2.0) ** 2
            g = tape.gradient(loss, w)
            w.assign_sub(0.1 * g)
        """
    ]

    def on_assign(self, ev: AssignEvent) -> None:
        if ev.op is not None or ev.old is None or not ev.ctx.loops:
            return
        old, new = ev.old, ev.value
        if not old.get(F.TFVAR):
            # a list of Variables rebound to a list of tensors (`params = [p - lr * g ...]`)
            old, new = old.get(F.ELEM), new.get(F.ELEM)
            if old is None or new is None or not old.get(F.TFVAR):
                return
        if new.get(F.TFVAR):
            return
        if not (old.live & new.live):
            return
        self.report(
            ev.node,
            f"`{ev.name} = ...` replaces the tf.Variable `{ev.name}` with a plain tensor; on the next iteration the tape does "
            f"not watch it and its gradient is None: update in place with `{ev.name}.assign_sub(...)`/`assign(...)`",
            fix=self._fix(ev),
        )

    def _fix(self, ev: AssignEvent) -> RuleFix | None:
        node = ev.node
        if not isinstance(node, cst.Assign) or len(node.targets) != 1:
            return None
        val = node.value
        if isinstance(val, cst.BinaryOperation) and isinstance(val.left, cst.Name) and val.left.value == ev.name:
            if isinstance(val.operator, (cst.Subtract, cst.Add)):
                meth = "assign_sub" if isinstance(val.operator, cst.Subtract) else "assign_add"
                rhs = self.ctx.code(val.right)
                return RuleFix(f"Update the variable in place with {meth}", (NodeEdit(node, f"{ev.name}.{meth}({rhs})"),), Applicability.UNSAFE)
        return None


def _direct_origins(v: Val | None) -> list:
    """Origins a value *is* (not computed from): a tf.Variable, a watched tensor, a Keras
    layer/model being called; looks into a list/tuple literal (`tf.concat([w1, w2])`)."""
    if v is None:
        return []
    if v.get(F.TFVAR) or v.kind == "module" or v.get(F.WATCHED_BY):
        return [o for o in v.live if o.framework == "tf" or o.kind == "watched"]
    return [o for item in (v.get(F.ITEMS) or ()) for o in _direct_origins(item)]


class ComputedOutsideTape(Rule):
    code = "GL118"
    message = "the taped target reaches the gradient's sources only through operations run outside the GradientTape: the gradient is None"
    severity = Severity.WARNING
    frameworks = ("tf",)
    docs = "https://www.tensorflow.org/guide/autodiff#cases_where_gradient_returns_none"
    triggers = ("GradientTape",)
    rationale = """
        A `tf.GradientTape` records the operations that run *while its with-block is open*,
        and it watches a variable only when the variable is read inside the block. A forward
        pass run before the block opens (`out = model(x)`, `w = tf.concat([w1, w2])`), or a
        target computed after it closes (`tape.gradient(f(x), x)`), is a constant to the tape:
        `tape.gradient` returns None for the sources it reaches only that way, and Keras fails
        with "No gradients provided for any variable". The same holds for a first-order
        gradient taken outside the tape that is then differentiated again by it.

        gradlint reports the operation outside the tape when every path it sees from a
        source to the target goes through such operations (a source also read inside the
        tape is not reported).

        Instead: open the tape before the forward pass and compute the target inside it; take
        an inner gradient inside the outer tape's block.
    """
    invalid = [
        Invalid(
            """
            import tensorflow as tf
            w1 = tf.Variable([[1.0]])
            w2 = tf.Variable([[3.0]])
            w = tf.concat([w1, w2], 0)
            x = tf.random.normal((1, 2))
            with tf.GradientTape() as tape:
                loss = tf.reduce_sum(tf.matmul(w, x))
            print(tape.gradient(loss, [w1, w2]))
            """,
            line=4,
        ),
        Invalid(
            """
            import tensorflow as tf
            model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
            opt = tf.keras.optimizers.Adam()
            x, y = tf.random.normal((8, 4)), tf.random.normal((8, 1))
            pred = model(x)
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean((pred - y) ** 2)
            grads = tape.gradient(loss, model.trainable_variables)
            opt.apply_gradients(zip(grads, model.trainable_variables))
            """,
            line=5,
        ),
        Invalid(
            """
            import tensorflow as tf
            x = tf.Variable(2.0)
            with tf.GradientTape() as outer:
                with tf.GradientTape() as inner:
                    y = x ** 3
            dy = inner.gradient(y, x)
            d2y = outer.gradient(dy, x)
            """,
            line=6,
        ),
    ]
    valid = [
        """
        import tensorflow as tf
        w1 = tf.Variable([[1.0]])
        w2 = tf.Variable([[3.0]])
        x = tf.random.normal((1, 2))
        with tf.GradientTape() as tape:
            w = tf.concat([w1, w2], 0)
            loss = tf.reduce_sum(tf.matmul(w, x))
        print(tape.gradient(loss, [w1, w2]))
        """,
        """
        import tensorflow as tf
        model, target_model = tf.keras.layers.Dense(2), tf.keras.layers.Dense(2)
        s, s2 = tf.random.normal((8, 4)), tf.random.normal((8, 4))
        target = tf.reduce_max(target_model(s2), axis=1)
        with tf.GradientTape() as tape:
            q = tf.reduce_max(model(s), axis=1)
            loss = tf.reduce_mean((q - target) ** 2)
        grads = tape.gradient(loss, model.trainable_variables)
        """,
        """
        import tensorflow as tf
        x = tf.Variable(2.0)
        with tf.GradientTape() as outer:
            with tf.GradientTape() as inner:
                y = x ** 3
            dy = inner.gradient(y, x)
        d2y = outer.gradient(dy, x)
        """,
    ]

    call_names = None

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        # the notes cost a little on every TensorFlow operation: only files with a tape pay it
        # (`optimizer.minimize(loss_fn, var_list)` runs loss_fn under a tape of its own)
        self._enabled = "GradientTape" in ctx.source.text or ".minimize(" in ctx.source.text
        # (run, name) -> (statement, the tapes recording when it ran, the value bound): where a
        # differentiated name was last computed
        self._bound: dict[tuple, tuple] = {}

    def on_assign(self, ev: AssignEvent) -> None:
        if self._enabled and isinstance(ev.target_node, cst.Name):
            value = ev.node.value if isinstance(ev.node, (cst.Assign, cst.AugAssign)) else None
            self._bound[(ev.ctx.run, ev.name)] = (ev.node, ev.ctx.tapes, ev.new, value)

    def _mark(self, ev, vals) -> None:
        origins = [o for v in vals for o in _direct_origins(v)]
        if not origins:
            return
        active = ev.ctx.tapes
        for o in origins:
            for t in active:
                if o in t.watched or (t.watch_accessed is not False and o.kind != "watched"):
                    ev.add_note(Note("taped", ev.node, data=(t, o)))
            ev.add_note(Note("untaped", ev.node, data=(o, active, ev.ctx.calls)))

    def on_call(self, ev: CallEvent) -> None:
        if not self._enabled:
            return
        if ev.method in ("gradient", "jacobian", "batch_jacobian") and ev.recv is not None and ev.recv.kind == "tape":
            tape = ev.recv.attrs[F.TAPE]
            ev.add_note(Note("first_order", ev.node, data=(tape, ev.ctx.tapes, ev.ctx.calls)))
            return
        vals = list(ev.args) + list(ev.kwargs.values())
        if ev.recv is not None:
            vals.append(ev.recv)
        if ev.func is not None and ev.func.kind == "module":
            vals.append(ev.func)
        self._mark(ev, vals)

    def on_binop(self, ev) -> None:
        if self._enabled:
            self._mark(ev, [ev.left, ev.right])

    def on_diff(self, ev: DiffEvent) -> None:
        if ev.kind != "tape" or ev.tape is None or ev.sources is None:
            return
        # tapes are compared as objects (notes hold them): an id is reused once a tape is freed
        tape = ev.tape
        wanted = {o for item in source_items(ev.sources) for o in item.live}
        target = ev.target
        tn = ev.target_node
        if (isinstance(tn, (cst.UnaryOperation, cst.BinaryOperation, cst.Call, cst.Subscript)) and tape.with_node is not None
                and tape.with_node is not ev.node and not any(t is tape for t in ev.ctx.tapes) and wanted & target.live):
            # `disc_tape.gradient(-latent_loss, ...)` after the block: the negation is an operation
            # the closed tape never recorded, so nothing connects its result to the variables
            dt = ev.node
            self.report(tn, lambda line: (
                f"`{self.ctx.code(tn)}` is computed in the gradient call on line {line(dt)}, after the tape's `with` block "
                f"closed: the tape did not record this operation, so the gradient is None (\"No gradients provided\"); "
                f"compute it inside the block (`loss = -latent_loss` there) and pass the name"))
            return
        if self._computed_after(ev, tape, wanted):
            return
        taped = {n.data[1] for n in target.notes if n.kind == "taped" and n.data[0] is tape}
        for n in target.sorted_notes("first_order"):
            src_tape, active, calls = n.data
            if n.node is ev.node or carried_from_earlier_iteration(self.ctx, ev, n.node):
                continue  # this very gradient, or one after it, reached through the loop's back edge
            if src_tape is not tape and not any(t is tape for t in active) and not taped:
                self._report(ev, n.node, calls, None, first_order=True)
                return
        for o in sorted(wanted & target.live, key=lambda o: o.seq):
            if o in taped:
                continue
            # an operation after this gradient in the loop around it reaches it from an earlier
            # iteration: a variable rebound to a tensor there is GL117's finding
            outside = [
                n for n in target.sorted_notes("untaped")
                if n.data[0] is o and not any(t is tape for t in n.data[1]) and not carried_from_earlier_iteration(self.ctx, ev, n.node)
            ]
            if outside:
                self._report(ev, outside[0].node, outside[0].data[2], o)

    def _computed_after(self, ev: DiffEvent, tape, wanted: set) -> bool:
        """`loss = tf.reduce_mean(...)` one indent too far left: the target the tape is asked
        about was computed by an operation run after the tape's with-block closed (the last
        binding of its name, outside the block, the value differentiated). Nothing connects
        that result to the variables on the tape: every gradient is None. Reported there."""
        tn = ev.target_node
        if not isinstance(tn, cst.Name) or tape.with_node is None or tape.with_node is ev.node or not wanted & ev.target.live:
            return False
        rec = self._bound.get((ev.ctx.run, tn.value))
        if rec is None:
            return False
        stmt, tapes, bound, value = rec
        if bound is not ev.target or any(t is tape for t in tapes) or not isinstance(value, (cst.Call, cst.BinaryOperation, cst.UnaryOperation)):
            return False  # an alias (`loss = total`) records nothing; a re-entered tape recorded it
        if any(item is ev.target for item in source_items(ev.sources)):
            return False  # the gradient of the target with respect to itself
        if isinstance(stmt, cst.Assign) and isinstance(stmt.targets[0].target, (cst.Tuple, cst.List)) \
                and _function_of(self.ctx, tape.with_node) is not _function_of(self.ctx, stmt):
            return False  # `tape, logits, loss = self.forward(x)`: unpacked from a helper that opened the tape
        here, block = self.ctx.range_of(stmt), self.ctx.range_of(tape.with_node)
        if here is None or block is None or here[0].line <= block[1].line:
            return False  # computed before the block opened: the forward-pass check below
        with_line = block[0].line
        self.report(stmt, lambda line, dt=ev.node: (
            f"this computes the target differentiated on line {line(dt)} after the GradientTape's `with` block (line "
            f"{with_line}) closed: the tape did not record it, so every gradient is None (\"No gradients provided\"); "
            f"indent it into the block"))
        return True

    def _report(self, ev: DiffEvent, node, calls, o, first_order: bool = False) -> None:
        # an operation inside a helper: point at the helper's call in the function that differentiates
        depth = len(ev.ctx.calls)
        if len(calls) > depth and calls[:depth] == ev.ctx.calls:
            node = calls[depth]
        dt = ev.node
        if first_order:
            msg = lambda line: (  # noqa: E731
                f"this first-order gradient is taken outside the with-block of the tape differentiated on line "
                f"{line(dt)}, which therefore did not record it: the second-order gradient is None; call the inner "
                f"`gradient()` inside the outer tape's block"
            )
        elif ev.tape is not None and ev.tape.with_node is ev.node:  # `optimizer.minimize(loss_fn, var_list)`
            who = origin_name(o)
            msg = lambda line: (  # noqa: E731
                f"this runs before minimize() on line {line(dt)} calls the loss function, so the tape minimize() records "
                f"while it runs does not see it; the loss depends on {who} only through it and that gradient is None "
                f"(\"No gradients provided\"); compute the loss inside the function given to minimize()"
            )
        else:
            who = origin_name(o)
            msg = lambda line: (  # noqa: E731
                f"this runs outside the GradientTape differentiated on line {line(dt)}, so the tape did not record it; "
                f"the target depends on {who} only through it and that gradient is None (\"No gradients provided\"); "
                f"move this computation inside the `with tf.GradientTape()` block"
            )
        self.report(node, msg)


# what makes a model built in this file own non-trainable variables
_NON_TRAINABLE = re.compile(r"BatchNorm|trainable\s*=\s*False|\.trainable\s*=|non_trainable|moving_(mean|variance)")


class GradientOfAllVariables(Rule):
    code = "GL119"
    message = "tape.gradient() with respect to model.variables/weights, which include non-trainable variables: their gradients are None"
    severity = Severity.WARNING
    frameworks = ("tf",)
    docs = "https://www.tensorflow.org/api_docs/python/tf/keras/Model#trainable_variables"
    triggers = ("GradientTape",)
    fix_applicability = Applicability.UNSAFE
    rationale = """
        `model.variables` (and `model.weights`) list *every* variable of a Keras model or
        `tf.Module`, including non-trainable ones: BatchNormalization's moving mean and
        variance, layers frozen with `trainable = False`, counters. No gradient flows to those,
        so `tape.gradient(loss, model.variables)` returns None in their places and
        `optimizer.apply_gradients` warns "Gradients do not exist for variables" or fails.

        Instead: `model.trainable_variables` (or `trainable_weights`) for both the gradient and
        the update.
    """
    invalid = [
        Invalid(
            """
            import tensorflow as tf
            model = tf.keras.Sequential([tf.keras.layers.Dense(8), tf.keras.layers.BatchNormalization(), tf.keras.layers.Dense(1)])
            opt = tf.keras.optimizers.Adam()
            x, y = tf.random.normal((16, 4)), tf.random.normal((16, 1))
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean((model(x, training=True) - y) ** 2)
            grads = tape.gradient(loss, model.variables)
            opt.apply_gradients(zip(grads, model.variables))
            """,
            line=7,
            fixed="""
            import tensorflow as tf
            model = tf.keras.Sequential([tf.keras.layers.Dense(8), tf.keras.layers.BatchNormalization(), tf.keras.layers.Dense(1)])
            opt = tf.keras.optimizers.Adam()
            x, y = tf.random.normal((16, 4)), tf.random.normal((16, 1))
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean((model(x, training=True) - y) ** 2)
            grads = tape.gradient(loss, model.trainable_variables)
            opt.apply_gradients(zip(grads, model.variables))
            """,
        )
    ]
    valid = [
        """
        import tensorflow as tf
        model = tf.keras.Sequential([tf.keras.layers.Dense(8), tf.keras.layers.BatchNormalization(), tf.keras.layers.Dense(1)])
        x, y = tf.random.normal((16, 4)), tf.random.normal((16, 1))
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean((model(x, training=True) - y) ** 2)
        grads = tape.gradient(loss, model.trainable_variables)
        tf.keras.optimizers.Adam().apply_gradients(zip(grads, model.trainable_variables))
        print(len(model.variables))
        """
    ]

    _ALL = {"variables": "trainable_variables", "weights": "trainable_weights"}

    def on_diff(self, ev: DiffEvent) -> None:
        if ev.kind != "tape" or ev.sources is None:
            return
        node = ev.source_node
        if not (isinstance(node, cst.Attribute) and node.attr.value in self._ALL):
            return
        # a model or module (or a parameter of the training function, `def train_step(model, ...)`):
        # the `.variables` list of an object of a class the module defines is whatever it holds
        if ev.sources.kind not in ("module", "params") and not any(o.kind in ("module", "sym") for o in ev.sources.live):
            return
        # a model given to this code (a parameter, or one known only from its uses: its origin
        # is not a constructor call seen here) may hold non-trainable variables
        given = any(o.kind == "sym" or (o.kind == "module" and not isinstance(o.node, cst.Call)) for o in ev.sources.live)
        if not given and not _NON_TRAINABLE.search(self.ctx.code_text):
            return  # a model built here with no non-trainable variable in sight: `.variables` is the trainable list
        better = self._ALL[node.attr.value]
        self.report(
            ev.node,
            f"`.{node.attr.value}` lists every variable of the model, including non-trainable ones (BatchNormalization's "
            f"moving statistics, frozen layers): their gradients are None and apply_gradients warns or fails; use "
            f"`.{better}` for the gradient and the update",
            fix=RuleFix(f"Differentiate with respect to .{better}", (NodeEdit(node.attr, better),), Applicability.UNSAFE),
        )


# ----------------------------------------------------------------------------- JAX
_FLOAT_CASTS = frozenset({"builtins.float", "builtins.complex"})


def _transform(traced) -> str:
    """How the message names the transform that traces (jit, vmap and pmap trace alike)."""
    name = callee_last(traced.node) if isinstance(traced.node, cst.Call) else None  # `jax.vmap(f)`
    if name in ("scan", "fori_loop", "while_loop", "cond", "map", "associative_scan"):
        return f"jax.lax.{name}"  # its body: traced abstractly, under jit or not
    return f"jax.{name}" if name in ("vmap", "pmap") else "jax.jit"


def _computes_an_array(test: cst.BaseExpression) -> bool:
    """Whether a branch test computes its value (a comparison by value, arithmetic, a call)
    rather than reading one: `if state.dynamic_scale:` and `if cfg is None:` ask a Python
    object (a pytree node, an option) for its truth, which is no tracer even when the object
    came in as a traced argument."""
    if isinstance(test, cst.BooleanOperation):
        return _computes_an_array(test.left) or _computes_an_array(test.right)
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        return _computes_an_array(test.expression)
    if isinstance(test, cst.Comparison):
        return not any(isinstance(t.operator, (cst.Is, cst.IsNot, cst.In, cst.NotIn)) for t in test.comparisons)
    return isinstance(test, (cst.BinaryOperation, cst.Call))


# Arguments that set a size or a number of steps: under jit they must be Python numbers.
_STATIC_SIZE_ARGS: dict[str, frozenset[int]] = {
    "builtins.range": frozenset({0, 1, 2}),
    "jax.numpy.arange": frozenset({0, 1, 2}),
    "jax.numpy.zeros": frozenset({0}),
    "jax.numpy.ones": frozenset({0}),
    "jax.numpy.empty": frozenset({0}),
    "jax.numpy.full": frozenset({0}),
    "jax.numpy.eye": frozenset({0, 1}),
    "jax.numpy.identity": frozenset({0}),
    "jax.numpy.linspace": frozenset({2}),
    "jax.numpy.tri": frozenset({0, 1}),
    "jax.numpy.reshape": frozenset({1}),
    "jax.numpy.broadcast_to": frozenset({1}),
    "jax.numpy.tile": frozenset({1}),
    "jax.lax.full": frozenset({0}),
    "jax.lax.iota": frozenset({1}),
    "jax.lax.broadcast": frozenset({1}),
    "jax.lax.dynamic_slice": frozenset({2}),
    "jax.lax.dynamic_slice_in_dim": frozenset({2}),
    "jax.random.normal": frozenset({1}),
    "jax.random.uniform": frozenset({1}),
}
_STATIC_SIZE_KEYWORDS: dict[str, tuple[str, ...]] = {
    "jax.numpy.zeros": ("shape",), "jax.numpy.ones": ("shape",), "jax.numpy.empty": ("shape",),
    "jax.numpy.full": ("shape",), "jax.numpy.linspace": ("num",), "jax.numpy.eye": ("N", "M"),
    "jax.numpy.reshape": ("shape", "newshape"), "jax.numpy.broadcast_to": ("shape",), "jax.lax.full": ("shape",),
    "jax.lax.dynamic_slice": ("slice_sizes",), "jax.lax.dynamic_slice_in_dim": ("slice_size",),
    "jax.random.normal": ("shape",), "jax.random.uniform": ("shape",),
}


class ConcreteValueInTracedFunction(Rule):
    code = "GL121"
    message = "float()/int()/NumPy (or, under jit, a size) on a traced value inside a function given to jax.grad/jit"
    severity = Severity.ERROR
    frameworks = ("jax",)
    docs = "https://jax.readthedocs.io/en/latest/errors.html#jax.errors.ConcretizationTypeError"
    triggers = ("jax",)
    rationale = """
        Inside a function transformed by `jax.grad`, `jax.value_and_grad`, `jax.jit` (and the
        other transformations) the arguments are tracers. `float(x)`, `int(x)`, `x.item()`,
        NumPy functions (`np.mean(x)`) and SciPy's, built on NumPy (`scipy.special.erf(x)`; JAX's
        own is `jax.scipy`), need a concrete value: under `jit` they raise
        `ConcretizationTypeError` / `TracerArrayConversionError`; under `grad` NumPy, `float()`
        and the `math` module (`math.exp(x)`, `math.ceil(x)`, which call `float()`) raise as
        well (older JAX let `float()` through as a silent `stop_gradient`), while `int()` and
        `bool()` read the primal value: the term contributes nothing to the gradient. Under
        `jit` a size must be concrete too: `range(n)`, `jnp.arange(n)`,
        `jnp.zeros(n)` with `n` computed from a traced argument (even through `jnp.ceil` or
        `//`: under jit every operation on a tracer gives a tracer) raise when traced. A bound
        method given to `jax.jit(self.f)` is traced without `self` (static_argnums count after
        it). A Python `if`/`while` on a computed traced value (`if norm > 1.0:`) raises
        TracerBoolConversionError; a test that only reads an object (`if state.dynamic_scale:`,
        `if cfg is None:`) is Python's own business. gradlint follows the traced values into
        helper functions of the module. jit traces only the arguments a call gives: a parameter
        with a default that no call in the module passes (every use of the function a call) is
        the default's Python value, like a static argument.

        Instead: use `jax.numpy` (`jnp.mean`, `jnp.abs`) and `jnp.where`/`jax.lax.cond` instead
        of Python branches on traced values.
    """
    invalid = [
        Invalid(
            """
            import jax
            import jax.numpy as jnp

            def huber(residual, delta=1.0):
                r = float(jnp.abs(residual))
                return 0.5 * residual ** 2 if r <= delta else delta * (r - 0.5 * delta)

            def loss(w, x, y):
                return huber(jnp.dot(w, x) - y)

            print(jax.grad(loss)(jnp.array([0.5, -0.2]), jnp.array([1.0, 2.0]), 0.3))
            """,
            line=5,
        ),
        Invalid(
            """
            import jax
            import jax.numpy as jnp

            @jax.jit
            def rollout(state):
                for _ in range(state.remaining_steps):
                    state = state.step()
                return state
            """,
            line=6,
        ),
        Invalid(
            """
            import jax
            import jax.numpy as jnp

            class Waveform:
                def __init__(self, dt):
                    self.dt = dt

                def times(self, duration):
                    return jnp.arange(jnp.ceil(duration / self.dt)) * self.dt

                def __call__(self, duration):
                    return jax.jit(self.times)(duration)
            """,
            line=9,
        ),
        Invalid(
            """
            import jax
            import jax.numpy as jnp

            @jax.jit
            def clipped_step(params, grads):
                norm = jnp.sqrt(sum(jnp.sum(g ** 2) for g in jax.tree_util.tree_leaves(grads)))
                if norm > 1.0:
                    grads = jax.tree_util.tree_map(lambda g: g / norm, grads)
                return jax.tree_util.tree_map(lambda p, g: p - 0.1 * g, params, grads)
            """,
            line=7,
        ),
    ]
    valid = [
        """
        import numpy as np
        import jax
        import jax.numpy as jnp
        x = np.linspace(0, 1, 100)
        y = 2 * x + 3
        def mse(params, x, y):
            return jnp.mean((params["w"] * x + params["b"] - y) ** 2)
        g = jax.jit(jax.grad(mse))({"w": 2.0, "b": 1.0}, x, y)
        print({k: float(v) for k, v in g.items()})
        """,
        """
        import functools
        import math
        import jax
        import jax.numpy as jnp

        @jax.jit
        def pad(x):
            n = x.shape[0]
            return jnp.concatenate([x, jnp.zeros(n)]) + jnp.arange(int(math.ceil(n / 2))).sum()

        @functools.partial(jax.jit, static_argnums=1)
        def repeat(x, steps):
            for _ in range(steps):
                x = x * 2
            return x

        class Waveform:
            def __init__(self, dt):
                self.dt = dt

            def times(self, duration):
                return jnp.arange(math.ceil(duration / self.dt)) * self.dt

            def __call__(self, duration):
                return jax.jit(self.times, static_argnums=0)(duration)

        @jax.jit
        def train_step(state, batch):
            if state.dynamic_scale:  # a pytree node or None: Python truth, no tracer
                batch = batch * 2
            if batch.shape[0] > 1 and state.opt is not None:
                batch = batch[1:]
            return state, batch
        """,
    ]

    def on_call(self, ev: CallEvent) -> None:
        tr = ev.ctx.traced
        if tr is None:
            return
        q = ev.qual or ""
        # NumPy, and SciPy (built on NumPy: `scipy.integrate.quad`, `scipy.linalg.expm`; JAX's own
        # is `jax.scipy`): both turn their arguments into NumPy arrays
        is_np = q.startswith(("numpy.", "scipy."))
        is_cast = q in BUILTIN_CASTS
        # `math.ceil(T / dt)`, `math.exp(x)`: the math module converts with float()/__index__
        # (math.prod only multiplies)
        is_math = q.startswith("math.") and q != "math.prod"
        is_meth = ev.method in ("item", "tolist") and ev.recv is not None
        jit = tr.kind == "jit"
        if jit and not (is_np or is_cast or is_math or is_meth):
            # under jit a size must be concrete too: `range(n)`, `jnp.arange(n)`, `jnp.zeros(n)`
            sizes = _STATIC_SIZE_ARGS.get(q)
            if sizes is None:
                return
            vals = [v for i, v in enumerate(ev.args) if i in sizes]
            vals += [v for k, v in ev.kwargs.items() if k in _STATIC_SIZE_KEYWORDS.get(q, ())]
            # a shape tuple: its entries (`jnp.ones((count,))` of a staged `count`)
            vals += [item for v in vals if v.kind in (K.TUPLE, K.LIST) for item in v.get(F.ITEMS) or ()]
            if any(holds_tracer(v, jit) for v in vals):
                made = next((v.get(F.STAGED) for v in vals if isinstance(v.get(F.STAGED), cst.Call)
                             and not any(o.kind == "jaxarg" for o in v.live)), None)
                if made is not None:
                    self._report_staged(made, ev.node)
                else:
                    self._report(ev.node, "jit", False, size=True, by=_transform(tr))
            return
        if not (is_np or is_cast or is_math or is_meth):
            return
        if is_np and q.rsplit(".", 1)[-1] in DEFER_TO_METHOD and ev.args and ev.args[0].get(F.FW) == "jax":
            return  # `np.mean(tracer)` runs `tracer.mean()`: JAX computes it (the numpy overlay)
        vals = [ev.recv] if is_meth else [*ev.args, *ev.kwargs.values()]  # `quad(f, a=lo, b=hi)`
        # a dict is not an array: NumPy wraps it as one object and never reads the tracers in it
        # (`np.sum(metrics_dict, -1)` returns the dict)
        if not any(holds_tracer(v, jit) for v in vals):
            return
        # float() (and the math module, which calls it) of a value that carries the gradient
        # raises under grad too: JAX has no concrete value there since 0.4.36
        raises = is_np or is_math or q in _FLOAT_CASTS
        if jit or raises or is_meth:
            self._report(ev.node, tr.kind, raises, by=_transform(tr) if jit else "jax.grad")
        # int()/bool() under grad: the primal's value, a silent stop_gradient; reported when it
        # reaches the output (on_diff)

    def on_use(self, ev: UseEvent) -> None:
        if ev.ctx.traced is None or ev.ctx.traced.kind != "jit":
            return
        if ev.name == "slice_bound" and holds_tracer(ev.value, True):
            # `a[:k]`: a slice's entries must be static integers (IndexError; a list's
            # `__index__` raises TracerIntegerConversionError)
            self.report(
                ev.node,
                f"a slice bound computed from a traced value inside a function transformed by {_transform(ev.ctx.traced)}: "
                "slice entries must be static integers, so tracing raises IndexError (\"Slice entries must be static "
                "integers\"); make the bound static (static_argnums), or keep the shape fixed and mask "
                "(jnp.where(jnp.arange(n) < k, a, 0)) or use jax.lax.dynamic_slice with a static size",
            )
            return
        # `if t > 0:` under jit: Python asks the tracer for a bool (TracerBoolConversionError)
        if ev.name != "branch":
            return
        if _computes_an_array(ev.node) and holds_tracer(ev.value, True):
            self.report(
                ev.node,
                f"a Python `if`/`while` on a traced value inside a function transformed by {_transform(ev.ctx.traced)}: the "
                "branch needs a concrete bool, so tracing raises TracerBoolConversionError; use jnp.where, jax.lax.cond or "
                "jax.lax.while_loop, or make the value static (static_argnums)",
            )

    def on_diff(self, ev: DiffEvent) -> None:
        if ev.kind != "jax":
            return
        for o, c in certain_cuts(ev.target, ("float", "int", "bool"), framework="jax"):
            if o.kind == "jaxarg":
                # (a float() on_call saw already gives the same message: reported once)
                self._report(c.node, "grad", c.kind == "float")

    def _report_staged(self, made, use) -> None:
        """A size computed with jax.numpy from static values only (shapes, static arguments):
        the jnp call is what made it a tracer (omnistaging), so it is reported there."""
        self.report(
            made,
            lambda line: (
                f"`{call_name(made)}` of static values (shapes, static arguments) is still staged inside jax.jit (every "
                f"jax.numpy call is): its result is a tracer, and `{call_name(use)}` on line {line(use)} takes a size from "
                "it, which raises ConcretizationTypeError; compute sizes with Python or NumPy (`min(...)`, `np.minimum`)"
            ),
        )

    def _report(self, node, kind: str, raises: bool, size: bool = False, by: str | None = None) -> None:
        what = f"`{call_name(node)}`" if isinstance(node, cst.Call) else "this conversion"
        by = by or f"jax.{'jit' if kind == 'jit' else 'grad'}"
        if size:
            self.report(
                node,
                f"{what} takes a size from a traced value inside a function transformed by {by}: array shapes and "
                f"loop counts must be known when tracing, so it raises ConcretizationTypeError/TracerIntegerConversionError; "
                f"compute the size from static values (shapes, static_argnums) or loop with jax.lax.fori_loop/scan",
            )
            return
        if kind == "jit" or raises:
            effect = "needs a concrete value and raises ConcretizationTypeError/TracerArrayConversionError under tracing"
        else:
            effect = "acts as a silent stop_gradient under jax.grad: this term contributes no gradient"
        self.report(
            node,
            f"{what} on a traced value inside a function transformed by {by}: it {effect}; "
            f"use jax.numpy (jnp.*) and jnp.where/jax.lax.cond instead of Python numbers and branches",
        )


class KerasBackendGradientsInEager(Rule):
    code = "GL122"
    message = ("K.gradients() (Keras' backend gradients) in code that runs eagerly: TensorFlow 2 raises \"tf.gradients is not "
               "supported when eager execution is enabled\", and Keras 3 has no K.gradients")
    severity = Severity.WARNING
    frameworks = ("tf",)
    docs = "https://keras.io/examples/vision/grad_cam/"
    triggers = ("gradients(",)
    call_names = frozenset({"gradients"})
    rationale = """
        `K.gradients(loss, model.input)` (`keras.backend.gradients`) is TensorFlow 1's
        `tf.gradients`: it differentiates tensors of a graph built beforehand. Grad-CAM,
        DeepDream, filter visualisation and WGAN-GP penalties written for standalone Keras
        call it on the model's symbolic tensors (`model.output`, `layer.output`,
        `model.input`). Under TensorFlow 2, which executes eagerly by default, it raises
        "tf.gradients is not supported when eager execution is enabled. Use tf.GradientTape
        instead."; inside a loss Keras compiles into its own function it returns `[None]` for
        the model's symbolic inputs; and Keras 3 has no `keras.backend.gradients` at all.

        Not reported in a file that runs TensorFlow 1 graph mode (it disables eager execution
        or v2 behaviour, uses a Session, placeholders, `tf.contrib` or imports
        `tensorflow.compat.v1 as tf`), nor inside a `@tf.function`.

        Instead: run the model inside a `tf.GradientTape` and differentiate what the call
        returns; for an inner layer, build a model that returns it too
        (`keras.Model(model.inputs, [layer.output, model.output])`).
    """
    invalid = [
        Invalid(
            """
            import numpy as np
            from tensorflow import keras
            from tensorflow.keras import backend as K

            model = keras.applications.VGG16(weights=None)
            conv = model.get_layer("block5_conv3")
            img = np.zeros((1, 224, 224, 3), "float32")
            score = model.output[:, np.argmax(model.predict(img)[0])]
            grads = K.gradients(score, conv.output)[0]
            """,
            line=9,
        )
    ]
    valid = [
        """
        import numpy as np
        import tensorflow as tf
        from tensorflow import keras

        model = keras.applications.VGG16(weights=None)
        conv = model.get_layer("block5_conv3")
        img = np.zeros((1, 224, 224, 3), "float32")
        grad_model = keras.Model(model.inputs, [conv.output, model.output])
        with tf.GradientTape() as tape:
            conv_out, preds = grad_model(img)
            score = preds[:, tf.argmax(preds[0])]
        grads = tape.gradient(score, conv_out)
        """,
        """
        import numpy as np
        import tensorflow as tf
        from tensorflow import keras
        from tensorflow.keras import backend as K

        tf.compat.v1.disable_eager_execution()
        model = keras.applications.VGG16(weights=None)
        grads = K.gradients(model.output[:, 0], model.input)[0]
        iterate = K.function([model.input], [grads])
        """
    ]

    def on_call(self, ev: CallEvent) -> None:
        if ev.qual not in KERAS_BACKEND_GRADIENTS or TF1_GRAPH_MODE.search(self.ctx.code_text):
            return
        for a in self.ctx.ancestors(ev.node):
            if isinstance(a, cst.FunctionDef) and traced_by_tf_function(a):
                return  # `@tf.function`: a graph, where tf.gradients works
        self.report(
            ev.node,
            f"`{self.ctx.code(ev.node.func)}()` is TensorFlow 1's graph-mode `tf.gradients`: under TensorFlow 2 (eager by default) "
            f"it raises \"tf.gradients is not supported when eager execution is enabled\" (in a compiled Keras loss it returns "
            f"None for the model's inputs), and Keras 3 has no backend gradients; run the model inside a `tf.GradientTape` and "
            f"differentiate what the call returns (`keras.Model(model.inputs, [layer.output, model.output])` for an inner layer)",
        )


class SymbolicTensorInCompiledLoss(Rule):
    code = "GL123"
    message = ("a loss given to compile() computes with a symbolic Keras tensor of the model (an Input, a layer's output) "
               "instead of y_true/y_pred: TensorFlow 2 Keras raises when fit() runs it")
    severity = Severity.WARNING
    frameworks = ("tf",)
    docs = "https://keras.io/api/losses/#the-addloss-api"
    triggers = ("Input",)
    rationale = """
        Keras calls a compiled loss as `loss(y_true, y_pred)` on each batch. Written for
        standalone Keras on TensorFlow 1, a loss often closes over other tensors of the
        functional model: extra `Input` layers carrying a PPO policy's old probabilities and
        advantages, a hidden layer's output for an activity penalty. Those are symbolic tensors
        (placeholders of the model's graph), not the batch's data. TensorFlow 2 Keras rejects
        them when `fit()` runs the loss ("Cannot convert a symbolic Keras input/output to a
        numpy array", "Inputs to eager execution function cannot be Keras symbolic tensors", or
        in Keras 3 "A KerasTensor cannot be used as input to a TensorFlow function"); under
        TensorFlow 1 a loss that ignores `y_pred` gives the output layer no gradient.

        Not reported in a file that runs TensorFlow 1 graph mode (it disables eager execution,
        uses a Session, placeholders, `tf.contrib`, or imports `tensorflow.compat.v1 as tf`).

        Instead: compute the term where the tensors are defined and attach it with
        `model.add_loss(...)`, or feed the extra data as part of `y_true` (concatenated targets)
        or through a custom `train_step`.
    """
    invalid = [
        Invalid(
            """
            from tensorflow import keras
            from tensorflow.keras import backend as K
            state = keras.Input(shape=(8,))
            advantage = keras.Input(shape=(1,))
            probs = keras.layers.Dense(4, activation="softmax")(state)
            def ppo_loss(y_true, y_pred):
                return -K.mean(K.sum(y_true * K.log(y_pred + 1e-10), axis=-1) * advantage)
            model = keras.Model([state, advantage], probs)
            model.compile(optimizer="adam", loss=ppo_loss)
            """,
            line=7,
        )
    ]
    valid = [
        """
        from tensorflow import keras
        from tensorflow.keras import backend as K
        state = keras.Input(shape=(8,))
        advantage = keras.Input(shape=(1,))
        hidden = keras.layers.Dense(16, activation="relu")(state)
        probs = keras.layers.Dense(4, activation="softmax")(hidden)
        model = keras.Model([state, advantage], probs)
        model.add_loss(1e-4 * K.sum(K.square(hidden)))
        def policy_loss(y_true, y_pred):
            return -K.mean(K.sum(y_true * K.log(y_pred + 1e-10), axis=-1))
        model.compile(optimizer="adam", loss=policy_loss)
        """
    ]

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        # the first operation of each function that is given a symbolic tensor: id(def) -> node
        self._first_use: dict[int, cst.CSTNode] = {}

    def on_call(self, ev: CallEvent) -> None:
        if ev.qual in KERAS_INPUT:
            ev.add_note(Note(KERAS_SYMBOLIC_NOTE, ev.node))
        elif ev.ctx.fn is not None and any(v is not None and v.sorted_notes(KERAS_SYMBOLIC_NOTE) for v in (*ev.args, *ev.kwargs.values())):
            self._first_use.setdefault(id(ev.ctx.fn.node), ev.node)

    def on_binop(self, ev) -> None:
        if ev.ctx.fn is not None and (ev.left.sorted_notes(KERAS_SYMBOLIC_NOTE) or ev.right.sorted_notes(KERAS_SYMBOLIC_NOTE)):
            self._first_use.setdefault(id(ev.ctx.fn.node), ev.node)

    def on_diff(self, ev: DiffEvent) -> None:
        if ev.kind != "keras" or ev.fn is None or TF1_GRAPH_MODE.search(self.ctx.code_text):
            return
        notes = ev.target.sorted_notes(KERAS_SYMBOLIC_NOTE)
        use = self._first_use.get(id(ev.fn.node))
        if not notes or use is None:
            return
        made = notes[0].node
        self.report(
            use,
            lambda line: (
                f"this compiled Keras loss computes with the symbolic tensor made by `{self.ctx.code(made.func)}(...)` on line "
                f"{line(made)} (or a layer's output computed from it), not with `y_true`/`y_pred`: TensorFlow 2 Keras raises "
                f"when `fit()` runs the loss (\"Cannot convert a symbolic Keras input/output\", \"KerasTensor cannot be used "
                f"as input to a TensorFlow function\"); attach the term with `model.add_loss(...)` where the tensors are "
                f"defined, or pass the extra data in `y_true`"
            ),
        )


class NumpyOnGraphTensor(Rule):
    code = "GL124"
    message = "`.numpy()` (or `K.eval`/`K.get_value`) on a tensor in code TensorFlow runs as a graph (a compiled Keras loss, train_step, @tf.function): it raises"
    severity = Severity.ERROR
    frameworks = ("tf",)
    docs = "https://www.tensorflow.org/guide/function#debugging"
    triggers = (".numpy()",)
    rationale = """
        `t.numpy()` (and Keras' `K.eval(t)`, `K.get_value(t)`, `keras.ops.convert_to_numpy(t)`)
        needs an eager tensor. A loss given to `model.compile()`, a
        Keras model's `train_step`/`test_step` (which `fit()` and `evaluate()` wrap in a
        `tf.function`) and a `@tf.function` run as a graph: their tensors are symbolic, and
        `.numpy()` raises "'Tensor' object has no attribute 'numpy'" ("'SymbolicTensor' object
        ...", or, on a variable, "numpy() is only available when eager execution is enabled")
        on the first batch — typically a loss that hands `y_pred` to NumPy, SciPy or an
        external program. Were it run eagerly, the NumPy copy would carry no gradient anyway.

        Not reported when the file asks TensorFlow to run eagerly (`compile(run_eagerly=True)`,
        `tf.config.run_functions_eagerly(True)`), which makes it work for debugging.

        Instead: compute with TensorFlow ops on the tensor; for code that must run in Python,
        `tf.numpy_function`/`tf.py_function` (which has no gradient).
    """
    invalid = [
        Invalid(
            """
            import numpy as np
            import tensorflow as tf
            def spectral_loss(y_true, y_pred):
                spec = np.abs(np.fft.rfft(y_pred.numpy()))
                return tf.reduce_mean(tf.square(y_true - y_pred)) + float(spec.mean())
            model = tf.keras.Sequential([tf.keras.layers.Dense(8)])
            model.compile(optimizer="adam", loss=spectral_loss)
            """,
            line=4,
        )
    ]
    valid = [
        """
        import tensorflow as tf
        def spectral_loss(y_true, y_pred):
            spec = tf.abs(tf.signal.rfft(y_pred))
            return tf.reduce_mean(tf.square(y_true - y_pred)) + tf.reduce_mean(spec)
        model = tf.keras.Sequential([tf.keras.layers.Dense(8)])
        model.compile(optimizer="adam", loss=spectral_loss)
        x = tf.constant([1.0, 2.0])
        print(model(x[None]).numpy(), x.numpy())
        """,
        """
        import numpy as np
        import tensorflow as tf
        def debug_loss(y_true, y_pred):
            print(np.max(y_pred.numpy()))
            return tf.reduce_mean(tf.square(y_true - y_pred))
        model = tf.keras.Sequential([tf.keras.layers.Dense(8)])
        model.compile(optimizer="adam", loss=debug_loss, run_eagerly=True)
        """,
    ]

    call_names = frozenset({"numpy", "get_value", "eval", "batch_get_value", "convert_to_numpy"})

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        # conversions of a TensorFlow tensor in a function not yet known to be a compiled loss:
        # id(def) -> [(call node, what)], reported if compile() gives the function to Keras
        self._pending: dict[int, list] = {}

    def on_call(self, ev: CallEvent) -> None:
        if ev.method == "numpy" and not ev.args and ev.recv is not None:
            t, what = ev.recv, "`.numpy()`"
        elif ev.qual in KERAS_TO_NUMPY and ev.args:
            t, what = ev.args[0], f"`{self.ctx.code(ev.node.func)}()`"
        else:
            return
        if RUNS_EAGERLY.search(self.ctx.code_text):
            return
        fw = t.get(F.FW)
        if fw not in (None, "tf") or fw is None and any(o.certain and o.framework not in (None, "tf") for o in t.live):
            return  # a torch tensor's `.numpy()`
        if any(o.kind == K.ORIGIN_KERASOUT for o in t.live):
            self._report(ev.node, what, "this compiled Keras loss (`fit()` runs it as a graph)")
            return
        where = self._graph_function(ev)
        if where is not None and t.kind in (K.TENSOR, None):
            self._report(ev.node, what, where)
        elif fw == "tf" and ev.ctx.fn is not None:
            self._pending.setdefault(id(ev.ctx.fn.node), []).append((ev.node, what))  # `K.get_value(y_true)`

    def on_diff(self, ev: DiffEvent) -> None:
        if ev.kind == "keras" and ev.fn is not None:
            for node, what in self._pending.pop(id(ev.fn.node), ()):
                self._report(node, what, "this compiled Keras loss (`fit()` runs it as a graph)")

    def _report(self, node, what: str, where: str) -> None:
        self.report(
            node,
            f"{what} in {where}: the tensor is symbolic there, and this raises (\"'Tensor' object has no attribute "
            f"'numpy'\", \"numpy() is only available when eager execution is enabled\"); compute with TensorFlow ops (the "
            f"NumPy copy would carry no gradient anyway), or wrap the Python code in `tf.numpy_function`",
        )

    def _graph_function(self, ev: CallEvent) -> str | None:
        """The function TensorFlow traces into a graph that this call runs in (directly or in a
        helper it calls), described; None if there is none. Only the innermost function of
        each call site counts: a function nested in a `@tf.function` may be given to
        `tf.py_function`, which runs it eagerly."""
        if any(isinstance(c, cst.Call) and callee_last(c) in ("py_function", "numpy_function", "py_func") for c in ev.ctx.calls):
            return None
        for site in (ev.node, *reversed(ev.ctx.calls)):
            for a in self.ctx.ancestors(site):
                if isinstance(a, cst.Lambda):
                    break  # `tf.py_function(lambda: ...)`, `dataset.map(lambda x: ...)`: not decided here
                if not isinstance(a, cst.FunctionDef):
                    continue
                if traced_by_tf_function(a):
                    return f"`{a.name.value}`, a `@tf.function`"
                if a.name.value in KERAS_GRAPH_METHODS:
                    cls = next((c for c in self.ctx.ancestors(a) if isinstance(c, cst.ClassDef)), None)
                    if cls is not None and any((dotted_name(b.value) or "").rsplit(".", 1)[-1] == "Model" for b in cls.bases):
                        return f"the Keras model's `{a.name.value}` (`fit()` runs it as a `tf.function`)"
                break  # the innermost function decides
        return None


class NumpyOfTensorRequiringGrad(Rule):
    code = "GL125"
    message = "`.numpy()` (or np.array/np.asarray) on a torch tensor that requires grad: RuntimeError"
    severity = Severity.ERROR
    docs = "https://pytorch.org/docs/stable/generated/torch.Tensor.numpy.html"
    triggers = ("numpy()", "np.array(", "np.asarray(", "numpy.array(", "numpy.asarray(")
    rationale = """
        A tensor that requires grad (a parameter, or anything computed from one while
        autograd records: a model's output, a loss) cannot be turned into a NumPy array:
        `pred.numpy()`, `pred.cpu().numpy()`, `np.array(pred)` raise "Can't call numpy() on
        Tensor that requires grad. Use tensor.detach().numpy() instead." — typically when
        plotting predictions, feeding them to a scikit-learn metric, or saving weights. This
        rule reports such a conversion whose result is *not* on the way to a loss (GL101
        reports those, where the conversion also cuts the gradient).

        Instead: `pred.detach().cpu().numpy()` (the values, without history), compute the
        predictions under `with torch.no_grad():`, or `pred.numpy(force=True)` (torch 2.1+).
    """
    invalid = [
        Invalid(
            """
            import torch
            model = torch.nn.Linear(4, 1)
            x, y = torch.randn(16, 4), torch.randn(16, 1)
            torch.nn.functional.mse_loss(model(x), y).backward()
            pred = model(x)
            values = pred.cpu().numpy()
            """,
            line=6,
        )
    ]
    valid = [
        """
        import numpy as np
        import torch
        model = torch.nn.Linear(4, 1)
        pred = model(torch.randn(16, 4))
        values = pred.detach().cpu().numpy()
        with torch.no_grad():
            evaluated = np.asarray(model(torch.randn(16, 4)))
        weights = model.weight.data.numpy()
        """
    ]

    call_names = frozenset({"numpy", "array", "asarray"})

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        self._candidates: dict[int, cst.CSTNode] = {}  # id(call) -> call, in the order met
        self._to_loss: set[int] = set()  # conversions whose result reaches a differentiated value

    def on_call(self, ev: CallEvent) -> None:
        if ev.method == "numpy" and ev.recv is not None and not ev.args and "force" not in ev.kwargs:
            t = ev.recv
        elif ev.qual in ("numpy.array", "numpy.asarray") and ev.args:
            t = ev.args[0]
        else:
            return
        if t.kind in (K.TENSOR, None) and certainly_requires_grad(t):
            self._candidates.setdefault(id(ev.node), ev.node)

    def on_diff(self, ev: DiffEvent) -> None:
        self._to_loss.update(id(c.node) for _, c in ev.target.cuts)

    def finish(self) -> None:
        for key, node in self._candidates.items():
            if key in self._to_loss:
                continue  # on the way to a loss: GL101's finding (the gradient stops there too)
            self.report(
                node,
                f"`{self.ctx.code(node)}` converts a tensor that requires grad (a parameter, or computed from one while "
                f"autograd records): this raises \"Can't call numpy() on Tensor that requires grad\"; use `.detach().cpu().numpy()` "
                f"for the values, or compute it under `with torch.no_grad():`",
            )


class GradientPenaltyNeverUsed(Rule):
    code = "GL106"
    message = "a penalty computed from autograd.grad(create_graph=True) is never used: the loss backpropagated after it does not include it"
    severity = Severity.WARNING
    docs = "https://pytorch.org/docs/stable/generated/torch.autograd.grad.html"
    triggers = ("create_graph",)
    rationale = """
        `torch.autograd.grad(..., create_graph=True)` builds the graph of the gradient so that
        something computed from it — a WGAN-GP gradient penalty, an R1 regulariser, a
        Jacobian norm, a physics residual — can be backpropagated. When that value is assigned
        to a name that nothing ever reads, the loss backpropagated next does not contain it:
        the penalty costs a double backward's memory and time and has no effect on training
        (a critic trained without its gradient penalty). Usually the term was left out of the
        sum by mistake (`loss_D = d_fake - d_real` instead of `... + gp`).

        gradlint reports the loss backpropagated after the penalty in the same function when
        the name the penalty is bound to appears nowhere else in the file, or only where it is
        logged (`gp.item()`, `float(gp)`: a read that leaves autograd). Instead: add it to
        the loss (`loss_D = d_fake - d_real + gp`), or drop the computation.
    """
    invalid = [
        Invalid(
            """
            import torch

            def critic_step(D, opt, real, fake):
                eps = torch.rand(real.size(0), 1)
                x_hat = (eps * real + (1 - eps) * fake).requires_grad_(True)
                grad = torch.autograd.grad(D(x_hat).sum(), x_hat, create_graph=True)[0]
                gp = 10 * (grad.norm(2, dim=1) - 1).pow(2).mean()
                loss_D = D(fake).mean() - D(real).mean()
                opt.zero_grad()
                loss_D.backward()
                opt.step()
            """,
            line=8,
        ),
    ]
    valid = [
        """
        import torch

        def critic_step(D, opt, real, fake):
            eps = torch.rand(real.size(0), 1)
            x_hat = (eps * real + (1 - eps) * fake).requires_grad_(True)
            grad = torch.autograd.grad(D(x_hat).sum(), x_hat, create_graph=True)[0]
            gp = 10 * (grad.norm(2, dim=1) - 1).pow(2).mean()
            loss_D = D(fake).mean() - D(real).mean() + gp
            opt.zero_grad()
            loss_D.backward()
            opt.step()
        """,
    ]

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        self._second_order = SecondOrder()
        self._dead: dict[int, AssignEvent] = {}  # an assignment of a never-read penalty
        self._pending: dict[int, tuple] = {}  # dead assignment -> (it, the backward after it, where to report)
        self._used: set = set()  # create_graph gradient graphs some differentiated value contains
        self._last_assign: dict[tuple, cst.CSTNode] = {}  # (scope, name) -> its latest plain assignment
        self._read_cache: dict[str, bool] = {}

    def on_diff(self, ev: DiffEvent) -> None:
        if self._second_order.built_from(ev.target):
            self._used |= self._second_order.graphs(ev.target)
        if self._second_order.note(ev):
            return
        if ev.kind != "backward":
            return
        for key, a in self._dead.items():
            if a.ctx.fn is not ev.ctx.fn or key in self._pending or ev.target.graphs & self._second_order.graphs(a.value):
                continue  # another function's, or this loss does contain a gradient graph of the penalty
            if self._before(a.node, ev.node):
                self._pending[key] = (a, ev, self._definition_of(ev) or ev.node)

    def finish(self) -> None:
        for a, ev, where in self._pending.values():
            if self._second_order.graphs(a.value) & self._used:
                continue  # the penalty's gradient graph is differentiated somewhere (`gp.backward()`, a sum that holds it)
            self.report(
                where,
                lambda line, a=a, ev=ev: (
                    f"the loss backpropagated on line {line(ev.node)} does not include `{a.name}` (line {line(a.node)}), a "
                    f"penalty computed from a gradient taken with create_graph=True that nothing but logging reads: it has no effect on "
                    f"training; add it to the loss (`... + {a.name}`) or drop it"
                ),
            )

    def on_assign(self, ev: AssignEvent) -> None:
        if not self._second_order or ev.op is not None or not isinstance(ev.target_node, cst.Name):
            return  # (a loss assigned before any create_graph gradient cannot omit a penalty)
        self._last_assign[(id(ev.ctx.fn), ev.name)] = ev.node
        if id(ev.node) in self._dead:
            return
        if ev.value.kind not in ("tensor", None) or not self._second_order.built_from(ev.value):
            return
        if any(isinstance(n, cst.Call) and self._second_order.has_call(n) for n in walk(ev.node, code_only=True)):
            return  # the gradient itself (`grads = autograd.grad(...)`), not something computed from it
        if not self._never_read(ev.name):
            return
        self._dead[id(ev.node)] = ev

    def _never_read(self, name: str) -> bool:
        """Every mention of `name` in the file's code (strings and comments blanked) is the
        target of a plain assignment (one scan of the text per name: loops and copies of a
        function ask again)."""
        known = self._read_cache.get(name)
        if known is None:
            known = self._read_cache[name] = self._scan_never_read(name)
        return known

    def _scan_never_read(self, name: str) -> bool:
        """... or a read that leaves autograd and so cannot put the penalty into a loss: logging
        (`gp.item()`, `float(gp)`, `gp.detach().cpu()`)."""
        text = self.ctx.code_text
        word = re.compile(r"(?<![\w.])" + re.escape(name) + r"(?!\w)")
        target = re.compile(r"(?<![\w.])" + re.escape(name) + r"[ \t]*=(?!=)")
        logged = re.compile(r"(?<![\w.])" + re.escape(name) + r"\.(?:item|detach|tolist|numpy|cpu)\(")
        uses = [m.start() for m in word.finditer(text)]
        return bool(uses) and any(target.match(text, i) for i in uses) and all(
            target.match(text, i) and text[text.rfind("\n", 0, i) + 1 : i].strip() == ""
            or logged.match(text, i) or re.search(r"\b(?:float|int)\(\s*$", text[max(0, i - 8):i]) for i in uses)

    def _before(self, a, b) -> bool:
        ra, rb = self.ctx.range_of(a), self.ctx.range_of(b)
        return ra is not None and rb is not None and ra[0].line < rb[0].line

    def _definition_of(self, ev: DiffEvent):
        """The last plain assignment of the backpropagated name before the backward, in the
        same scope: where the penalty should have been added."""
        name = dotted_name(ev.target_node) if ev.target_node is not None else None
        return self._last_assign.get((id(ev.ctx.fn), name)) if name else None


# ------------------------------------------------------------------ weights combined once, at construction
_WEIGHT_MAKERS = frozenset({"Variable", "add_weight", "add_variable", "get_variable", "Parameter", "Buffer"})
# what reads a weight's shape, type or place, not its values (`torch.zeros_like(self.weight)`)
_SHAPE_ONLY = frozenset({"zeros_like", "ones_like", "empty_like", "full_like", "rand_like", "randn_like", "randint_like",
                         "size", "dim", "numel", "shape", "dtype", "device"})
# what cuts the computation from the weight on purpose (a snapshot: `self.w0 = self.w.detach().clone()`)
_SNAPSHOTS = frozenset({"detach", "stop_gradient", "deepcopy", "numpy", "item", "tolist"})


def _self_path(node) -> str | None:
    """`x` of `self.x`, `fc.weight` of `self.fc.weight` (at most two attributes deep)."""
    name = dotted_name(node) if isinstance(node, cst.Attribute) else None
    if name is None or not name.startswith("self.") or name.count(".") > 2:
        return None
    return name[len("self."):]


def _not_trainable(call: cst.Call) -> bool:
    return any(a.keyword is not None and a.keyword.value in ("trainable", "requires_grad") and isinstance(a.value, cst.Name)
               and a.value.value == "False" for a in call.args)


def _self_stores(fn_node: cst.FunctionDef):
    """(attribute, value, statement) of each `self.attr = value` in a method body (nested
    functions left out)."""
    for n in own_small_statements(fn_node):
        if isinstance(n, cst.Assign) and len(n.targets) == 1:
            attr = _self_path(n.targets[0].target)
            if attr is not None and "." not in attr:
                yield attr, n.value, n


def _weights_of(setup: list, layers: frozenset[str]) -> set[str]:
    """The trainable weights a class creates at construction: `self.w = tf.Variable(...)`,
    `self.add_weight(...)`, `nn.Parameter(...)`; and the `weight`/`bias` of the torch layers it
    creates (`self.fc = nn.Linear(...)`: `fc.weight`; `layers`: the module classes of the file)."""
    weights: set[str] = set()
    for fn in setup:
        for attr, value, _ in _self_stores(fn.node):
            if not isinstance(value, cst.Call):
                continue
            made = callee_last(value)
            if made in _WEIGHT_MAKERS and not _not_trainable(value):
                weights.add(attr)
            elif (dotted_name(value.func) or "").startswith(("nn.", "torch.nn.")) or made in layers:
                weights.update((f"{attr}.weight", f"{attr}.bias"))
    return weights


# torch operations that return a view of their input: a view of a parameter made at
# construction shares its storage (an optimizer step shows through) and saves nothing for backward
_VIEWS = frozenset({"t", "transpose", "permute", "view", "view_as", "unsqueeze", "squeeze", "expand", "expand_as",
                    "narrow", "select", "unflatten", "T", "mT", "H", "mH", "detach"})


def _only_views(node) -> bool:
    """`self.fc.weight.t()`, `self.w.view(-1, 1)[0]`, `self.w.T`: views of the weight only."""
    while True:
        if _self_path(node) is not None:
            return True
        if isinstance(node, cst.Subscript):
            node = node.value
        elif isinstance(node, cst.Attribute) and node.attr.value in _VIEWS:
            node = node.value
        elif isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value in _VIEWS:
            node = node.func.value
        else:
            return False


def _under_no_grad(ctx, stmt) -> bool:
    """Inside `with torch.no_grad():` (or inference_mode): no graph is built there."""
    for a in ctx.ancestors(stmt):
        if isinstance(a, cst.With) and any(callee_last(i.item) in ("no_grad", "inference_mode") for i in a.items
                                           if isinstance(i.item, cst.Call)):
            return True
        if isinstance(a, cst.FunctionDef):
            return False
    return False


def _computes_from(value, weights: set[str]) -> str | None:
    """The weight a computed expression reads (`self.mu + self.sigma * eps`,
    `tf.transpose(self.kernel)`, `self.fc.weight.t()`), or None: a plain alias, a new weight
    wrapping it (`nn.Parameter(self.w * 2)`), an initializer or a detached snapshot is not a
    computation on it."""
    if not isinstance(value, (cst.BinaryOperation, cst.UnaryOperation, cst.Call)):
        return None
    found = None
    for n in walk(value, lambda n: not isinstance(n, cst.Lambda), code_only=True):
        if isinstance(n, cst.Call) and callee_last(n) in _WEIGHT_MAKERS | _SNAPSHOTS:
            return None
        if isinstance(n, cst.Attribute) and n.attr.value == "data":
            return None
        if (isinstance(n, cst.Call) and callee_last(n) in _SHAPE_ONLY) or (isinstance(n, cst.Attribute) and n.attr.value in _SHAPE_ONLY):
            return None  # `zeros_like(self.w)`, `self.w.shape[0]`: its shape, not its values
        path = _self_path(n)
        if found is None and path in weights:
            found = path
    return found


class WeightComputedInBuild(Rule):
    code = "GL120"
    message = "a layer computes a tensor from its trainable weights once, at construction (Keras build()/__init__, torch __init__), and reuses it on every call: no gradient reaches the weights through it (Keras), or the second backward raises (torch)"
    severity = Severity.WARNING
    docs = "https://keras.io/guides/making_new_layers_and_models_via_subclassing/"
    triggers = ("build", "__init__")
    chunk_triggers = (r"def\s+(?:build|call)\s*\(",)
    frameworks = ("tf", "torch")
    rationale = """
        A layer's `build()` and `__init__` run once, when the layer is made. A tensor computed
        there from the layer's trainable weights — `self.kernel = self.weight_mu +
        self.weight_sigma * eps`, `self.w_t = tf.transpose(self.w)`, `self.masked = self.weight
        * self.mask`, `self.w_t = self.fc.weight.t()` — is computed from their initial values
        and reused by every call:

        - in Keras it is an eager constant computed outside any `GradientTape`: the tape records
          no operation on the variables, so they get a None gradient ("No gradients provided
          for any variable", or they silently stay at their initial values while the rest
          trains);
        - in PyTorch it is a copy of the initial values: every forward keeps using them after
          `optimizer.step()` (the updates never reach the output), and where the computation
          saved tensors for backward (`self.weight * self.mask`), the second backward raises
          "Trying to backward through the graph a second time". A view (`self.fc.weight.t()`,
          `.view(...)`) shares the parameter's storage and is not reported.

        A detached snapshot (`self.w0 = self.w.detach().clone()`, for a penalty towards the
        initial weights), a new weight made from it (`nn.Parameter(self.w * 2)`), a plain alias
        (weight tying) and a non-trainable variable are not reported.

        Instead: create the weights at construction and compute what is derived from them in
        `call()`/`forward()`, on every call (`kernel = self.weight_mu + self.weight_sigma *
        self.eps`).
    """
    invalid = [
        Invalid(
            """
            import tensorflow as tf
            class NoisyDense(tf.keras.layers.Layer):
                def build(self, input_shape):
                    self.mu = self.add_weight(shape=(input_shape[-1], 4), initializer="glorot_uniform")
                    self.sigma = self.add_weight(shape=(input_shape[-1], 4), initializer="zeros")
                    self.kernel = self.mu + self.sigma * tf.random.normal((input_shape[-1], 4))
                def call(self, inputs):
                    return tf.matmul(inputs, self.kernel)
            """,
            line=6,
        ),
        Invalid(
            """
            import torch
            from torch import nn
            class MaskedLinear(nn.Module):
                def __init__(self, n):
                    super().__init__()
                    self.weight = nn.Parameter(torch.randn(n, n))
                    self.register_buffer("mask", torch.tril(torch.ones(n, n)))
                    self.masked = self.weight * self.mask
                def forward(self, x):
                    return x @ self.masked
            def train(model, loader, opt):
                for x, y in loader:
                    opt.zero_grad()
                    (model(x) - y).pow(2).mean().backward()
                    opt.step()
            """,
            line=8,
        ),
    ]
    valid = [
        """
        import tensorflow as tf
        class NoisyDense(tf.keras.layers.Layer):
            def build(self, input_shape):
                self.mu = self.add_weight(shape=(input_shape[-1], 4), initializer="glorot_uniform")
                self.sigma = self.add_weight(shape=(input_shape[-1], 4), initializer="zeros")
                self.eps = tf.random.normal((input_shape[-1], 4))
                self.frozen = tf.Variable(tf.ones((4,)), trainable=False)
                self.frozen_scale = self.frozen * 2.0
            def call(self, inputs):
                kernel = self.mu + self.sigma * self.eps
                return tf.matmul(inputs, kernel) * self.frozen_scale
        """,
        """
        import torch
        from torch import nn
        class MaskedLinear(nn.Module):
            def __init__(self, n):
                super().__init__()
                self.weight = nn.Parameter(torch.randn(n, n))
                self.register_buffer("mask", torch.tril(torch.ones(n, n)))
                self.w0 = self.weight.detach().clone()
            def forward(self, x):
                return x @ (self.weight * self.mask) + 0.0 * (self.weight - self.w0).pow(2).sum()
        def train(model, loader, opt):
            for x, y in loader:
                opt.zero_grad()
                (model(x) - y).pow(2).mean().backward()
                opt.step()
        """,
    ]

    def finish(self) -> None:
        classes = getattr(self.ctx.interp, "classes", ())
        layers: frozenset[str] | None = None  # the file's torch module classes, on first need
        for cls in classes:
            keras = cls.is_keras or any(b.rsplit(".", 1)[-1] in ("Layer", "Model") for b in cls.bases)
            torch = not keras and cls.is_torch_module
            if not (keras or torch):
                continue
            use = cls.methods.get("call" if keras else "forward")
            setup = [cls.methods[m] for m in (("build", "__init__") if keras else ("__init__",)) if m in cls.methods]
            if use is None or not setup or not isinstance(use.node, cst.FunctionDef):
                continue
            if torch and layers is None:
                layers = frozenset(c.name for c in classes if c.is_torch_module)
            weights = _weights_of(setup, layers if torch and layers is not None else frozenset())
            if not weights:
                continue
            # the stores computed from a weight first (rare); what forward/call reads only then
            computed = []
            for fn in setup:
                for attr, value, stmt in _self_stores(fn.node):
                    if attr not in weights and (weight := _computes_from(value, weights)) is not None:
                        computed.append((fn, attr, value, stmt, weight))
            if not computed:
                continue
            read = {a for n in walk(use.node.body, code_only=True) if (a := _self_path(n)) is not None}
            read -= {attr for attr, _, _ in _self_stores(use.node)}  # rebound on every call: fresh
            for fn, attr, value, stmt, weight in computed:
                if attr not in read or (torch and (_only_views(value) or _under_no_grad(self.ctx, stmt))):
                    continue
                self._report(stmt, attr, weight, fn.name, keras)

    def _report(self, stmt, attr: str, weight: str, made_in: str, keras: bool) -> None:
        if keras:
            effect = (f"outside every GradientTape, and `call()` reuses that constant, so `self.{weight}` gets no gradient "
                      f"through it (\"No gradients provided for any variable\", or it silently stays at its initial value); "
                      f"compute it in `call()` instead")
        else:
            effect = ("a copy of its initial values: `forward()` keeps using them after every optimizer.step(), so the "
                      "updates never reach the output, and where the computation saved tensors for backward the second "
                      "backward raises \"Trying to backward through the graph a second time\"; compute it in `forward()` "
                      "instead")
        self.report(stmt, f"`self.{attr}` is computed from the trainable weight `self.{weight}` once, in `{made_in}()`: {effect}")
