"""GL2xx backward and graph lifetime: freed graphs, retained graphs, create_graph, history kept.

Why this module is long: it is a catalogue of 6 rules, one class each, and a rule class is its
own specification (rationale, flagged and correct examples, fix); the logic of a rule is a few
dozen lines. Adding a rule adds a class here (see docs/architecture.md).
"""

from __future__ import annotations

import libcst as cst

from ..analysis import facts as F
from ..analysis import kinds as K
from ..analysis.events import AssignEvent, CallEvent, DiffEvent
from ..analysis.frameworks.torch import AUTOGRAD_GRAD_CREATE_GRAPH_AT, TORCH_FUNCTIONAL_DERIVATIVES
from ..analysis.names import const_of, dotted_name, root_name, single_index_const
from ..analysis.values import Note
from ..analysis.walk import callee_last, stored_names, walk
from ..diagnostics import Applicability, Severity
from ._flow import TORCH_DIFF, TORCH_GRAPH_DIFF, from_earlier_iteration, hidden_from_inspection, origin_name, shortened, takes_remainder
from ._reuse import reset_after_backward, reuse_site
from .base import Family, Invalid, NodeEdit, Rule, RuleFix

FAMILY = Family("GL2", "backward and graph lifetime")

_TORCH = ("backward", "autograd")


class BackwardThroughFreedGraph(Rule):
    code = "GL201"
    message = "a backward pass goes through a graph an earlier backward pass already freed"
    severity = Severity.ERROR
    docs = "https://pytorch.org/docs/stable/generated/torch.Tensor.backward.html"
    triggers = _TORCH
    rationale = """
        `backward()` (and `torch.autograd.grad`) free the buffers of the graph they walk unless
        called with `retain_graph=True`. A second backward through any part of that graph raises
        "Trying to backward through the graph a second time". It happens with two losses over a
        shared trunk, with a fake batch reused after the generator's backward, and — most often
        — with a value carried from one loop iteration to the next (a running loss that is
        itself backpropagated, an RNN hidden state that is never detached).

        A value carried round a loop and fed into the next step (an RNN's hidden state) is
        reported where it is fed in, the line to change, naming the backward that raises. Other
        findings are reported at the backward pass that raises; the message names both backward
        passes and, where the analysis finds it, the value that brings the freed graph back in
        and the line where it is fed into the new computation (the running loss added to again,
        the first pass's output reused).

        Instead: if the graph is meant to be reused, pass `retain_graph=True` to every backward
        but the last; otherwise detach what is carried over (`h = h.detach()`,
        `fake.detach()`), or sum the losses and call `backward()` once.
    """
    invalid = [
        Invalid(
            """
            import torch
            x = torch.randn(5, requires_grad=True)
            loss = torch.sigmoid(x * 2).sum()
            loss.backward()
            loss.backward()
            """,
            line=5,
        ),
        Invalid(
            """
            import torch
            model = torch.nn.Linear(10, 1)
            running = 0
            for step in range(10):
                running = running + model(torch.randn(4, 10)).mean()
                running.backward()
            """,
            line=6,
        ),
    ]
    valid = [
        """
        import torch
        trunk, a, b = torch.nn.Linear(8, 8), torch.nn.Linear(8, 1), torch.nn.Linear(8, 1)
        feat = trunk(torch.randn(4, 8))
        a(feat).mean().backward(retain_graph=True)
        b(feat).mean().backward()
        """,
        """
        import torch
        lstm = torch.nn.LSTM(4, 8)
        h = None
        for i in range(5):
            out, h = lstm(torch.randn(3, 2, 4), h)
            h = tuple(t.detach() for t in h)
            out.mean().backward()
        """,
    ]

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        self._freed_by: dict = {}
        self._loop_scopes: dict = {}  # loop node id -> walk.stored_names of it (asked per backward)

    def on_diff(self, ev: DiffEvent) -> None:
        if ev.kind not in TORCH_GRAPH_DIFF:
            return
        if ev.freed_hit:
            first = None
            for g in ev.freed_hit:
                prev = self._freed_by.get((ev.ctx.run, g))
                if prev is not None and (first is None or prev.seq < first.seq):
                    first = prev
            if first is not None:
                self._report(ev, first)
        if ev.retain is False:
            for g in ev.target.graphs:
                self._freed_by.setdefault((ev.ctx.run, g), ev)

    def _report(self, ev: DiffEvent, first: DiffEvent) -> None:
        # The proof is the operation whose saved buffers the earlier backward freed and this one
        # walks again: the message names it (the first in the file, when there are several).
        ops = [g[0] for g in ev.freed_hit]
        if _built_by_weak_callees(ops, ev.target) and not _built_by_weak_callees([g[0] for g in ev.target.graphs], ev.target):
            # `clip_range = schedule(progress)`, `entries = Entry(states, ret)` (a namedtuple
            # class): a callable proven only by its calls may hold no parameters and save
            # nothing, when the rest of the graph explains the backward (the only graph of a
            # carried `running + model(x).mean()` is the proof that `model` records one)
            return
        if first.node is ev.node and not any(from_earlier_iteration(g, ev.ctx) for g in ev.freed_hit):
            if _picked_anew(ev.target_node, ev.ctx.loops, self._loop_scopes):
                return  # `losses[i - 1].backward()`: which element, the analysis does not know
            if ev.freed_hit <= ev.element_hit:
                return  # `for r, prob in saved: (-prob.log() * r).backward()`: one element each
            self.report(
                ev.node,
                lambda line, ops=ops: (
                    f"this backward pass runs in a loop over a graph built before the loop{_through(ops, line, self.ctx.code)}: "
                    "the first iteration's backward frees it, so the second raises \"Trying to backward through the graph "
                    "a second time\"; rebuild that part inside the loop, or pass `retain_graph=True` if re-walking the "
                    "same graph is intended"
                ),
            )
            return
        if first.node is ev.node:
            if reset_after_backward(self.ctx, ev.node, ev.target_node, ev.bindings, ev.freed_hit):
                return  # `loss.backward(); loss = 0` every k steps: only the path that freed nothing carries it
            carried = [g[0] for g in ev.freed_hit if from_earlier_iteration(g, ev.ctx)] or ops
            site = reuse_site(self.ctx, first.node, ev.node, ev.target_node, ev.bindings, ev.freed_hit, carried=True)
            if site is not None and site.value != dotted_name(ev.target_node):
                # reported where the carried value (an RNN state) is fed in: the line to change.
                # A carried total that is itself backpropagated (`running_loss.backward()`) is
                # reported at that backward, which is the line to change there
                self.report(
                    site,
                    lambda line, ops=carried, site=site, bw=ev.node: (
                        f"`{site.value}` is carried over from the previous loop iteration with its graph, which that "
                        f"iteration's backward (line {line(bw)}) already freed{_through(ops, line, self.ctx.code)}: feeding it in "
                        f"here makes the backward on line {line(bw)} raise \"Trying to backward through the graph a second "
                        f"time\"; detach what is carried across iterations ({_detach_hint(site)})"
                    ),
                )
                return
            fed = _fed_in(self.ctx, ev) if site is None else None
            if fed is not None:
                # no name carries it in this function (`self.hidden` fed to the LSTM in the
                # model's forward): where the freed graph was read back from an object or a
                # container, or else the operation that first took it in again
                stored = isinstance(fed, (cst.Attribute, cst.Subscript))
                what = f"`{' '.join(self.ctx.code(fed).split())}` is" if stored else "this takes in a value"
                hint = (f"`{self.ctx.code(fed)} = {self.ctx.code(fed)}.detach()` before it is fed in; for an LSTM's "
                        "`(h, c)`, each of them") if stored else "e.g. `self.hidden = self.hidden.detach()` before the step"
                self.report(
                    _statement_of(self.ctx, fed) if stored else fed,
                    lambda line, ops=carried, bw=ev.node: (
                        f"{what} carried over from the previous loop iteration with its graph, which that iteration's "
                        f"backward (line {line(bw)}) already freed{_through(ops, line, self.ctx.code)}: the backward on "
                        f"line {line(bw)} raises \"Trying to backward through the graph a second time\"; detach what is "
                        f"carried across iterations ({hint})"
                    ),
                )
                return
            self.report(
                ev.node,
                lambda line, ops=carried, site=site: (
                    f"this backward pass reaches, through {_carrier(site, line)}carried over from the previous loop "
                    f"iteration, a graph that the same backward already freed in that iteration{_through(ops, line, self.ctx.code)} "
                    "(RuntimeError: Trying to backward through the graph a second time); detach what is carried across "
                    f"iterations ({_detach_hint(site)})"
                ),
            )
            return
        site = reuse_site(self.ctx, first.node, ev.node, ev.target_node, ev.bindings, ev.freed_hit, carried=False)
        self.report(
            ev.node,
            lambda line, first=first.node, ops=ops, site=site: (
                f"this backward pass goes through part of a graph that the backward pass on line {line(first)} already "
                f"freed{_through(ops, line, self.ctx.code)}{_reused(site, line)} (RuntimeError: Trying to backward through the "
                "graph a second time); pass `retain_graph=True` to the earlier one if the graph is meant to be reused, "
                "recompute that value after it, or detach the shared part (e.g. `fake.detach()`)"
            ),
        )


def _carrier(site, line) -> str:
    """What brings the old graph in: "`h_state` (fed in on line 45), ", or "a value "."""
    return f"`{site.value}` (fed in on line {line(site)}), " if site is not None else "a value "


def _fed_in(ctx, ev: DiffEvent):
    """The operation of this file that first took in a graph an earlier iteration's backward
    freed (the interpreter notes it: DiffEvent.fed_at), or None."""
    nodes = [n for g, n in ev.fed_at.items() if from_earlier_iteration(g, ev.ctx)]
    placed = [(_position(ctx, n), n) for n in nodes if ctx.range_of(n) is not None]
    return min(placed, key=lambda t: t[0])[1] if placed else None


def _statement_of(ctx, node):
    """The small statement (`out, self.h = self.rnn(x, self.h)`) that holds an expression."""
    return next((a for a in ctx.ancestors(node) if isinstance(a, cst.BaseSmallStatement)), node)


def _detach_hint(site) -> str:
    if site is None:
        return "e.g. `h = h.detach()`, `running += loss.item()`"
    return f"`{site.value} = {site.value}.detach()` before it is fed in, or `.item()` for a running total"


def _reused(site, line) -> str:
    """Where the old graph came back in: "; `loss`, used again on line 67, still holds it"."""
    return f"; `{site.value}`, used again on line {line(site)}, still holds it" if site is not None else ""


def _position(ctx, node) -> tuple[int, int]:
    """(line, column) of a node, for choosing the first of several in the file."""
    rng = ctx.range_of(node)
    return (rng[0].line, rng[0].column) if rng else (0, 0)


def _through(ops: list, line, code) -> str:
    """`, that of `trunk(x)` on line 3`: the first operation in the file whose saved buffers
    both passes walk — what proves the finding."""
    if not ops:
        return ""
    named = []
    for op in ops:
        try:
            text = " ".join(code(op).split())
        except Exception:  # libcst cannot print every node on its own: name only the line
            text = ""
        named.append((line(op), len(text), text, op))
    # the first line, and on it the innermost operation (a set has no order of its own)
    ln, _, text, op = min(named, key=lambda t: t[:3])
    if not text:
        return f", on line {ln}"
    return f", that of `{shortened(text, 48)}` on line {ln}"


class RetainGraphAcrossIterations(Rule):
    code = "GL202"
    message = "retain_graph=True keeps the graphs of all earlier loop iterations alive through a carried value"
    severity = Severity.WARNING
    docs = "https://discuss.pytorch.org/t/help-clarifying-repackage-hidden-in-word-language-model/226"
    triggers = ("retain_graph",)
    rationale = """
        `retain_graph=True` is the error message's suggestion for "Trying to backward through the
        graph a second time", but inside a training loop the second backward usually comes from
        a value carried into the next iteration — an RNN hidden state, a running estimate —
        whose graph reaches back into every earlier batch. Retaining the graph silences the
        error while each step re-walks all previous batches: time and memory grow with the
        step count, and after `optimizer.step()` it fails with "one of the variables needed for
        gradient computation has been modified by an inplace operation".

        Instead: detach the carried value at the start of each iteration (`h = h.detach()`,
        the `repackage_hidden` idiom of truncated BPTT) and drop `retain_graph=True`.
    """
    invalid = [
        Invalid(
            """
            import torch
            rnn = torch.nn.GRU(16, 64, batch_first=True)
            opt = torch.optim.Adam(rnn.parameters())
            h = torch.zeros(1, 8, 64)
            for step in range(100):
                out, h = rnn(torch.randn(8, 20, 16), h)
                loss = out.pow(2).mean()
                opt.zero_grad()
                loss.backward(retain_graph=True)
                opt.step()
            """,
            line=9,
        )
    ]
    valid = [
        """
        import torch
        trunk, a, b = torch.nn.Linear(8, 8), torch.nn.Linear(8, 1), torch.nn.Linear(8, 1)
        for step in range(10):
            feat = trunk(torch.randn(4, 8))
            a(feat).mean().backward(retain_graph=True)
            b(feat).mean().backward()
        """
    ]

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        self._retained: dict = {}

    def on_diff(self, ev: DiffEvent) -> None:
        if ev.kind not in TORCH_GRAPH_DIFF:
            return
        for g in ev.target.graphs:
            prev = self._retained.get((ev.ctx.run, g))
            # carried: a node built inside the loop in an earlier iteration (a graph built before
            # the loop and re-walked by every iteration, e.g. Hessian-vector products, is fine)
            if prev is not None and prev.node is ev.node and ev.ctx.loops and from_earlier_iteration(g, ev.ctx):
                self.report(
                    prev.node,
                    "retain_graph=True here keeps every earlier iteration's graph alive: a value carried into the next "
                    "iteration (e.g. a hidden state) still holds it, so each backward re-walks all previous batches (time "
                    "and memory grow, and it fails after optimizer.step()); detach the carried value at the start of each "
                    "iteration (`h = h.detach()`) and drop retain_graph=True",
                )
                break
        if ev.retain is True and ev.create_graph is not True and ev.ctx.loops:
            for g in ev.target.graphs:
                self._retained.setdefault((ev.ctx.run, g), ev)


def _carries(v, note) -> bool:
    return note in v.notes or any(note in i.notes for i in (v.get(F.ITEMS) or ())) or (
        v.get(F.ELEM) is not None and note in v.get(F.ELEM).notes)


def _constant_key(stmt) -> bool:
    """`d["loss"] = v`, `d[0] = v`: a store into a key that is the same every iteration."""
    targets = [t.target for t in stmt.targets] if isinstance(stmt, cst.Assign) else [stmt] if isinstance(stmt, cst.Subscript) else []
    for t in targets:
        if isinstance(t, cst.Subscript) and len(t.slice) == 1 and isinstance(t.slice[0].slice, cst.Index):
            k = t.slice[0].slice.value
            if isinstance(k, (cst.SimpleString, cst.Integer)):
                return True
    return False


class GradWithoutCreateGraph(Rule):
    code = "GL203"
    message = "torch.autograd.grad() (or an autograd.functional derivative) without create_graph=True, but its result is differentiated again"
    severity = Severity.ERROR
    docs = "https://pytorch.org/docs/stable/generated/torch.autograd.grad.html"
    triggers = ("autograd",)
    fix_applicability = Applicability.UNSAFE
    rationale = """
        Without `create_graph=True`, the gradients returned by `torch.autograd.grad` are
        constants: they have no graph. When they then feed a value that is differentiated — a
        WGAN-GP gradient penalty, a PINN residual built from `du/dx`, a Jacobian regulariser —
        that term contributes no gradient to the network, silently (or `backward()` raises
        "element 0 of tensors does not require grad").

        The same holds for `torch.autograd.functional.jacobian/hessian/vjp/jvp/hvp/vhp`, whose
        results are detached from the inputs unless they get `create_graph=True`.

        Instead: `torch.autograd.grad(out, x, grad_outputs=..., create_graph=True)`. The fix adds
        the argument; it is an editor fix (`--unsafe-fixes`): where the result is differentiated
        again it changes the gradient the program computes, which is the point, but only you
        know that the first-order version was not meant. First-order approximations that use
        parameter gradients as constant update steps (first-order MAML) and input perturbations
        fed to the model (`model(x + eps * g / g.norm())`, one-step adversarial training) are
        not flagged.
    """
    invalid = [
        Invalid(
            """
            import torch
            critic = torch.nn.Sequential(torch.nn.Linear(2, 64), torch.nn.ReLU(), torch.nn.Linear(64, 1))
            interp = torch.randn(64, 2).requires_grad_(True)
            out = critic(interp)
            grads = torch.autograd.grad(outputs=out, inputs=interp, grad_outputs=torch.ones_like(out))[0]
            penalty = ((grads.norm(2, dim=1) - 1) ** 2).mean()
            (critic(torch.randn(8, 2)).mean() + 10 * penalty).backward()
            """,
            line=5,
            fixed="""
            import torch
            critic = torch.nn.Sequential(torch.nn.Linear(2, 64), torch.nn.ReLU(), torch.nn.Linear(64, 1))
            interp = torch.randn(64, 2).requires_grad_(True)
            out = critic(interp)
            grads = torch.autograd.grad(outputs=out, inputs=interp, grad_outputs=torch.ones_like(out), create_graph=True)[0]
            penalty = ((grads.norm(2, dim=1) - 1) ** 2).mean()
            (critic(torch.randn(8, 2)).mean() + 10 * penalty).backward()
            """,
        ),
        Invalid(  # pytorch/pytorch#103509: f(a) defined as a Jacobian, then differentiated
            """
            import torch
            def g(x):
                return x ** 3
            a = torch.ones(3, requires_grad=True)
            jac = torch.autograd.functional.jacobian(g, a)
            jac.diagonal().sum().backward()
            """,
            line=5,
            fixed="""
            import torch
            def g(x):
                return x ** 3
            a = torch.ones(3, requires_grad=True)
            jac = torch.autograd.functional.jacobian(g, a, create_graph=True)
            jac.diagonal().sum().backward()
            """,
        ),
    ]
    valid = [
        """
        import torch
        def g(x):
            return x ** 3
        a = torch.ones(3, requires_grad=True)
        jac = torch.autograd.functional.jacobian(g, a, create_graph=True)
        jac.diagonal().sum().backward()
        """,
        """
        import torch
        w = torch.randn(10, 1, requires_grad=True)
        inner = (torch.randn(5, 10) @ w).pow(2).mean()
        (g,) = torch.autograd.grad(inner, w, create_graph=True)
        outer = (torch.randn(5, 10) @ (w - 0.01 * g)).pow(2).mean()
        outer.backward()
        """,
        """
        import torch
        model = torch.nn.Linear(10, 1)
        meta_opt = torch.optim.Adam(model.parameters())
        params = list(model.parameters())
        x = torch.randn(5, 10)
        grads = torch.autograd.grad(model(x).pow(2).mean(), params)
        fast = [p - 0.01 * g for p, g in zip(params, grads)]
        outer = torch.nn.functional.linear(x, fast[0], fast[1]).pow(2).mean()
        outer.backward()
        meta_opt.step()
        """,
    ]

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        self._pending: list[tuple[DiffEvent, Note]] = []
        self._stepped: dict[int, set] = {}  # run -> origins some optimizer steps
        self._create_graph_at: dict[int, int] = {}  # derivative call -> create_graph's position
        self._model_input: set[int] = set()  # grad calls whose results a model was called on

    def on_call(self, ev: CallEvent) -> None:
        if ev.qual in TORCH_FUNCTIONAL_DERIVATIVES:
            self._create_graph_at[id(ev.node)] = TORCH_FUNCTIONAL_DERIVATIVES[ev.qual][0]
        if ev.func is not None and ev.func.kind == K.MODULE:
            # gradients given to a model as its input (`model(x + eps * g / g.norm())`): an input
            # perturbation (adversarial training), a constant by design like FGSM's sign(g)
            for a in list(ev.args) + list(ev.kwargs.values()):
                self._model_input.update(id(n.node) for n in a.notes if n.kind == "no_create_graph")

    def on_opt(self, ev) -> None:
        if ev.kind == "step":
            self._stepped.setdefault(ev.ctx.run, set()).update(ev.target.get(F.OPT_PARAMS) or ())

    def on_diff(self, ev: DiffEvent) -> None:
        if ev.kind not in TORCH_DIFF:
            return
        for n in ev.target.sorted_notes("no_create_graph"):
            self._pending.append((ev, n))

    def on_inspect(self, ev) -> None:
        for n in ev.target.sorted_notes("no_create_graph"):
            if hidden_from_inspection(self.ctx, ev, n.node):
                self._pending.append((ev, n))

    def finish(self) -> None:
        for ev, n in self._pending:
            if ev.node is n.node:
                # the gradients of this very call fed its own next round (an integrator, an
                # iterative attack): used as data between steps, not differentiated through
                continue
            if ev.sources is not None and _carries(ev.sources, n):
                # differentiated w.r.t. values computed from these gradients (`grad(loss,
                # fast_weights)` for fast weights made from them): that derivative does not pass
                # through the gradients' own computation, so create_graph changes nothing
                continue
            inputs = n.data or frozenset()
            stepped = self._stepped.get(ev.ctx.run, set())
            if id(n.node) in self._model_input and inputs and all(o.kind == K.ORIGIN_TENSOR for o in inputs):
                # gradients w.r.t. data (a tensor made to require grad, not a module's
                # parameters: MAML's fast weights given to the functional model are those) fed
                # to the model as a perturbed input
                continue
            if inputs and inputs <= stepped and inputs <= ev.target.live:
                # gradients w.r.t. the parameters being trained, used as a constant update
                # step (first-order MAML, lookahead): create_graph is omitted on purpose
                continue
            self.report(n.node, self._msg(ev), fix=self._fix(n.node))

    def _msg(self, ev: DiffEvent):
        dt = ev.node
        use = "the value whose graph line {} checks" if ev.kind == "inspect" else "the value differentiated on line {}"
        return lambda line: (
            f"the gradients returned here have no graph (no create_graph=True), yet they feed {use.format(line(dt))}: "
            f"that term contributes no gradient to the network; pass `create_graph=True`"
        )

    def _fix(self, node) -> RuleFix | None:
        if not isinstance(node, cst.Call) or not node.args:
            return None
        if any(a.keyword is not None and a.keyword.value == "create_graph" for a in node.args):
            return None
        last = node.args[-1]
        if last.star:
            return None
        positional = sum(1 for a in node.args if a.keyword is None)
        if positional > self._create_graph_at.get(id(node), AUTOGRAD_GRAD_CREATE_GRAPH_AT):
            return None  # create_graph=False given by position: a keyword would repeat it
        # an editor fix: where the result is differentiated again it changes the gradient the
        # program computes (that is the point), and a first-order method that meant it loses
        # what it meant (one-step adversarial training measured: different weight gradients)
        return RuleFix("Add create_graph=True", (NodeEdit(last, ", create_graph=True", how="after"),), Applicability.UNSAFE)


class BackwardCreateGraph(Rule):
    code = "GL204"
    message = "backward(create_graph=True) creates a reference cycle between parameters and their .grad"
    severity = Severity.WARNING
    docs = "https://pytorch.org/docs/stable/generated/torch.Tensor.backward.html"
    triggers = ("create_graph",)
    rationale = """
        With `create_graph=True`, `backward()` stores gradients that carry a graph in each
        leaf's `.grad`, and that graph references the leaf: a reference cycle that keeps the
        graph (and its activations) alive until the garbage collector finds it — memory grows
        in a loop. PyTorch warns about it ("Using backward() with create_graph=True will create
        a reference cycle").

        Instead: `grads = torch.autograd.grad(loss, params, create_graph=True)` returns the
        gradients without storing them in `.grad`; or, if you must use `.grad`, reset it with
        `p.grad = None` after use.
    """
    invalid = [
        Invalid(
            """
            import torch
            w = torch.randn(3, requires_grad=True)
            loss = (w ** 3).sum()
            loss.backward(create_graph=True)
            (w.grad ** 2).sum().backward()
            """,
            line=4,
        )
    ]
    valid = [
        """
        import torch
        w = torch.randn(3, requires_grad=True)
        (g,) = torch.autograd.grad((w ** 3).sum(), w, create_graph=True)
        (g ** 2).sum().backward()
        """
    ]

    def on_diff(self, ev: DiffEvent) -> None:
        # (`self.manual_backward(loss, create_graph=True)`, `accelerator.backward(...)`: loss.backward's)
        if ev.kind == "backward" and ev.create_graph is True and isinstance(ev.node, cst.Call) and isinstance(ev.node.func, cst.Attribute) \
                and ev.node.func.attr.value in ("backward", "manual_backward"):
            self.report(
                ev.node,
                "backward(create_graph=True) stores gradients with a graph in `.grad`, creating a reference cycle that keeps "
                "the graph alive (memory grows); use `torch.autograd.grad(loss, params, create_graph=True)` instead",
            )


class LossHistoryAccumulated(Rule):
    code = "GL205"
    message = "a tensor with autograd history is accumulated across loop iterations: every iteration's graph is kept alive"
    severity = Severity.WARNING
    docs = "https://pytorch.org/docs/stable/notes/faq.html#my-model-reports-cuda-runtime-error-2-out-of-memory"
    triggers = ("+=", "append", "backward")
    fix_applicability = Applicability.SAFE
    rationale = """
        `total_loss += loss` where `loss` has autograd history makes `total_loss` a tensor whose
        graph links every iteration's graph: none of them can be freed, and memory grows over
        the epoch (the PyTorch FAQ's first out-of-memory example). The same happens when the
        accumulator is only used for logging, and when it is reset only every k-th step
        (`if i % 100 == 99: running_loss = 0`): between resets it holds k steps' graphs.

        Instead: accumulate a number, `total_loss += loss.item()` (or `loss.detach()` to stay a
        tensor). The fix adds `.item()` when the accumulator started as a Python number and is
        only used as a number, `.detach()` otherwise; it is safe: the accumulated values are
        the same. An accumulator that is itself differentiated later (gradient accumulation:
        `total.backward()` after the loop) is not flagged.
    """
    invalid = [
        Invalid(
            """
            import torch
            model = torch.nn.Linear(100, 1)
            opt = torch.optim.SGD(model.parameters(), lr=0.01)
            total_loss = 0
            for i in range(100):
                opt.zero_grad()
                loss = model(torch.randn(64, 100)).pow(2).mean()
                loss.backward()
                opt.step()
                total_loss += loss
            print(total_loss / 100)
            """,
            line=10,
            fixed="""
            import torch
            model = torch.nn.Linear(100, 1)
            opt = torch.optim.SGD(model.parameters(), lr=0.01)
            total_loss = 0
            for i in range(100):
                opt.zero_grad()
                loss = model(torch.randn(64, 100)).pow(2).mean()
                loss.backward()
                opt.step()
                total_loss += loss.item()
            print(total_loss / 100)
            """,
        )
    ]
    valid = [
        """
        import torch
        model = torch.nn.Linear(10, 1)
        total = 0.0
        for i in range(10):
            loss = model(torch.randn(4, 10)).pow(2).mean()
            loss.backward()
            total += loss.item()
        """,
        """
        import torch
        model = torch.nn.Linear(10, 1)
        acc = 0
        for micro in range(4):
            acc += model(torch.randn(4, 10)).pow(2).mean() / 4
        acc.backward()
        """,
    ]

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        self._cands: dict[int, tuple] = {}  # site -> (event, kind: "aug" | "store", value node (store: and what is held), init loops)
        self._exempt: set[int] = set()  # the accumulator is differentiated here
        self._escapes: set[int] = set()  # returned or handed to code the analysis cannot see: maybe differentiated there
        self._freed: set = set()  # graphs a backward already freed: nothing can differentiate them again
        self._freeing: set[int] = set()  # the backward calls that freed their graph (no retain_graph)
        self._tensor_use: set[int] = set()
        self._training_loops: set[tuple] = set()  # (run, loop node id) with a backward or step
        self._step_loops: set[tuple] = set()  # (run, loop node id) with an optimizer step
        self._init_loops: dict[tuple, tuple] = {}  # (run, name) -> the loops around its last plain assignment
        # (run, name) -> the loops with a plain assignment of it anywhere in their body (on any
        # pass): `self.data = []` at the end of a rollout's training call empties the buffer
        # the loop fills, so that loop does not carry it
        self._reset_in: dict[tuple, set[int]] = {}
        self._torch_adds: set[int] = set()  # `torch.add(...)` calls, however imported

    def on_opt(self, ev) -> None:
        if ev.kind == "step":
            for n, _ in ev.ctx.loops:
                self._training_loops.add((ev.ctx.run, id(n)))
                self._step_loops.add((ev.ctx.run, id(n)))

    @staticmethod
    def _has_history(v) -> bool:
        """A value with autograd history (certainly trained origins through recorded operations,
        or a value the code itself backpropagates), not a list of modules or a number."""
        if v.kind not in ("tensor", None):
            return False
        if v.graphs and any(o.certain and o.framework == "torch" for o in v.live):
            return True
        h = v.get(F.HISTORY)
        return h is not None and h.value == "yes" and v.get(F.FW) in ("torch", None)

    def _init_of(self, ev, name: str | None):
        """The loops around the accumulator's last plain assignment *before this store* (taken
        when the candidate is recorded: a later pass of an enclosing loop re-initialises it)."""
        return self._init_loops.get((ev.ctx.run, name)) if name else None

    def _carried_by_training_loop(self, ev, init, name: str | None) -> bool:
        """The accumulator outlives an iteration of a loop that trains: a loop entered after it
        was (last) initialised, that backpropagates or steps. Not when it is re-initialised in
        a loop that steps the optimizer and only carried across a loop that backpropagates
        without stepping: the micro-batches of one step (gradient accumulation) are a bounded
        number of graphs, and the sum is reset at the next step. Loops are compared by node,
        not by the pass the interpreter is in (the first and second pass of a loop are one loop)."""
        run = ev.ctx.run
        loops = ev.ctx.loops
        resets: tuple = ()
        if init is not None and [id(n) for n, _ in loops[: len(init)]] == [id(n) for n, _ in init]:
            resets = loops[: len(init)]
            loops = loops[len(init) :]
        reset = self._reset_in.get((run, name), set()) if name else set()
        carried = [n for n, _ in loops if (run, id(n)) in self._training_loops and id(n) not in reset]
        if not carried:
            return False
        if any((run, id(n)) in self._step_loops for n, _ in resets) and not any((run, id(n)) in self._step_loops for n in carried):
            return False
        return True

    def on_assign(self, ev: AssignEvent) -> None:
        added = ev.node.value if isinstance(ev.node, cst.AugAssign) else None
        if ev.op is None:
            added = _rebound_sum(ev, self._torch_adds)  # `total = total + loss`: `total += loss` spelled out
            if added is None:
                self._init_loops[(ev.ctx.run, ev.name)] = ev.ctx.loops
                self._reset_in.setdefault((ev.ctx.run, ev.name), set()).update(
                    id(n) for n, _ in ev.ctx.loops if not self._periodic_in(ev.node, n))
                return
        elif ev.op not in ("+", "-"):
            return
        if added is None or not ev.ctx.loops:
            return
        if ev.op == "+" and isinstance(added, (cst.List, cst.Tuple)) and ev.old is not None and ev.old.kind == K.LIST:
            self._extended(ev, added)  # `log += [loss]`: an append spelled as a concatenation
            return
        if not self._has_history(ev.value):
            return
        old = ev.old
        if (old is not None and ev.op is not None and not (ev.value.live - old.live) and ev.value.graphs <= old.graphs
                and (self._has_history(old) or not ev.value.get(F.HISTORY))):
            # nothing with a graph is added (`state["step_count"] += 1`, `state["total"] +=
            # loss.detach()`): what history the result has, the old value had (lit-gpt's dict
            # that also holds the model, read imprecisely)
            return
        if not isinstance(ev.target_node, (cst.Name, cst.Subscript, cst.Attribute)):
            return
        if isinstance(ev.target_node, (cst.Name, cst.Attribute)) and dotted_name(added) == dotted_name(ev.target_node):
            return  # `total -= total`: a reset
        old = ev.old
        if old is None:
            return
        if isinstance(ev.target_node, cst.Subscript) and (old.kind == "tensor" or old.get(F.FW) in ("torch", "jax", "tf")):
            if old.get(F.FW) != "torch" or old.live:
                return  # `x[i] += y` into an array, or into a tensor that is itself computed: building a value
            # `stats[0] += loss` into a plain tensor (a running total on the device): the in-place
            # add records the loss's graph in the tensor's history, one more every iteration
        root = root_name(ev.target_node)
        if root and ("." in root and self._differentiated_later(root) or root in self.ctx.interp.loss_path_of(ev.ctx.fn)):
            return  # `losses_q[k] += loss_q` ... `losses_q[-1].backward()`: a meta-loss, summed to be differentiated
        self._cands.setdefault(id(ev.node), (ev, "aug", added, self._init_of(ev, ev.name)))
        ev.add_note(Note("accum", ev.node))

    def _periodic_in(self, node, loop) -> bool:
        """`node` runs only every k-th iteration of `loop` (under `if step % k == 0:`): a
        logging total reset that way still holds k iterations' graphs between resets."""
        for a in self.ctx.ancestors(node):
            if a is loop:
                return False
            if isinstance(a, cst.If) and takes_remainder(a.test):
                return True
        return False

    def _extended(self, ev: AssignEvent, added) -> None:
        """`log += [loss]` (or `log = log + [loss]`): a list that keeps what it is extended with."""
        held = self._held_with_history(ev.value)
        if held is None or not isinstance(ev.target_node, (cst.Name, cst.Attribute)) or self._differentiated_later(ev.name):
            return
        self._cands.setdefault(id(ev.node), (ev, "store", (added, held), self._init_of(ev, ev.name)))
        ev.add_note(Note("accum", ev.node))

    def on_store(self, ev) -> None:
        """`losses.append(loss)`, `history[i] = loss`: the container keeps each iteration's graph."""
        if ev.kind not in ("append", "item") or not ev.ctx.loops or ev.value_node is None:
            return
        if isinstance(ev.node, cst.AugAssign):
            return  # `state["total"] += loss`: an accumulation, judged by on_assign from what is added
        c = ev.container
        into_tensor = ev.kind == "item" and c.kind == K.TENSOR and c.get(F.FW) == "torch" and not c.live
        if not into_tensor and (c.kind not in ("list", "dict", "container", None) or c.get(F.FW)):
            return
        held = self._held_with_history(ev.value)
        if held is None:
            return
        if ev.kind == "item" and _constant_key(ev.node) and not into_tensor:
            # `logs["d"] = d_loss`: each iteration replaces the last one, nothing accumulates. Not
            # in a tensor: `buf[i] = loss` copies in place, and the tensor's history (CopySlices)
            # links the loss's graph to every graph stored in it before, overwritten or not
            return
        if self._differentiated_later(ev.root):
            return  # `saved_log_probs.append(...)`, read on the way to a backward: kept to be differentiated
        self._cands.setdefault(id(ev.node), (ev, "store", (ev.value_node, held), self._init_of(ev, ev.root)))
        ev.add_note(Note("accum", ev.node))

    @classmethod
    def _held_with_history(cls, v, depth: int = 0) -> tuple[tuple, object] | None:
        """What in a stored value has autograd history: ((), v) for the value itself, or the
        key/index path of an element of a dict/tuple/list literal that has it
        (`outputs.append({"loss": loss, ...})`, `history.append((pred, y))` keep the graph just
        the same). Only elements the analysis saw: an unknown container is not a tensor."""
        if cls._has_history(v):
            return ((), v)
        if depth >= 3 or v.kind not in ("dict", "tuple", "list"):
            return None
        keys = v.get(F.KEYS)
        items = list(keys.items()) if keys else list(enumerate(v.get(F.ITEMS) or ()))
        for key, e in items:
            inner = cls._held_with_history(e, depth + 1)
            if inner is not None:
                return ((key,) + inner[0], inner[1])
        return None

    def _differentiated_later(self, root: str | None) -> bool:
        if not root:
            return False
        names = self.ctx.interp.names_on_loss_paths()
        if root in names:
            return True
        # `self.saved` in a method, `policy.saved` in a function: the same attribute of one object
        attr = root.rsplit(".", 1)[-1] if "." in root else None
        return attr is not None and any(n.endswith("." + attr) and (n.startswith("self.") or root.startswith("self.")) for n in names)

    def on_call(self, ev: CallEvent) -> None:
        if ev.qual == "torch.add":
            self._torch_adds.add(id(ev.node))
        if ev.method in ("add_", "sub_") and ev.ctx.loops and ev.args and ev.arg_nodes and isinstance(ev.node.func, cst.Attribute):
            recv = ev.recv
            # `running.add_(loss)` into a plain tensor: `running += loss` as a method
            if recv is not None and recv.kind == K.TENSOR and recv.get(F.FW) == "torch" and not recv.live and self._has_history(ev.args[0]):
                self._cands.setdefault(id(ev.node), (ev, "inplace", ev.arg_nodes[0], self._init_of(ev, dotted_name(ev.node.func.value))))
        if ev.recv is not None and ev.method in ("item", "cpu", "detach", "numpy", "tolist", "to", "backward", "mean", "sum", "clone", "cuda"):
            for n in ev.recv.notes:
                if n.kind == "accum":
                    self._tensor_use.add(id(n.node))
        known = ev.qual is not None and ev.qual.startswith(("torch.", "builtins.", "numpy.", "math."))
        for a in list(ev.args) + list(ev.kwargs.values()):
            for n in a.notes:
                if n.kind != "accum":
                    continue
                if ev.qual and ev.qual.startswith("torch.") and ev.qual not in ("torch.no_grad",):
                    self._tensor_use.add(id(n.node))
                elif not known and ev.method is None:
                    # handed to a function the analysis cannot see into: it may be differentiated there
                    self._escapes.add(id(n.node))

    def on_function(self, ev) -> None:
        for n in ev.returns.notes:
            if n.kind == "accum":
                self._escapes.add(id(n.node))  # returned: the caller may differentiate it

    def on_diff(self, ev: DiffEvent) -> None:
        for n in ev.target.notes:  # order does not matter: a set of exempt sites
            if n.kind == "accum":
                self._exempt.add(id(n.node))
        if ev.kind in TORCH_GRAPH_DIFF:
            for n, _ in ev.ctx.loops:
                self._training_loops.add((ev.ctx.run, id(n)))
            if ev.retain is False:
                self._freed.update(ev.target.graphs)
                self._freeing.add(id(ev.node))

    def _maybe_differentiated_elsewhere(self, key: int, ev) -> bool:
        """Returned or handed on, the sum may be a meta-loss the caller backpropagates (MAML):
        unless each accumulated graph was already backpropagated without `retain_graph` here,
        so a second backward through the sum could only raise."""
        if key not in self._escapes:
            return False
        # the nodes the accumulating statement itself builds (`loss_val * batch_size`) sit on top
        # of what was backpropagated: a second backward through them reaches the freed buffers
        # all the same
        here = {id(n) for n in walk(ev.node)}
        earlier = frozenset(g for g in ev.value.graphs if id(g[0]) not in here)
        if not ev.value.graphs:
            # history known only from use: the backward that proves it freed what was added
            # (`loss.backward()` ... `epoch_ll += loss`, loss from a function the analysis
            # cannot see)
            h = ev.value.get(F.HISTORY)
            return not (h is not None and id(h.node) in self._freeing)
        return not (earlier and earlier <= self._freed)

    def finish(self) -> None:
        for key, (ev, how, value_node, init) in self._cands.items():
            if key in self._exempt or self._maybe_differentiated_elsewhere(key, ev):
                continue
            if not self._carried_by_training_loop(ev, init, _accumulator_name(ev)):
                continue
            if how == "aug":
                self.report(ev.node, self._msg(ev, value_node), fix=self._fix(ev, key, value_node))
            elif how == "inplace":
                # nothing marks the receiver for the checks above (returned, differentiated):
                # only a value whose graph a backward already freed, which nothing can
                # differentiate again, is certainly kept for nothing
                graphs = ev.args[0].graphs
                if graphs and graphs <= self._freed and not self._differentiated_later(dotted_name(ev.node.func.value)):
                    self.report(ev.node, self._inplace_msg(ev, value_node), fix=self._inplace_fix(value_node))
            else:
                node, (where, held) = value_node
                if where:  # an element of a container: no one-edit fix keeps the container's shape
                    self.report(ev.node, self._element_msg(ev, node, where, held))
                else:
                    self.report(ev.node, self._store_msg(ev, node), fix=self._store_fix(node))

    def _msg(self, ev: AssignEvent, added):
        value, name = self._value_text(added), ev.name
        # `total += loss`, or spelled out (`total = total + loss`, `avg = 0.9 * avg + 0.1 * loss`)
        instead = f"`{name} += {value}.item()`" if ev.op is not None else f"`{value}.item()` in place of `{self.ctx.code(added)}`"
        what = "a number instead"
        if isinstance(getattr(ev.node, "value", None), cst.Call) and callee_last(ev.node.value) in _GROWING_JOINS:
            what, instead = "it without its graph", f"`{value}.detach()` in place of `{self.ctx.code(added)}`"  # (a tensor grown by cat)
        return lambda line: (
            f"`{name}` accumulates a tensor with autograd history across iterations{self._proof(ev.value, line)}, which keeps "
            f"every iteration's graph alive (memory grows over the epoch); accumulate {what}: {instead}"
        )

    def _inplace_msg(self, ev: CallEvent, added):
        recv, value = self.ctx.code(ev.node.func.value), self._value_text(added)
        return lambda line: (
            f"`{recv}.{ev.method}()` accumulates a tensor with autograd history across iterations{self._proof(ev.args[0], line)}: "
            f"the in-place update records its graph in `{recv}`'s history, which keeps every iteration's graph alive (memory "
            f"grows over the epoch); add `{value}.detach()` (or `.item()`)"
        )

    def _inplace_fix(self, added) -> RuleFix:
        # the same values added, without the history nothing differentiates: `recv` stays a tensor
        return self._suffixed(added, ".detach()", "Accumulate with .detach()", Applicability.SAFE)

    def _suffixed(self, value, meth: str, title: str, applicability) -> RuleFix:
        """A fix that calls `meth` on `value` (parenthesised unless it is a primary expression)."""
        if isinstance(value, (cst.Name, cst.Attribute, cst.Call, cst.Subscript)):
            return RuleFix(title, (NodeEdit(value, meth, how="after"),), applicability)
        return RuleFix(title, (NodeEdit(value, f"({self.ctx.code(value)}){meth}"),), applicability)

    def _store_msg(self, ev, value_node):
        root = ev.name if isinstance(ev, AssignEvent) else ev.root
        where = f"`{root}`" if root else "this container"
        value = self._value_text(value_node)
        return lambda line: (
            f"{where} keeps a tensor with autograd history{self._proof(ev.value, line)} from every iteration, and with it every "
            f"iteration's graph (memory grows with the step count); store `{value}.item()` (or `.detach()` to keep a tensor)"
        )

    def _element_msg(self, ev, node, where: tuple, held):
        root = ev.name if isinstance(ev, AssignEvent) else ev.root
        container = f"`{root}`" if root else "this container"
        value = self._element_text(node, where)
        return lambda line: (
            f"{container} keeps `{value}`, a tensor with autograd history{self._proof(held, line)}, from every iteration, "
            f"and with it every iteration's graph (memory grows with the step count); store `.item()` or `.detach()` of it"
        )

    def _element_text(self, node, path: tuple) -> str:
        """How to name the element at `path` of the stored value: the element's own code inside
        a literal (`(pred, batch)` -> `pred`), else a subscript (`output['loss']`)."""
        for i, key in enumerate(path):
            elems = node.elements if isinstance(node, (cst.Tuple, cst.List, cst.Dict)) else None
            if elems is None or any(isinstance(e, (cst.StarredElement, cst.StarredDictElement)) for e in elems):
                return self._value_text(node) + "".join(f"[{k!r}]" for k in path[i:])
            if isinstance(node, cst.Dict):
                match = [e.value for e in elems if isinstance(e, cst.DictElement) and const_of(e.key) == key]
                if len(match) != 1:
                    return self._value_text(node) + "".join(f"[{k!r}]" for k in path[i:])
                node = match[0]
            else:
                node = elems[key].value
        return self.ctx.code(node)

    @staticmethod
    def _proof(v, line) -> str:
        """What proves the history: the backward of it, or the trained module it is computed from."""
        h = v.get(F.HISTORY)
        if h is not None and h.node is not None:
            return f" (it is backpropagated on line {line(h.node)})"
        named = sorted(origin_name(o) for o in v.live if o.certain and o.label)
        return f" (computed from {named[0]})" if named else ""

    # candidates are augmented assignments (`total += loss`) to a value that existed before

    def _value_text(self, value) -> str:
        return self.ctx.code(value) if isinstance(value, (cst.Name, cst.Attribute, cst.Call, cst.Subscript)) else f"({self.ctx.code(value)})"

    def _fix(self, ev: AssignEvent, key: int, val) -> RuleFix:
        # `.item()` turns the accumulator into a Python number: that cannot change a correct
        # program only if the value is certainly one element (a 0-dim loss), the accumulator
        # started as a number, and afterwards it is never used as a tensor. Otherwise
        # `.detach()`: the same values, only without the history nothing here differentiates
        # (an accumulator that is differentiated, or may be by a caller, is not flagged).
        proven = (ev.value.get(F.SCALAR) is True and ev.old.kind == "number" and key not in self._tensor_use
                  and key not in self._escapes  # returned: the caller may use it as a tensor
                  and isinstance(ev.target_node, cst.Name))  # an attribute outlives the code that is seen
        meth = ".item()" if proven else ".detach()"
        return self._suffixed(val, meth, f"Accumulate with {meth}", Applicability.SAFE)

    def _store_fix(self, value_node) -> RuleFix:
        # the stored elements change type (tensor -> float) with .item(); .detach() keeps them
        # tensors. Either may change what later code does with the container: an editor fix.
        return self._suffixed(value_node, ".detach()", "Store a detached tensor", Applicability.UNSAFE)


def _accumulator_name(ev) -> str | None:
    """The name a GL205 candidate accumulates into (`total`, `self.data`)."""
    if isinstance(ev, AssignEvent):
        return ev.name
    root = getattr(ev, "root", None)
    if root is not None:
        return root
    func = getattr(ev.node, "func", None)
    return dotted_name(func.value) if isinstance(func, cst.Attribute) else None


def _picked_anew(target_node, loops, scopes: dict) -> bool:
    """`losses[i - 1].backward()` (or `.sum()` of it) in a loop that changes `i` and stores into
    `losses`: each iteration may backpropagate an element another iteration made. A container's
    items are one value to the analysis, so the element made before the loop is not proven to be
    the one walked again."""
    node = target_node
    while isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute):
        node = node.func.value
    if not isinstance(node, cst.Subscript) or single_index_const(node) is not None:
        return False
    container = root_name(node.value)
    index = {n.value for e in node.slice for n in walk(e) if isinstance(n, cst.Name)}
    for loop, _ in loops:
        hit = scopes.get(id(loop))
        if hit is None:
            hit = scopes[id(loop)] = stored_names(loop)
        stored, _fors = hit
        if container in stored and index & stored:
            return True
    return False


def _built_by_weak_callees(ops: list, target) -> bool:
    """Every operation of the freed graph walked again is a call of something proven a module
    only by being called (a parameter or attribute: `schedule(progress)`,
    `self.clip_range(progress)`), which may well be a schedule returning a number."""
    weak = {o.label for o in target.live if o.certain and o.weak}
    if not weak:
        return False
    return all(callee_last(op) in weak for op in ops)


# joins that grow a tensor by one more piece when given it and the piece (`torch.cat([hist, x])`)
_GROWING_JOINS = frozenset({"cat", "concat", "concatenate", "stack", "hstack", "vstack"})


def _rebound_sum(ev: AssignEvent, torch_adds: set[int] | frozenset = frozenset()):
    """The added operand of an accumulation spelled out as an assignment, or None for any other
    assignment: `total = total + loss` (or `loss + total`, `total - x`), `total = total.add(loss)`
    / `torch.add(total, loss)`, and a running average `avg = 0.9 * avg + 0.1 * loss` (the old
    value scaled by a factor that does not mention the new one). The target is a name or an
    attribute (`self.total = self.total + loss` in a Trainer). `torch_adds`: the calls that are
    torch.add, however imported."""
    stmt = ev.node
    if not (isinstance(stmt, cst.Assign) and len(stmt.targets) == 1 and isinstance(ev.target_node, (cst.Name, cst.Attribute))
            and stmt.targets[0].target is ev.target_node):
        return None
    name = dotted_name(ev.target_node)
    if name is None:
        return None
    v = stmt.value
    if isinstance(v, cst.Call) and callee_last(v) in _GROWING_JOINS and v.args and isinstance(v.args[0].value, (cst.List, cst.Tuple)):
        parts = [e.value for e in v.args[0].value.elements if not isinstance(e, cst.StarredElement)]
        others = [p for p in parts if dotted_name(p) != name]
        if len(parts) == 2 and len(others) == 1:
            return others[0]  # `hist = torch.cat([hist, loss[None]])` (not `x = torch.cat([x, x])`)
        return None
    if isinstance(v, cst.Call) and len(v.args) in (1, 2) and not any(a.star or a.keyword for a in v.args):
        func = v.func
        if isinstance(func, cst.Attribute) and func.attr.value == "add" and len(v.args) == 1 and dotted_name(func.value) == name:
            return v.args[0].value  # `total = total.add(loss)`
        if id(v) in torch_adds and len(v.args) == 2:
            if dotted_name(v.args[0].value) == name:
                return v.args[1].value
            if dotted_name(v.args[1].value) == name:
                return v.args[0].value
        return None
    if not isinstance(v, cst.BinaryOperation):
        return None
    if isinstance(v.operator, cst.Add):
        if _old_term(v.left, name):
            return v.right
        if _old_term(v.right, name):
            return v.left
    if isinstance(v.operator, cst.Subtract) and _old_term(v.left, name):
        return v.right
    return None


def _old_term(node, name: str) -> bool:
    """`node` is the accumulator's old value, or it times a factor that does not mention it
    (`avg * 0.9`, `beta * self.ema`)."""
    if dotted_name(node) == name:
        return True
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Multiply):
        for old, factor in ((node.left, node.right), (node.right, node.left)):
            if dotted_name(old) == name and not any(dotted_name(n) == name for n in walk(factor) if isinstance(n, (cst.Name, cst.Attribute))):
                return True
    return False


class BackwardAfterOptimizerStep(Rule):
    code = "GL206"
    message = "a backward pass goes through a graph built before an optimizer step changed the parameters it saved"
    severity = Severity.ERROR
    docs = "https://pytorch.org/docs/stable/notes/autograd.html#in-place-operations-with-autograd"
    triggers = ("step",)
    rationale = """
        `optimizer.step()` updates its parameters in place. Every operation of a graph built
        before the step that saved one of those parameters for its backward (a linear or
        convolution layer keeps its weight to pass the gradient on to its input) now holds a
        changed tensor, and a backward pass through it raises "one of the variables needed for
        gradient computation has been modified by an inplace operation". The classic case is a
        GAN whose generator loss reuses the discriminator output computed before
        `optimizer_D.step()` (or an actor-critic whose actor loss goes through the critic
        stepped just before); PyTorch 1.5 turned the silently wrong gradients of that code into
        this error. gradlint reports it when the backward pass must go through the stepped
        module to reach other parameters (the generator's, the actor's).

        Instead: compute the shared part again after the step (`D(fake)` for the generator
        loss), or run both backward passes before either step.
    """
    invalid = [
        Invalid(
            """
            import torch
            import torch.nn as nn
            G, D = nn.Linear(4, 4), nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))
            opt_g, opt_d = torch.optim.Adam(G.parameters()), torch.optim.Adam(D.parameters())
            bce = nn.BCEWithLogitsLoss()
            for real in torch.randn(10, 16, 4):
                d_fake = D(G(torch.randn(16, 4)))
                loss_d = bce(D(real), torch.ones(16, 1)) + bce(d_fake, torch.zeros(16, 1))
                opt_d.zero_grad()
                loss_d.backward(retain_graph=True)
                opt_d.step()
                loss_g = bce(d_fake, torch.ones(16, 1))
                opt_g.zero_grad()
                loss_g.backward()
                opt_g.step()
            """,
            line=14,
        )
    ]
    valid = [
        """
        import torch
        import torch.nn as nn
        G, D = nn.Linear(4, 4), nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))
        opt_g, opt_d = torch.optim.Adam(G.parameters()), torch.optim.Adam(D.parameters())
        bce = nn.BCEWithLogitsLoss()
        for real in torch.randn(10, 16, 4):
            fake = G(torch.randn(16, 4))
            loss_d = bce(D(real), torch.ones(16, 1)) + bce(D(fake.detach()), torch.zeros(16, 1))
            opt_d.zero_grad()
            loss_d.backward()
            opt_d.step()
            loss_g = bce(D(fake), torch.ones(16, 1))
            opt_g.zero_grad()
            loss_g.backward()
            opt_g.step()
        """,
        """
        import torch
        import torch.nn as nn
        model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        for x in torch.randn(10, 16, 4):
            loss = model(x).pow(2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
        """,
    ]

    def on_diff(self, ev: DiffEvent) -> None:
        if ev.kind not in TORCH_GRAPH_DIFF or not ev.stale_hit or ev.freed_hit:
            return  # a freed graph is GL201's finding (and has the same remedy)
        reached = frozenset(o for o in ev.target.live if o.certain and not o.frozen)
        hits = []
        for g, (step, stepped, direct, used) in ev.stale_hit.items():
            others = reached - stepped
            if others:  # the gradient must pass the stepped module to reach the others
                # named first: a call of the stepped module itself (`D(fake)`, not a layer inside
                # it) on the way to those others
                hits.append(((not (used & others), not (used & direct)), g[0], step))
        if not hits:
            return
        _, op, step = min(hits, key=lambda h: (h[0], _position(self.ctx, h[1])))  # the first in the file: what the message names
        text = " ".join(self.ctx.code(op).split())
        text = shortened(text, 48)
        self.report(
            ev.node,
            lambda line, op=op, step=step, text=text: (
                f"this backward pass goes through `{text}` (line {line(op)}), computed before "
                f"`{self.ctx.code(step)}` (line {line(step)}) changed the parameters it saved in place: backward() raises "
                "\"one of the variables needed for gradient computation has been modified by an inplace operation\"; "
                "compute it again after the step, or run both backward passes before stepping"
            ),
        )
