"""GL3xx gradient state: `.grad` aliasing, zero_grad bookkeeping, leaves, in-place changes.

Why this module is long: it is a catalogue of 9 rules, one class each, and a rule class is
its own specification (rationale, flagged and correct examples, fix); the logic of a rule is a
few dozen lines. Adding a rule adds a class here (see docs/architecture.md).
"""

from __future__ import annotations

import re

import libcst as cst

from ..analysis import facts as F
from ..analysis import kinds as K
from ..analysis.frameworks.torch import VIEW_METHODS, pins_torch_1x
from ..analysis.names import dotted_name
from ..analysis.values import Origin, Val
from ..analysis.queries import certainly_computed, certainly_requires_grad, proven_non_leaf
from ..analysis.walk import callee_last, walk
from ..analysis.events import AssignEvent, CallEvent, DiffEvent, InplaceEvent, OptEvent, StoreEvent, UseEvent
from ..diagnostics import Applicability, Severity
from ._flow import call_name, takes_remainder
from .base import Family, Invalid, NodeEdit, Rule, RuleFix

FAMILY = Family("GL3", "gradient state")


def _known_torch(v) -> bool:
    """A PyTorch tensor, as far as the analysis can prove: `x /= ...` on a JAX or NumPy array
    rebinds the name and saves nothing (autograd's in-place rules are PyTorch's)."""
    fw = v.get(F.FW)
    return fw == "torch" or fw is None and any(o.certain and o.framework == "torch" for o in v.live)


def _shares_version_with(v, saved_by):
    """The tensor whose version counter an in-place change of `v` bumps: `v` itself, or, for
    `c = out.detach()` of a saved tensor, `out` (a detached tensor shares its storage and its
    version counter, so `c.zero_()` breaks what saved `out`; `.data` does not share it, GL307).
    None when `v` is detached but not from a tensor with history known for certain."""
    if v.live or saved_by is None or not v.cuts:
        return v
    last = max((c for _o, c in v.cuts), key=lambda c: c.seq)
    if last.kind != "detach" or not last.detached:
        return None
    origins = frozenset(o for o, c in v.cuts if c is last)
    return Val(origins, v.cuts - frozenset((o, last) for o in origins), v.notes, last.detached, v.kind, v.attrs)


def _reads_grad_attribute(node) -> bool:
    """`p.grad`, `p.grad.data`, `p.grad[i]`: the buffer read from its parameter, not a kept alias."""
    while isinstance(node, (cst.Subscript, cst.Attribute)):
        if isinstance(node, cst.Attribute) and node.attr.value == "grad":
            return True
        node = node.value
    return False


class GradKeptWithoutClone(Rule):
    code = "GL301"
    message = "a reference to p.grad (or a view of it) is kept without .clone(): the next backward/zero_grad rewrites it in place"
    severity = Severity.ERROR
    docs = "https://pytorch.org/docs/stable/generated/torch.Tensor.grad.html"
    triggers = (".grad",)
    fix_applicability = Applicability.SAFE
    rationale = """
        `p.grad` is a buffer that autograd and optimizers update *in place*: `backward()`
        accumulates into it, `zero_grad(set_to_none=False)` zeroes it, gradient clipping and
        weight decay scale or add to it. A reference kept to it — `state["prev"] = p.grad`,
        `grads.append(p.grad.view(-1, 1))`, `self.last = grad[idx]`, or `.detach()` / `.data`
        of it (still the same storage) — changes with it. Per-sample gradients collected that
        way all end up equal to the last one (the classic report: they differ from the batch
        gradient by 0.03 because the first column was rewritten in place), and optimizers that
        compare with the "previous gradient" compare the gradient with itself.

        Instead: store a copy, `p.grad.clone()` (or `.detach().clone()`). The fix appends
        `.clone()`; it is safe: it only breaks the aliasing.
    """
    invalid = [
        Invalid(
            """
            import torch
            from torch.optim import Optimizer

            class DiffGradLike(Optimizer):
                @torch.no_grad()
                def step(self):
                    for group in self.param_groups:
                        for p in group["params"]:
                            grad = p.grad
                            state = self.state[p]
                            p.add_(grad, alpha=-group["lr"])
                            state["previous_grad"] = grad
            """,
            line=12,
            fixed="""
            import torch
            from torch.optim import Optimizer

            class DiffGradLike(Optimizer):
                @torch.no_grad()
                def step(self):
                    for group in self.param_groups:
                        for p in group["params"]:
                            grad = p.grad
                            state = self.state[p]
                            p.add_(grad, alpha=-group["lr"])
                            state["previous_grad"] = grad.clone()
            """,
        ),
        Invalid(
            """
            import torch
            model = torch.nn.Linear(4, 1)
            per_sample = []
            for x in torch.randn(8, 4):
                model.zero_grad(set_to_none=False)
                model(x).sum().backward()
                per_sample.append(model.weight.grad.view(-1, 1))
            """,
            line=7,
        ),
    ]
    valid = [
        """
        import torch
        w = torch.nn.Parameter(torch.randn(5))
        prev = None
        for step in range(5):
            w.grad = None
            (w.sin() ** 2).sum().backward()
            prev = w.grad.detach().clone()
        """,
        """
        import torch
        model = torch.nn.Linear(4, 1)
        model(torch.randn(2, 4)).sum().backward()
        norms = [p.grad.norm() for p in model.parameters()]
        g = model.weight.grad
        print(g.abs().max())
        """,
    ]

    chunk_triggers = (r"\.grad\b(?!_)",)

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        self._local: list[StoreEvent] = []
        self._on_self: list[StoreEvent] = []  # stores on `self`, judged in finish()
        self._names: dict[int, AssignEvent] = {}  # id(alias value) -> its assignment to a name
        # what happens to parameters' .grad, in order: (run, seq, origins, effect) where effect is
        # "inplace" (the buffer itself is rewritten) or "reset" (p.grad = None: the next backward
        # allocates a new buffer, and a kept reference keeps the old values)
        self._effects: list[tuple[int, int, frozenset, str, object]] = []  # (..., the node that does it)
        self._alias_writes: list[tuple[int, int, frozenset]] = []
        self._torch_1x: bool | None = None  # the project pins torch < 2 (read on first zero_grad)
        self._reports: list[tuple] = []  # decided in finish(), when every alias write is known

    def _first_effect(self, run: int, after: int, before: float, mine: frozenset) -> str | None:
        first = self._first(run, after, before, mine)
        return first[0] if first else None

    def _first(self, run: int, after: int, before: float, mine: frozenset):
        for r, seq, origins, effect, node in self._effects:
            if r == run and after < seq < before and mine & origins:
                return effect, node
        return None

    def _rewrite_phrase(self, node, line) -> str:
        what = f"`{self.ctx.code(node)}`" if isinstance(node, cst.Call) else "an in-place write"
        return f"{what} on line {line(node)}"

    @staticmethod
    def _aliases(v) -> bool:
        """A .grad buffer or a view of it, or a list of those (`[p.grad.view(-1) for p in ...]`)."""
        if v.get(F.GRAD_OF) is not None and v.kind in ("tensor", None):
            return True
        elem = v.get(F.ELEM)
        if elem is not None and elem.get(F.GRAD_OF) is not None:
            return True
        return any(i.get(F.GRAD_OF) is not None for i in (v.get(F.ITEMS) or ()))

    def on_assign(self, ev: AssignEvent) -> None:
        if ev.op is None and isinstance(ev.target_node, cst.Name) and ev.value.get(F.GRAD_OF) is not None and ev.value.kind in ("tensor", None):
            self._names[id(ev.value)] = ev

    def _used(self, ev, vals) -> None:
        if not self._names:
            return
        for v in vals:
            a = self._names.get(id(v)) if v is not None else None
            if a is None or a.ctx.run != ev.ctx.run:
                continue
            mine = frozenset(o for o in (a.value.get(F.GRAD_OF) or ()) if getattr(o, "certain", False))
            # the buffer of that parameter rewritten in place between the assignment and this use
            first = self._first(a.ctx.run, a.seq, ev.seq, mine) if mine else None
            if first is not None and first[0] == "inplace":
                self.report(
                    a.node,
                    lambda line, a=a, by=first[1]: (
                        f"`{a.name}` is the `.grad` buffer itself, not a copy: {self._rewrite_phrase(by, line)} rewrites it in "
                        f"place, so the value read later is not the gradient saved here; use `.clone()`"),
                    fix=self._fix(a.node.value) if isinstance(a.node, cst.Assign) else None,
                )

    def on_call(self, ev: CallEvent) -> None:
        if ev.method is not None and ev.method.endswith("_") and not ev.method.endswith("__"):
            # `g.mul_(s)`: a write through the alias, meant to change the gradient in place
            self._used(ev, list(ev.args))
            return
        self._used(ev, [ev.recv] + list(ev.args))

    def on_binop(self, ev) -> None:
        self._used(ev, [ev.left, ev.right])

    def on_store(self, ev: StoreEvent) -> None:
        if ev.kind == "attr" and ev.attr == "grad" and ev.value.kind == "none":
            self._effects.append((ev.ctx.run, ev.seq, ev.container.live, "reset", ev.node))  # `p.grad = None`
            return
        v = ev.value
        if not self._aliases(v):
            return
        if ev.container.get(F.PERSISTENT):
            self._report(ev)  # an optimizer's state: outlives whatever this code does next
        elif (ev.root or "").startswith("self.") or ev.root == "self":
            # kept on the object: it outlives this call, so without a clearing or backward of
            # its own in sight (an optimizer's step()) a rewrite by the caller's next backward is
            # the risk; a method that runs the gradient's life itself (a Trainer's loop) is
            # judged by what it does next, like a local list
            self._on_self.append(ev)
        elif ev.kind == "append":
            # a local list is only a problem if .grad is rewritten while the list holds it
            self._local.append(ev)

    def on_inplace(self, ev: InplaceEvent) -> None:
        origins = self._grad_origins(ev.target)
        if not origins:
            return
        if _reads_grad_attribute(ev.target_node):
            self._effects.append((ev.ctx.run, ev.seq, origins, "inplace", ev.node))  # `p.grad.zero_()`, `p.grad.data.mul_(s)`
        else:
            # written through a kept reference (`g.mul_(0.5)` for g in grads): gradient surgery
            # that relies on the aliasing; a copy would silently undo it
            self._alias_writes.append((ev.ctx.run, ev.seq, origins))

    def on_diff(self, ev: DiffEvent) -> None:
        if ev.kind == "backward":
            # accumulates into the existing buffer (a fresh one only after a reset)
            self._effects.append((ev.ctx.run, ev.seq, ev.target.live, "inplace", ev.node))

    def on_opt(self, ev: OptEvent) -> None:
        # torch.optim's step() reads .grad and does not write it: not an effect
        effect = {"zero_grad": self._zero_grad_effect(ev.node), "clip": "inplace", "unscale": "inplace"}.get(ev.kind)
        if effect is not None:
            t = ev.target
            self._effects.append((ev.ctx.run, ev.seq, frozenset(t.get(F.OPT_PARAMS) or ()) | t.live | frozenset(t.get(F.GRAD_OF) or ()), effect, ev.node))

    def _zero_grad_effect(self, node) -> str:
        """`zero_grad()` sets `.grad` to None since torch 2.0 (`set_to_none=True` by default);
        only `set_to_none=False` zeroes the buffer in place — and the default does too in a
        project that pins torch < 2 (`pins_torch_1x`). A value the analysis cannot read counts
        as a reset: an in-place rewrite is reported only where it is certain."""
        if not isinstance(node, cst.Call):
            return "reset"
        for a in node.args:
            if (a.keyword is None or a.keyword.value == "set_to_none") and not a.star:
                return "inplace" if isinstance(a.value, cst.Name) and a.value.value == "False" else "reset"
        if self._torch_1x is None:
            self._torch_1x = pins_torch_1x(self.ctx.path)
        return "inplace" if self._torch_1x else "reset"

    def finish(self) -> None:
        for ev in self._on_self:
            mine = self._grad_origins(ev.value)
            # (a parameter the analysis cannot name: any clearing or backward in this run)
            if not any(r == ev.ctx.run and (not mine or mine & origins) for r, _, origins, _, _ in self._effects):
                self._report(ev)
            else:
                self._local.append(ev)
        for ev in self._local:
            mine = self._grad_origins(ev.value)
            first = self._first(ev.ctx.run, ev.seq, float("inf"), mine) if mine else None
            if first is not None and first[0] == "inplace" and not self._consumed_before(ev, first[1]):
                self._report(ev, first[1])
        for node, msg, ev in self._reports:
            self.report(node, msg, fix=self._fix(node, ev))

    def _consumed_before(self, ev: StoreEvent, rewrite) -> bool:
        """The local list is read only between the store and the rewrite, and made anew before
        each store (`grads = []` in the loop): it is dead when the buffers change (cleanrl's
        multi-GPU PPO: `grads.append(p.grad.view(-1))`, `torch.cat(grads)`, all-reduce, then
        `p.grad.copy_(...)`), so what it saw was the gradient. A list never read is kept to be
        read elsewhere or later, and stays reported."""
        name = ev.root
        if not name or "." in name or rewrite is None:
            return False
        ctx = self.ctx

        def pos(node, end: bool = False):
            r = ctx.range_of(node)
            return None if r is None else (r[1].line, r[1].column) if end else (r[0].line, r[0].column)

        scope = next((a for a in ctx.ancestors(ev.node) if isinstance(a, (cst.FunctionDef, cst.Module))), None)
        store, start_rewrite = pos(ev.node, end=True), pos(rewrite)
        if scope is None or store is None or start_rewrite is None:
            return False
        # the loop whose back edge could carry the list from the rewrite to a read: the
        # innermost one around both
        around_rewrite = {id(a) for a in ctx.ancestors(rewrite)}
        loop = next((a for a in ctx.ancestors(ev.node) if isinstance(a, (cst.For, cst.While)) and id(a) in around_rewrite), None)
        reads, made_in_loop = 0, loop is None
        for n in walk(scope, code_only=True):
            if not isinstance(n, cst.Name) or n.value != name:
                continue
            parent = ctx.parent(n)
            where = pos(n)
            if where is None:
                return False
            if isinstance(parent, cst.AssignTarget) and parent.target is n:
                if loop is not None and where < store and any(a is loop for a in ctx.ancestors(n)):
                    made_in_loop = True  # `grads = []` in the loop, before the store
                continue
            if isinstance(parent, cst.Attribute) and parent.value is n and parent.attr.value in ("append", "extend", "insert"):
                continue  # another store into it
            if not (store <= where < start_rewrite):
                return False  # read after the rewrite (or before the store: a later iteration's)
            reads += 1
        return reads > 0 and made_in_loop

    @staticmethod
    def _grad_origins(v) -> frozenset:
        out = set(v.get(F.GRAD_OF) or ())
        elem = v.get(F.ELEM)
        if elem is not None:
            out |= set(elem.get(F.GRAD_OF) or ())
        for i in v.get(F.ITEMS) or ():
            out |= set(i.get(F.GRAD_OF) or ())
        return frozenset(o for o in out if getattr(o, "certain", False))  # certain origins only

    def _report(self, ev: StoreEvent, by=None) -> None:
        node = ev.value_node if ev.value_node is not None else ev.node
        where = f"`{ev.root}`" if ev.root else "this container"
        if by is not None:
            msg = lambda line: (  # noqa: E731
                f"{where} keeps a reference to a `.grad` buffer (not a copy): {self._rewrite_phrase(by, line)}"
                f"{' (next iteration)' if line(by) <= line(node) else ''} rewrites it in place, so the stored value silently "
                f"changes; store a copy with `.clone()`")
        else:  # kept beyond this code (an optimizer's state): rewritten by whatever zeroes in place
            msg = lambda line: (  # noqa: E731
                f"{where} keeps a reference to a `.grad` buffer (not a copy): a later backward() without clearing, "
                f"zero_grad(set_to_none=False) or in-place update rewrites it, so the stored value silently changes; "
                f"store a copy with `.clone()`")
        self._reports.append((node, msg, ev))

    def _fix(self, node, ev=None) -> RuleFix | None:
        if not isinstance(node, (cst.Name, cst.Attribute, cst.Call, cst.Subscript)):
            return None
        # `.clone()` only breaks the aliasing; it changes the program where the code writes into
        # the buffer through the kept reference afterwards (then it is an editor fix)
        mine = self._grad_origins(ev.value) if ev is not None else frozenset()
        writes_through = any(r == ev.ctx.run and seq > ev.seq and mine & o for r, seq, o in self._alias_writes) if ev is not None else False
        return RuleFix("Store a copy with .clone()", (NodeEdit(node, ".clone()", how="after"),),
                       Applicability.UNSAFE if writes_through else Applicability.SAFE)


class MissingZeroGrad(Rule):
    code = "GL302"
    message = "a training loop calls backward() and step() but never zero_grad(): gradients accumulate across iterations"
    severity = Severity.ERROR
    docs = "https://pytorch.org/tutorials/recipes/recipes/zeroing_out_gradients.html"
    triggers = ("backward",)
    rationale = """
        `backward()` *adds* into `.grad`. A loop that calls `backward()` and `optimizer.step()`
        but never clears the gradients (`optimizer.zero_grad()`, `model.zero_grad()`,
        `p.grad = None`) steps with the sum of all previous iterations' gradients: the
        effective learning rate grows with the step count and training diverges or stalls.

        The same on one path: when every `zero_grad()` of the loop is in one branch of an `if`
        and the other branch backpropagates and steps on its own (`if args.amp: zero_grad();
        scaler...; else: loss.backward(); optimizer.step()`), runs that take the other branch
        accumulate. Likewise when both branches step and only one clears (`if fp16:
        opt.step(); opt.zero_grad() else: opt.step()`), also in a step function whose loop is
        in a caller: the branch that clears shows that nobody else does.

        Gradient accumulation (clearing every k steps, inside the loop) is fine and not
        flagged. Instead: call `optimizer.zero_grad()` at the start of each iteration (or right
        after `step()`).
    """
    invalid = [
        Invalid(
            """
            import torch
            model = torch.nn.Linear(128, 10)
            optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
            for step in range(100):
                loss = model(torch.randn(32, 128)).logsumexp(1).mean()
                loss.backward()
                optimizer.step()
            """,
            line=6,
        )
    ]
    valid = [
        """
        import torch
        model = torch.nn.Linear(128, 10)
        optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
        for i in range(100):
            loss = model(torch.randn(32, 128)).logsumexp(1).mean() / 4
            loss.backward()
            if (i + 1) % 4 == 0:
                optimizer.step()
                optimizer.zero_grad()
        """
    ]

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        self._loops: dict[tuple, dict] = {}

    def _frames(self, ev):
        run = ev.ctx.run
        if not ev.ctx.loops:
            # a step function with no loop of its own (the caller's loop is not seen): only
            # the branch check applies, the caller may clear the gradients for the rest
            fn = ev.ctx.fn
            f = self._loops.setdefault((run, "fn", id(fn) if fn is not None else None, ev.ctx.calls), self._frame())
            f["scope"] = fn.node if fn is not None else None
            yield f
            return
        for depth in range(1, len(ev.ctx.loops) + 1):
            key = (run, ev.ctx.loops[:depth])
            yield self._loops.setdefault(key, self._frame())

    @staticmethod
    def _frame() -> dict:
        return {"backward": [], "step": False, "zero": False, "steps": [], "cleared": set(), "all": False, "unfollowed": False,
                "zeros": []}

    def on_call(self, ev: CallEvent) -> None:
        if ev.result.get(F.NOT_FOLLOWED):
            # a helper of the code's own the analysis did not follow (too deep): it may clear the
            # gradients (guided-diffusion's `self.zero_grad()` -> `zero_grad(self.model_params)`)
            for f in self._frames(ev):
                f["unfollowed"] = True

    def on_diff(self, ev: DiffEvent) -> None:
        if ev.kind != "backward":
            return
        # a torch history, or the output of a torch loss (`criterion(learner(x), y)` with a
        # learner the analysis cannot see: a library loss module has no origin of its own)
        if not any(o.certain and o.framework == "torch" for o in ev.target.live) and not (
                ev.target.get(F.LOSS_OF) and ev.target.get(F.FW) == "torch" and not ev.target.cuts):
            return
        for f in self._frames(ev):
            f["backward"].append(ev)

    def on_opt(self, ev: OptEvent) -> None:
        for f in self._frames(ev):
            if ev.kind == "zero_grad":
                f["zero"] = True
                f["zeros"].append(ev.node)
                # which gradients it clears: an optimizer's own parameters, a module's own
                # (`netG.zero_grad()` leaves netD's alone), or (anything else) all
                if ev.target.kind == "optimizer":
                    mine = _certain(ev.target.get(F.OPT_PARAMS))
                elif ev.target.kind == "module":
                    mine = _certain(ev.target.live)
                else:
                    mine = frozenset()
                f["cleared"] |= mine
                f["all"] = f["all"] or not mine
            elif ev.kind == "step" and ev.target.kind == "optimizer" and ev.target.get(F.FW) != "tf":
                f["step"] = True
                f["steps"].append(ev)

    def finish(self) -> None:
        for key, f in self._loops.items():
            if key[1] == "fn":
                if f["backward"] and f["step"] and not f["unfollowed"] and f["scope"] is not None:
                    self._step_branch_never_cleared(f, f["scope"])
                continue
            if f["backward"] and f["step"] and not f["zero"] and not f["unfollowed"]:
                ev = f["backward"][0]
                self.report(
                    ev.node,
                    "this loop calls backward() and optimizer.step() but never clears the gradients: backward() adds into "
                    ".grad, so each step uses the sum of all previous iterations' gradients; call `optimizer.zero_grad()` "
                    "at the start of each iteration",
                )
            elif f["backward"] and f["zero"] and f["step"] and not f["unfollowed"] and (
                    self._branch_never_cleared(f) or self._step_branch_never_cleared(f, key[1][-1][0])
                    or self._cleared_every_k(f, key[1][-1][0])):
                continue
            elif f["backward"] and f["zero"] and not f["all"]:
                self._uncleared_optimizer(key, f)

    def _every_k_only(self, node, loop) -> bool:
        """`node` runs only under an `if` of the loop whose test takes a remainder (`step % k == 0`)."""
        for a in self.ctx.ancestors(node):
            if a is loop or isinstance(a, (cst.FunctionDef, cst.Lambda)):
                return False
            if isinstance(a, cst.If) and takes_remainder(a.test):
                return True
        return False

    def _cleared_every_k(self, f, loop) -> bool:
        """`if step % log_every == 0: ...; opt.zero_grad()` with the step on every iteration: the
        gradients are cleared only every k-th iteration, so k - 1 steps in a row use sums of
        iterations' gradients (accumulation gates the step too, under the same kind of `if`)."""
        zeros = list(dict.fromkeys(f["zeros"]))
        if not zeros or not all(self._every_k_only(z, loop) for z in zeros):
            return False
        steady = [s for s in f["steps"] if not self._every_k_only(s.node, loop)]
        if not steady or any(self._every_k_only(b.node, loop) for b in f["backward"]):
            return False
        zero = zeros[0]
        self.report(
            zero,
            lambda line, step=steady[0].node: (
                f"the gradients are cleared only every few iterations (this zero_grad() is under an `if` that takes a "
                f"remainder), but the optimizer steps on every iteration (line {line(step)}): backward() "
                f"adds into .grad, so the steps in between use the sum of several iterations' gradients; clear on every "
                f"iteration (or gate the step with the same `if`, for accumulation)"
            ),
        )
        return True

    def _branch_never_cleared(self, f) -> bool:
        """`if args.amp: opt.zero_grad(); scaler.scale(loss).backward(); ... else: loss.backward();
        opt.step()` (DAB-DETR's engine): every clearing of the loop is in the other branch of an
        `if` whose branch with the backward also steps. On the path through that branch nothing
        clears; reported on its backward."""
        # the ids of every step's ancestors, once (asked for each backward and each branch)
        step_paths = [{id(n) for n in self._path(ev.node)} for ev in f["steps"]]
        for b in f["backward"]:
            b_path = self._path(b.node)
            branches = []
            for z in dict.fromkeys(f["zeros"]):
                split = _branches_apart(self._path(z), b_path)
                if split is None:
                    break
                branches.append(split)
            else:
                # the backward's branch steps too (a step after the if is the same on both paths)
                if branches and all(any(id(own) in path for path in step_paths) for _if, own in branches):
                    if_node, own = branches[0]
                    zero = f["zeros"][0]
                    self.report(
                        b.node,
                        lambda line, zero=zero, if_node=if_node: (
                            f"on the path through this branch of the `if` on line {line(if_node)}, the loop calls backward() and "
                            f"step() but never clears the gradients: the zero_grad() on line {line(zero)} is only in the other "
                            "branch, so each step here uses the sum of all previous iterations' gradients; clear them in this "
                            "branch too (or once, before the `if`)"
                        ),
                    )
                    return True
        return False

    def _step_branch_never_cleared(self, f, scope) -> bool:
        """`loss.backward(); if fp16: opt.step(); opt.zero_grad() else: opt.step()` (FlagAI's
        trainer, the second zero_grad commented out): an optimizer steps in both branches of an
        `if`, but every clearing of the loop (or of the step function) is in the other branch,
        and the backward runs on the path through this one (before the `if`, or in this
        branch). That path never clears, so it steps with every earlier iteration's gradients;
        the branch that does clear shows that nobody else clears them. Read from the code: the
        interpreter may not have taken the other branch (a flag whose value it knows)."""
        zeros = list(dict.fromkeys([*f["zeros"], *(n for n in walk(scope) if isinstance(n, cst.Call) and callee_last(n) == "zero_grad")]))
        for st in f["steps"]:
            if not isinstance(st.node, cst.Call) or not isinstance(st.node.func, cst.Attribute):
                continue
            receiver = self.ctx.code(st.node.func.value)
            st_path = self._path(st.node)
            splits = [_branches_apart(self._path(z), st_path) for z in zeros]
            if not splits or None in splits:
                continue
            if_node, own = splits[0]
            if any(split[0] is not if_node for split in splits):
                continue
            other = if_node.orelse if own is if_node.body else if_node.body
            if not any(isinstance(n, cst.Call) and callee_last(n) == "step" and isinstance(n.func, cst.Attribute) and receiver in (
                    self.ctx.code(n.func.value), n.args and self.ctx.code(n.args[0].value)) for n in walk(other)):
                continue  # the other branch only clears (gradient accumulation) or steps another optimizer
            if not any(id(if_node) not in (ids := {id(n) for n in self._path(b.node)}) or id(own) in ids for b in f["backward"]):
                continue
            zero = zeros[0]
            self.report(
                st.node,
                lambda line, zero=zero, if_node=if_node: (
                    f"on the path through this branch of the `if` on line {line(if_node)}, the optimizer steps but its "
                    f"gradients are never cleared: the zero_grad() on line {line(zero)} is only in the other branch, so each "
                    "step here uses the sum of all previous iterations' gradients; clear them in this branch too (or once, "
                    "after the `if`)"
                ),
            )
            return True
        return False

    def _path(self, node) -> list:
        """The node and its ancestors, innermost first."""
        return [node, *self.ctx.ancestors(node)]

    def _uncleared_optimizer(self, key, f) -> None:
        """Several optimizers, each cleared by its own `zero_grad()` (the optimizer's or its
        model's): one that steps in the loop and whose parameters no clearing covers accumulates
        across iterations (idinvert's `optimizer_D`; DCGAN without `netD.zero_grad()`). Only when
        every clearing has known parameters, and the loop resets no `.grad` by hand."""
        loop = key[1][-1][0]
        for st in f["steps"]:
            params = _certain(st.target.get(F.OPT_PARAMS))
            if not params or params & f["cleared"]:
                continue
            hit = [b for b in f["backward"] if b.target.live & params]
            if not hit:
                continue
            # asked last: generating the loop's code is the costly part of this check
            if re.search(r"(?<!autograd)\.grad\b", self.ctx.code(loop)):
                return
            node = st.node
            name = self.ctx.code(node.func.value) if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) else "this optimizer"
            self.report(
                hit[0].node,
                lambda line, name=name, node=node: (
                    f"this loop clears the gradients of other parameters but never those `{name}` steps: backward() adds "
                    f"into the .grad of `{name}`'s parameters, so its step() on line {line(node)} uses the sum of all previous "
                    f"iterations' gradients; call `{name}.zero_grad()` (or `zero_grad()` of its model) before this backward()"
                ),
            )
            return


def _branches_apart(a_path: list, b_path: list):
    """(the `if`, b's branch of it) when the innermost `if` holding both a and b holds them in
    different branches (its body and its else/elif); None otherwise."""
    b_ids = {id(n): i for i, n in enumerate(b_path)}
    for i, n in enumerate(a_path):
        j = b_ids.get(id(n))
        if j is None:
            continue
        if not isinstance(n, cst.If) or i == 0 or j == 0:
            return None
        a_child, b_child = a_path[i - 1], b_path[j - 1]
        branch = {id(n.body): "body", id(n.orelse): "else"}
        if a_child is b_child or id(a_child) not in branch or id(b_child) not in branch:
            return None
        return n, b_child
    return None


def _certain(origins) -> frozenset:
    return frozenset(o for o in (origins or ()) if getattr(o, "certain", False))


class ZeroGradBetweenBackwardAndStep(Rule):
    code = "GL303"
    message = "zero_grad() runs between backward() and step(): the optimizer steps with cleared gradients"
    severity = Severity.ERROR
    docs = "https://pytorch.org/docs/stable/generated/torch.optim.Optimizer.zero_grad.html"
    triggers = ("zero_grad", ".grad")
    rationale = """
        `optimizer.zero_grad()` between `loss.backward()` and `optimizer.step()` throws the
        gradients away just before they are used: `step()` sees zeros (or None, with the default
        `set_to_none=True`) and the model does not train (Adam with `weight_decay` still
        decays it). Clearing by hand (`for p in model.parameters(): p.grad = None`, or
        `p.grad.zero_()`) is the same. gradlint reports it when what is cleared is what the step
        uses: the same optimizer, parameters both hold, or (an optimizer received as a
        parameter) everything the backward just trained; clearing a frozen submodule's or
        another model's gradients is not reported.

        Instead: `zero_grad()` → forward → `backward()` → `step()` (or clear right after
        `step()`).
    """
    invalid = [
        Invalid(
            """
            import torch
            model = torch.nn.Linear(3, 8)
            opt = torch.optim.Adam(model.parameters(), lr=1e-3)
            for it in range(100):
                loss = model(torch.randn(4, 3)).abs().mean()
                loss.backward()
                opt.zero_grad()
                opt.step()
            """,
            line=7,
        )
    ]
    valid = [
        """
        import torch
        model = torch.nn.Linear(3, 8)
        opt = torch.optim.Adam(model.parameters(), lr=1e-3)
        for it in range(100):
            loss = model(torch.randn(4, 3)).abs().mean()
            loss.backward()
            opt.step()
            opt.zero_grad()
        """
    ]

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        self._zeroed: dict[int, OptEvent] = {}  # zero_grad() node -> its (last) event: what it clears
        self._backwards: list[DiffEvent] = []

    def on_diff(self, ev: DiffEvent) -> None:
        if ev.kind == "backward":
            self._backwards.append(ev)

    def on_opt(self, ev: OptEvent) -> None:
        if ev.kind == "zero_grad":
            self._zeroed[id(ev.node)] = ev
            return
        if ev.kind != "step" or ev.prev is None or ev.prev[0] != "zero_after_backward":
            return
        zero_ev = self._zeroed.get(id(ev.prev[1]))
        if not self._clears_what_steps(ev.prev[1], zero_ev.target if zero_ev else None, ev, self._trained_before(zero_ev)):
            return  # `opt_G.zero_grad()` between D's backward and `opt_D.step()`: another model's gradients
        zero = ev.prev[1]
        by_call = isinstance(zero, cst.Call) and isinstance(zero.func, cst.Attribute) and zero.func.attr.value == "zero_grad"
        what = "zero_grad()" if by_call else f"`{self.ctx.code(zero)}`"  # `p.grad = None`, `p.grad.zero_()`
        self.report(
            zero,
            lambda line, step=ev.node, what=what: (
                f"{what} clears the gradients that backward() just computed, before the step() on line {line(step)} "
                f"uses them: the optimizer steps with zero/None gradients; move zero_grad() before the forward pass "
                f"(or after step())"
            ),
        )


    def _trained_before(self, zero_ev: OptEvent | None) -> frozenset:
        """What the last backward before the clearing trained (its certain live origins)."""
        if zero_ev is None:
            return frozenset()
        before = [d for d in self._backwards if d.ctx.run == zero_ev.ctx.run and d.seq < zero_ev.seq]
        return frozenset(o for o in before[-1].target.live if o.certain) if before else frozenset()

    @staticmethod
    def _clears_what_steps(zero_node, zeroed: Val | None, step: OptEvent, trained: frozenset = frozenset()) -> bool:
        """The zero_grad() provably clears gradients the step uses: the same optimizer (by name),
        or parameters both are known to hold; or, for an optimizer whose parameters are unseen
        (received: `train(model, loader, optimizer)`), everything the backward just trained:
        whatever it holds, none of its gradients from that backward is left."""
        if zeroed is None:
            return True
        # `opt.step()` and `scaler.step(opt)` both step `opt`
        call = step.node
        names = {dotted_name(call.func.value) if isinstance(call.func, cst.Attribute) else None,
                 dotted_name(call.args[0].value) if call.args else None} if isinstance(call, cst.Call) else set()
        names.discard(None)
        if isinstance(zero_node, cst.Call) and isinstance(zero_node.func, cst.Attribute) and dotted_name(zero_node.func.value) in names:
            return True
        # an optimizer's parameters, a module's (`model.zero_grad()`), or the parameters whose
        # .grad buffer is cleared by hand (`p.grad.zero_()`)
        held = zeroed.get(F.OPT_PARAMS) or zeroed.live or zeroed.get(F.GRAD_OF) or ()
        cleared = frozenset(o for o in held if isinstance(o, Origin) and o.certain)
        stepped = frozenset(o for o in (step.target.get(F.OPT_PARAMS) or ()) if o.certain)
        if cleared and stepped:
            return bool(cleared & stepped)
        if cleared and not stepped and step.target.get(F.SYM) and trained and trained <= cleared:
            return True
        return not (cleared or stepped) and zeroed.kind == step.target.kind == K.OPTIMIZER and zeroed is step.target


class RequiresGradOnNonLeaf(Rule):
    code = "GL304"
    message = "requires_grad=True is set on a tensor that is then moved/cast: the result is a non-leaf whose .grad stays None"
    severity = Severity.ERROR
    docs = "https://pytorch.org/docs/stable/generated/torch.Tensor.is_leaf.html"
    triggers = ("requires_grad",)
    fix_applicability = Applicability.UNSAFE
    rationale = """
        `torch.randn(..., requires_grad=True).to(device)` (or `.cuda()`, `.double()`, `* 0.01`)
        creates a leaf *and then* a new tensor from it. The variable holds the new tensor, which
        is not a leaf: its `.grad` stays None after `backward()` (PyTorch warns "The .grad
        attribute of a Tensor that is not a leaf Tensor is being accessed"), and an optimizer
        given it updates nothing.

        Instead: create the tensor where it lives, `torch.randn(..., device=device,
        requires_grad=True)`, or enable gradients after the move:
        `torch.randn(...).to(device).requires_grad_()`.
    """
    invalid = [
        Invalid(
            """
            import torch
            style = torch.randn(1, 3, 64, 64, requires_grad=True).to("cuda")
            opt = torch.optim.Adam([style], lr=0.05)
            (style ** 2).mean().backward()
            """,
            line=2,
            fixed="""
            import torch
            style = torch.randn(1, 3, 64, 64).to("cuda").requires_grad_()
            opt = torch.optim.Adam([style], lr=0.05)
            (style ** 2).mean().backward()
            """,
        )
    ]
    valid = [
        """
        import torch
        style = torch.randn(1, 3, 64, 64, device="cuda", requires_grad=True)
        opt = torch.optim.Adam([style], lr=0.05)
        x = torch.randn(3, requires_grad=True).double()
        (x ** 2).sum().backward()
        (style ** 2).mean().backward()
        """
    ]

    def on_call(self, ev: CallEvent) -> None:
        q = ev.qual or ""
        if not (q.startswith("torch.optim.") and ev.args):
            return
        params = ev.args[0]
        for item in params.get(F.ITEMS) or (params,):
            src = item.get(F.NONLEAF_FROM)
            if src is not None:
                self._report(src, "is passed to the optimizer")

    def on_use(self, ev: UseEvent) -> None:
        if ev.name != "grad":
            return
        src = ev.value.get(F.NONLEAF_FROM)
        if src is not None and not ev.value.get(F.RETAINS_GRAD):
            self._report(src, "has its .grad read")

    def _report(self, src, why: str) -> None:
        if isinstance(src, cst.BinaryOperation) and not self._under_no_grad(src) and any(
                isinstance(n, cst.Attribute) and n.attr.value == "grad" for n in walk(src, code_only=True)):
            return  # `w = w - lr * w.grad` outside no_grad: an update that rebinds the leaf is GL305's finding
        view = isinstance(src, cst.Call) and isinstance(src.func, cst.Attribute) and src.func.attr.value in VIEW_METHODS
        instead = ("reshape first and call `.requires_grad_()` on the result, or keep the leaf under its own name and read "
                   "its .grad" if view else
                   "create it on the device with `requires_grad=True`, or call `.requires_grad_()` after the move")
        self.report(
            src,
            f"requires_grad=True was set before `{call_name(src)}`, which returns a new non-leaf tensor; this tensor {why}, "
            f"but its .grad stays None; {instead}",
            fix=None if view else self._fix(src),
        )

    def _under_no_grad(self, node) -> bool:
        return any(isinstance(a, cst.With) and re.search(r"no_grad|inference_mode|set_grad_enabled", self.ctx.code(a.items[0]))
                   for a in self.ctx.ancestors(node))

    def _fix(self, src) -> RuleFix | None:
        if not isinstance(src, cst.Call) or not isinstance(src.func, cst.Attribute):
            return None
        inner = src.func.value
        if not isinstance(inner, cst.Call):
            return None
        kept = [a for a in inner.args if not (a.keyword is not None and a.keyword.value == "requires_grad")]
        if len(kept) == len(inner.args):
            return None
        if kept:
            kept[-1] = kept[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
        new_inner = inner.with_changes(args=kept)
        new = src.with_changes(func=src.func.with_changes(value=new_inner))
        text = cst.Module(body=[]).code_for_node(new) + ".requires_grad_()"
        return RuleFix("Enable gradients after the move", (NodeEdit(src, text),), Applicability.UNSAFE)


class LeafReboundByUpdate(Rule):
    code = "GL305"
    message = "`w = w - lr * w.grad` outside no_grad turns the leaf w into a graph node: its .grad is None next time"
    severity = Severity.ERROR
    docs = "https://pytorch.org/tutorials/beginner/pytorch_with_examples.html#pytorch-tensors-and-autograd"
    triggers = (".grad",)
    rationale = """
        A manual gradient step written as `w = w - lr * w.grad` (outside `torch.no_grad()`)
        does not update the parameter: it creates a new tensor computed from it, with a graph,
        and rebinds the name. `w` is no longer a leaf: on the next iteration `w.grad` is None
        (`TypeError: unsupported operand type(s)` or "grad can be implicitly created only for
        scalar outputs"), and the graph grows with every step. Written for the loop variable
        (`for p in model.parameters(): p = p - lr * p.grad`), with or without `no_grad`, it
        updates nothing at all: the new tensor is dropped at the next iteration.

        Instead: update in place without recording it:
        `with torch.no_grad(): w -= lr * w.grad`, then `w.grad.zero_()` (or use an optimizer).
    """
    invalid = [
        Invalid(
            """
            import torch
            X, y = torch.randn(100, 3), torch.randn(100, 1)
            w = torch.zeros(3, 1, requires_grad=True)
            for epoch in range(50):
                loss = ((X @ w - y) ** 2).mean()
                loss.backward()
                w = w - 0.1 * w.grad
            """,
            line=7,
        )
    ]
    valid = [
        """
        import torch
        X, y = torch.randn(100, 3), torch.randn(100, 1)
        w = torch.zeros(3, 1, requires_grad=True)
        for epoch in range(50):
            loss = ((X @ w - y) ** 2).mean()
            loss.backward()
            with torch.no_grad():
                w -= 0.1 * w.grad
            w.grad.zero_()
        """
    ]

    def on_assign(self, ev: AssignEvent) -> None:
        if ev.op is None and isinstance(ev.node, cst.Assign) and self._loop_variable_update(ev):
            return
        if ev.op is not None or ev.old is None or ev.ctx.grad != "on":
            return
        old = ev.old
        leaf_origins = {o for o in old.live if o.kind == "tensor" and o.leaf and o.certain}
        elem = old.get(F.ELEM)
        if elem is None and old.get(F.ITEMS):
            elem = old.get(F.ITEMS)[0]
        marks = old if elem is None else elem  # `params = [p - lr * p.grad for p in params]`
        if not leaf_origins or not (marks.get(F.RG) or marks.get(F.PARAM) or marks.get(F.LEAF)):
            return
        if not (leaf_origins & ev.value.live):
            return
        node = ev.node
        if not isinstance(node, cst.Assign):
            return
        if not _mentions_grad_of(node.value, None):
            return
        if self._leaf_again_in_loop(node, ev.name):
            return
        self.report(
            node,
            f"`{ev.name} = ...{ev.name}.grad...` outside torch.no_grad() rebinds `{ev.name}` to a new tensor computed from it: "
            f"it is no longer a leaf, so its .grad is None on the next iteration and the graph keeps growing; update in "
            f"place: `with torch.no_grad(): {ev.name} -= lr * {ev.name}.grad` (then `{ev.name}.grad.zero_()`)",
        )

    def _leaf_again_in_loop(self, node, name: str) -> bool:
        """A later statement of the same loop body makes `name` a leaf again before the next
        iteration reads its .grad (PGD: `x = x + a * x.grad.sign()`, then `x = clamp(...).detach()
        .requires_grad_(True)`): the step that rebound it was an ordinary computation."""
        loop = next((a for a in self.ctx.ancestors(node) if isinstance(a, (cst.For, cst.While))), None)
        if loop is None:
            return False
        holders = {id(a) for a in self.ctx.ancestors(node)}
        after = False
        for s in loop.body.body:
            if not after:
                after = id(s) in holders  # the loop's statement that holds the update
                continue
            for n in walk(s, code_only=True):
                if isinstance(n, cst.Assign) and any(dotted_name(t.target) == name for t in n.targets) \
                        and _MAKES_LEAF.search(self.ctx.code(n.value)):
                    return True
                if isinstance(n, cst.Call) and callee_last(n) in ("requires_grad_", "detach_") and isinstance(n.func, cst.Attribute) \
                        and dotted_name(n.func.value) == name:
                    return True
        return False

    def _loop_variable_update(self, ev: AssignEvent) -> bool:
        """`for p in model.parameters(): p = p - lr * p.grad`: the loop variable is rebound and the
        new tensor dropped at the next iteration (with or without no_grad): no parameter changes.
        Not when the new value is used afterwards in the loop (collected into a new list)."""
        loop = next((a for a in self.ctx.ancestors(ev.node) if isinstance(a, (cst.For, cst.FunctionDef))), None)
        if not isinstance(loop, cst.For) or not isinstance(loop.target, cst.Name) or loop.target.value != ev.name:
            return False
        if not _mentions_grad_of(ev.node.value, ev.name):
            return False
        it = ev.old
        if it is None or not (it.get(F.PARAM) or it.get(F.RG) or any(o.kind == K.ORIGIN_MODULE and o.certain for o in it.live)
                              or "parameters()" in self.ctx.code(loop.iter)):
            return False
        after = False
        for n in walk(loop.body, lambda n: n is not ev.node, code_only=True):  # (not into the assignment itself)
            if n is ev.node:
                after = True
            elif after and isinstance(n, cst.Name) and n.value == ev.name:
                return False  # the new value is used (appended, assigned back through setattr, returned)
        self.report(
            ev.node,
            f"rebinding the loop variable `{ev.name}` does not change the parameter it named: the new tensor is dropped at "
            f"the next iteration and no parameter is updated; update in place: `with torch.no_grad(): "
            f"{ev.name} -= lr * {ev.name}.grad` (or use an optimizer)",
        )
        return True


def _mentions_grad_of(expr: cst.CSTNode, name: str | None) -> bool:
    """Does the expression read `name.grad` (any `.grad` when name is None)? A direct walk:
    libcst visitors are slow."""
    stack = [expr]
    while stack:
        node = stack.pop()
        if isinstance(node, (cst.ListComp, cst.GeneratorExp, cst.SetComp)):
            stack.append(node.elt)
            continue
        if isinstance(node, cst.Attribute):
            if node.attr.value == "grad" and (name is None or (isinstance(node.value, cst.Name) and node.value.value == name)):
                return True
            stack.append(node.value)
        elif isinstance(node, cst.BinaryOperation):
            stack += (node.left, node.right)
        elif isinstance(node, cst.UnaryOperation):
            stack.append(node.expression)
        elif isinstance(node, cst.Call):
            stack.append(node.func)
            stack.extend(a.value for a in node.args)
        elif isinstance(node, cst.Subscript):
            stack.append(node.value)
    return False


_MAKES_LEAF = re.compile(r"\.detach\(\s*\)|\.requires_grad_\(|\brequires_grad\s*=\s*True")


class InplaceOnSavedTensor(Rule):
    code = "GL306"
    message = "an in-place operation modifies a tensor that an earlier operation saved for backward"
    severity = Severity.ERROR
    docs = "https://pytorch.org/docs/stable/notes/autograd.html#in-place-operations-with-autograd"
    triggers = ("+=", "-=", "*=", "/=", "_(", "]")
    fix_applicability = Applicability.UNSAFE
    rationale = """
        Many operations keep their inputs for the backward pass (a convolution or linear layer
        keeps its input, `x * w` keeps both, BatchNorm keeps its input). Modifying such a tensor
        in place afterwards (`x += skip`, `x.relu_()`, `x[:, 0] = 0`) makes `backward()` raise
        "one of the variables needed for gradient computation has been modified by an inplace
        operation" — or, through `.data`, silently compute wrong gradients.

        Activations and dropout built or called with `inplace=True` (`nn.ReLU(True)`,
        `F.relu(h, inplace=True)`, `nn.Dropout(p, inplace=True)`) are in-place operations on
        their input too: on a sigmoid/tanh/exp output, on a tensor another layer took as input,
        or on an in-place ReLU's own output (which its backward keeps) they fail the same way —
        also as consecutive layers of an `nn.Sequential` (`nn.ReLU(), nn.Dropout(p,
        inplace=True)`), reported where the in-place layer is built. Code under `if
        torch.jit.is_tracing():` (or is_scripting, ONNX export) runs only while exporting and is
        not reported.

        A view shares its base's version counter, and so does `.detach()`: an operation given
        `v.permute(0, 2, 1)` or `x[:, 0]` keeps `v` or `x`, and `c = out.detach(); c.zero_()`
        changes the sigmoid output `out` (a product keeps an operand only when the other one
        needs a gradient). A function given to `torch.autograd.functional.jacobian`/`hessian`/
        `vjp` is judged as called on leaves that require grad, which is what they pass it.

        Instead: write it out of place, `x = x + skip`, or pass `inplace=False`. (In-place ops
        on a tensor nobody saved — ResNet's `out += identity` or `nn.ReLU(inplace=True)` on a
        BatchNorm output — are fine and not flagged.)
    """
    invalid = [
        Invalid(
            """
            import torch
            import torch.nn as nn

            class TwoBranch(nn.Module):
                def __init__(self):
                    super().__init__()
                    self.conv1 = nn.Conv2d(3, 16, 3, padding=1)
                    self.conv1_p = nn.Conv2d(16, 16, 3, padding=1)
                    self.skip = nn.Conv2d(3, 16, 1)

                def forward(self, inp):
                    x = self.conv1(inp)
                    x_p = self.conv1_p(x)
                    x += self.skip(inp)
                    return x.mean() + x_p.mean()

            TwoBranch()(torch.randn(2, 3, 8, 8)).backward()
            """,
            line=14,
            fixed="""
            import torch
            import torch.nn as nn

            class TwoBranch(nn.Module):
                def __init__(self):
                    super().__init__()
                    self.conv1 = nn.Conv2d(3, 16, 3, padding=1)
                    self.conv1_p = nn.Conv2d(16, 16, 3, padding=1)
                    self.skip = nn.Conv2d(3, 16, 1)

                def forward(self, inp):
                    x = self.conv1(inp)
                    x_p = self.conv1_p(x)
                    x = x + self.skip(inp)
                    return x.mean() + x_p.mean()

            TwoBranch()(torch.randn(2, 3, 8, 8)).backward()
            """,
        ),
        Invalid(  # a ViT decoder adds its position embedding into its input, which two decoders share
            """
            import torch
            import torch.nn as nn

            class Decoder(nn.Module):
                def __init__(self):
                    super().__init__()
                    self.pos = nn.Parameter(torch.randn(1, 16, 8))
                    self.proj = nn.Linear(8, 4)

                def forward(self, token):
                    x = token
                    x += self.pos
                    return self.proj(x)

            encoder = nn.Linear(4, 8)
            quant = encoder(torch.randn(2, 16, 4)) * 2
            rec_a, rec_b = Decoder()(quant), Decoder()(quant)
            (rec_a.sum() + rec_b.sum()).backward()
            """,
            line=12,
        ),
    ]
    valid = [
        """
        import torch
        import torch.nn as nn

        class Decoder(nn.Module):
            def __init__(self):
                super().__init__()
                self.pos = nn.Parameter(torch.randn(1, 16, 8))
                self.proj = nn.Linear(8, 4)

            def forward(self, token):
                x = token + self.pos
                return self.proj(x)

        encoder = nn.Linear(4, 8)
        quant = encoder(torch.randn(2, 16, 4)) * 2
        rec_a, rec_b = Decoder()(quant), Decoder()(quant)
        (rec_a.sum() + rec_b.sum()).backward()
        """,
        """
        import torch
        import torch.nn as nn

        class Block(nn.Module):
            def __init__(self, c):
                super().__init__()
                self.conv = nn.Conv2d(c, c, 3, padding=1, bias=False)
                self.bn = nn.BatchNorm2d(c)

            def forward(self, x):
                identity = x
                out = self.bn(self.conv(x))
                out += identity
                return torch.relu(out)

        Block(8)(torch.randn(2, 8, 4, 4)).mean().backward()
        """
    ]

    def on_inplace(self, ev: InplaceEvent) -> None:
        if ev.via_data or ev.saved_by is None or ev.ctx.grad != "on":
            return
        t = _shares_version_with(ev.target, ev.saved_by)
        if t is None or not certainly_computed(t) or not _known_torch(t) or not any(o.certain for o in t.live):
            return
        saver = ev.saved_by
        what = f"`{call_name(saver)}`" if isinstance(saver, cst.Call) else "an earlier operation"
        if ev.target_node is None and ev.name is None and ev.how == "inplace":
            # a layer of an nn.Sequential working in place on the previous layer's output
            self.report(
                ev.node,
                lambda line, what=what, saver=saver: (
                    f"this layer works in place on its input, the output of {what} (line {line(saver)}), which {what} "
                    f"keeps for its backward: backward() raises \"one of the variables needed for gradient computation has "
                    f"been modified by an inplace operation\"; pass `inplace=False`"
                ),
            )
            return
        name = ev.name or (self.ctx.code(ev.target_node) if ev.target_node is not None else None) or "this tensor"
        # an activation or dropout working in place (`nn.ReLU(inplace=True)(h)`) is mended by
        # asking it not to; anything else by writing the update out of place
        if ev.how == "inplace" or ev.how.startswith("torch."):
            remedy = "pass `inplace=False`"
        elif ev.how == "[]=":  # a slice store (a sequence filled step by step)
            remedy = (f"write into a copy (`{name} = {name}.clone()` before the store) or build the result out of place "
                      f"(`torch.where(...)`, or the pieces in a list and `torch.stack`)")
        else:
            remedy = f"write it out of place (`{name} = {name} + ...`)"
        if t is not ev.target:  # `c = out.detach()`, then `c.zero_()`
            self.report(ev.node, lambda line, what=what, saver=saver, name=name: (
                f"`{name}` is a `.detach()` of a tensor {what} (line {line(saver)}) saved for the backward pass; it shares "
                f"that tensor's storage and version counter, so changing it in place makes backward() raise \"one of the "
                f"variables needed for gradient computation has been modified by an inplace operation\"; detach a copy "
                f"(`.detach().clone()`) or write it out of place"))
            return
        self.report(
            ev.node,
            lambda line, what=what, saver=saver, name=name, remedy=remedy: (
                f"`{name}` is modified in place after {what} (line {line(saver)}) saved it for the backward pass"
                f"{' (in an earlier call or iteration)' if line(saver) > line(ev.node) else ''}: backward() "
                f"raises \"one of the variables needed for gradient computation has been modified by an inplace operation\"; "
                f"{remedy}"
            ),
            fix=self._fix(ev),
        )

    def _fix(self, ev: InplaceEvent) -> RuleFix | None:
        node = ev.node
        if isinstance(node, cst.AugAssign) and isinstance(node.target, cst.Name):
            op = self.ctx.code(node.operator).strip().rstrip("=").strip()
            target = node.target.value
            value = self.ctx.code(node.value)
            return RuleFix("Write it out of place", (NodeEdit(node, f"{target} = {target} {op} {value}"),), Applicability.UNSAFE)
        return None


class DataMutationOfGraphTensor(Rule):
    code = "GL307"
    message = ".data of a tensor with autograd history is modified: autograd does not see it and gradients are silently wrong"
    severity = Severity.ERROR
    docs = "https://pytorch.org/blog/pytorch-0_4_0-migration-guide/#what-about-data"
    triggers = (".data",)
    rationale = """
        `x.data` shares storage with `x` but bypasses autograd's version checks. Changing it
        (`gate.data.clamp_(0.05, 0.95)`, `h.data[mask] = 0`, `x.data = ...`) after `x` was
        computed and used changes the values saved for the backward pass without any error:
        gradients are silently wrong (computed at the modified values, or ignoring the change).

        Initialising or clipping *parameters* through `.data` (leaves, before or between
        steps) is the old idiom and is not flagged. Instead: for activations, compute the
        modified value out of place (`gate = gate.clamp(0.05, 0.95)`), which autograd
        differentiates; for deliberate constant edits use `torch.no_grad()` on a leaf.
    """
    invalid = [
        Invalid(
            """
            import torch
            layer = torch.nn.Linear(4, 3)
            gate = torch.sigmoid(layer(torch.randn(5, 4)))
            gate.data.clamp_(min=0.05, max=0.95)
            loss = (gate * torch.randn(5, 3)).sum()
            loss.backward()
            """,
            line=4,
        )
    ]
    valid = [
        """
        import torch
        import torch.nn as nn
        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(16, 10)
                with torch.no_grad():
                    self.fc.weight.data.normal_(0, 0.01)
                    self.fc.bias.data.zero_()
        critic = nn.Linear(2, 1)
        for p in critic.parameters():
            p.data.clamp_(-0.01, 0.01)
        """
    ]

    def on_inplace(self, ev: InplaceEvent) -> None:
        if not ev.via_data:
            return
        t = ev.target
        if t is None or not t.live or not t.graphs or t.get(F.LEAF) or t.get(F.PARAM) or t.kind != "tensor":
            return
        if not any(o.certain and o.framework == "torch" for o in t.live):
            return
        name = ev.name.split(".")[0] if ev.name else "this tensor"
        self.report(
            ev.node,
            f"`{name}.data` is modified although `{name}` was computed with autograd history: autograd does not see the change, "
            f"so the backward pass uses stale or modified values and gradients are silently wrong; compute the new value "
            f"out of place (e.g. `{name} = {name}.clamp(...)`)",
        )


# functions that run with autograd on whoever calls them: a module's constructor (and what it
# calls), its forward pass, a Lightning training step
_GRAD_ON_ENTRIES = frozenset({"__init__", "forward", "__call__", "training_step", "build", "call", "setup", "__post_init__"})


class InplaceOnLeaf(Rule):
    code = "GL308"
    message = "in-place operation on a leaf tensor that requires grad, outside torch.no_grad(): RuntimeError"
    severity = Severity.ERROR
    docs = "https://pytorch.org/docs/stable/notes/autograd.html#in-place-operations-with-autograd"
    triggers = ("requires_grad", "Parameter", "parameters")
    rationale = """
        A leaf tensor that requires grad (a parameter, or a tensor created with
        `requires_grad=True`) cannot be modified in place while autograd is recording:
        `w -= lr * w.grad`, `w.add_(...)`, `w[0] = 0` raise "a leaf Variable that requires grad
        is being used in an in-place operation" — at once, no backward needed, which is why
        initialisation code that writes into a layer's weight or bias (directly, through a name
        for it, or through a view: `b = conv.bias.view(3, -1); b[:, 4] += prior`) fails when
        the model is built. A slice of such a leaf (`bar = foo[10:, 10:]`, `row = w[0]`) is a
        view of it: `bar *= 10` raises "a view of a leaf Variable..." (a computed index copies
        and is not reported). A helper that nothing in the file calls and that differentiates
        nothing (`convert_model(model)` copying weights into new layers) is not reported: its
        callers decide the grad mode, and library code calls such helpers under `no_grad`. A
        module's `__init__` (and what it calls) and its `forward` run with autograd on whoever
        calls them.

        Instead: do manual updates under `with torch.no_grad():` (or inside an optimizer's
        `step()`, which is decorated with it).
    """
    invalid = [
        Invalid(
            """
            import torch
            w = torch.zeros(3, requires_grad=True)
            (w * 2).sum().backward()
            w -= 0.1 * w.grad
            """,
            line=4,
        )
    ]
    valid = [
        """
        import torch
        w = torch.zeros(3, requires_grad=True)
        (w * 2).sum().backward()
        with torch.no_grad():
            w -= 0.1 * w.grad
        w.grad.zero_()
        """
    ]

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        self._differentiating: set = set()  # runs that differentiated before (a manual update follows)

    def on_diff(self, ev: DiffEvent) -> None:
        self._differentiating.add(ev.ctx.run)

    def on_inplace(self, ev: InplaceEvent) -> None:
        if ev.via_data or ev.ctx.grad != "on":
            return
        entry = ev.ctx.entry
        if entry is not None and entry.name not in _GRAD_ON_ENTRIES and ev.ctx.run not in self._differentiating:
            # a helper run on its own that differentiates nothing (`convert_model(model)` copying
            # weights into new layers): its callers, and their grad mode, are not in the file;
            # library code calls such helpers under torch.no_grad()
            return
        t = ev.target
        view = t is not None and bool(t.get(F.LEAF_VIEW))
        if t is None or t.graphs or not view and (not (t.get(F.RG) or t.get(F.PARAM)) or not t.get(F.LEAF)):
            return
        if t.get(F.FW) not in (None, "torch") or any(o.framework != "torch" for o in t.live):
            return  # tf.Variable.assign / JAX are not autograd leaves
        if t.get(F.GRAD_OF) is not None or ev.ctx.fn is not None and ev.ctx.fn.grad == "off":
            return
        if not any(o.certain and o.leaf and not o.frozen for o in t.live):
            return  # (frozen: `requires_grad_(False)` on it or its module, yolov5's fused conv)
        what = "a view of a leaf tensor that requires grad (a parameter)" if view else "a leaf tensor that requires grad"
        self.report(
            ev.node,
            f"in-place update of {what} while autograd is recording: this raises \"a {'view of a ' if view else ''}leaf "
            "Variable that requires grad is being used in an in-place operation\"; do it inside `with torch.no_grad():` "
            "(or on `.data`)",
        )


class GradOfNonLeaf(Rule):
    code = "GL309"
    message = ".grad is read on a non-leaf tensor that does not retain_grad(): it is None"
    severity = Severity.WARNING
    docs = "https://pytorch.org/docs/stable/generated/torch.Tensor.retain_grad.html"
    triggers = (".grad",)
    rationale = """
        Only leaf tensors (parameters, tensors created with `requires_grad=True`) get `.grad`
        filled by `backward()`. An intermediate result — `h = model.encoder(x)`, `y = x * 2` —
        has `.grad` None unless `h.retain_grad()` was called before the backward pass;
        PyTorch only warns.

        This includes a tensor made with `requires_grad=True` and then moved or cast
        (`torch.randn(3, requires_grad=True).cuda()`): GL304 reports that line with its fix,
        and this rule the first read of the None, where PyTorch itself warns.

        Instead: call `h.retain_grad()` before `backward()`, or get the gradient directly with
        `torch.autograd.grad(loss, h)`.
    """
    invalid = [
        Invalid(
            """
            import torch
            x = torch.randn(4, requires_grad=True)
            h = torch.tanh(x * 3)
            h.sum().backward()
            print(h.grad)
            """,
            line=5,
        )
    ]
    valid = [
        """
        import torch
        x = torch.randn(4, requires_grad=True)
        h = torch.tanh(x * 3)
        h.retain_grad()
        h.sum().backward()
        print(h.grad, x.grad)
        """
    ]

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        self._read_from: set[int] = set()  # the moves/casts whose non-leaf result had its .grad read

    def on_use(self, ev: UseEvent) -> None:
        if ev.name != "grad":
            return
        v = ev.value
        if v.get(F.RETAINS_GRAD):
            return
        node = ev.node
        src = v.get(F.NONLEAF_FROM)
        if src is not None and not isinstance(src, cst.Call):
            return  # `w = w - lr * w.grad` outside no_grad: GL305's finding, on that line
        if src is not None:
            if id(src) in self._read_from:
                return  # the first read of each such tensor says it
            self._read_from.add(id(src))
            # a leaf moved/cast after requires_grad was set (GL304 reports that line, with its
            # fix): here, where the None is read, say where the non-leaf came from, as
            # PyTorch's own warning does at this read
            name = self.ctx.code(node.value) if isinstance(node, cst.Attribute) else "this tensor"
            self.report(
                node,
                lambda line: (
                    f"`{name}` is the non-leaf result of `{call_name(src)}` on line {line(src)}, applied after requires_grad "
                    f"was set: its .grad is None after backward(); read the .grad of the leaf (or make the tensor where it "
                    f"lives with `requires_grad=True`)"
                ),
            )
            return
        if not proven_non_leaf(v):
            return
        self.report(
            node,
            f"`{self.ctx.code(node.value) if isinstance(node, cst.Attribute) else 'this tensor'}` is the result of an operation "
            f"(not a leaf), so its .grad is None after backward(); call `.retain_grad()` on it before backward(), or use "
            f"`torch.autograd.grad(loss, tensor)`",
        )


class RequiresGradFlagOfNonLeaf(Rule):
    code = "GL310"
    name = "requires-grad-flag-of-non-leaf"
    message = "requires_grad is changed on a tensor computed from ones that require grad: RuntimeError, only a leaf's flag can change"
    severity = Severity.ERROR
    docs = "https://pytorch.org/docs/stable/generated/torch.Tensor.is_leaf.html"
    triggers = ("requires_grad",)
    call_names = frozenset({"requires_grad_"})
    rationale = """
        Only a leaf tensor's `requires_grad` flag can be set. A tensor computed from others that
        require grad (`h = model(x)`, `x_adv = images + delta`, a slice written from such a
        tensor) is a node of their graph: `h.requires_grad = True` (or `= False`, or
        `h.requires_grad_(False)`) raises "you can only change requires_grad flags of leaf
        variables" — typically meant as "start a new leaf here" (adversarial examples,
        optimising an input) or as "stop the gradient here".

        Instead: `h = h.detach().requires_grad_()` for a new leaf with the same values, or
        `h.detach()` to stop the gradient. (`requires_grad_()` / `requires_grad_(True)` on such
        a tensor is a no-op and allowed.)
    """
    invalid = [
        Invalid(
            """
            import torch
            model = torch.nn.Linear(8, 8)
            h = model(torch.randn(4, 8))
            h.requires_grad = True
            h.sum().backward()
            """,
            line=4,
        ),
    ]
    valid = [
        """
        import torch
        model = torch.nn.Linear(8, 8)
        h = model(torch.randn(4, 8)).detach()
        h.requires_grad = True
        with torch.no_grad():
            g = model(torch.randn(4, 8))
        g.requires_grad = True
        out = model(torch.randn(4, 8)).requires_grad_()
        (out.sum() + (h * g).sum()).backward()
        """,
    ]

    def on_attrset(self, ev) -> None:
        if ev.attr == "requires_grad" and proven_non_leaf(ev.target):
            self._report(ev.node, ev.target_name)

    def on_call(self, ev: CallEvent) -> None:
        if ev.method != "requires_grad_" or ev.recv is None or not proven_non_leaf(ev.recv):
            return
        flag = ev.arg(0, "requires_grad")
        if flag is not None and flag.get(F.CONST) is False:
            f = ev.node.func
            self._report(ev.node, dotted_name(f.value) if isinstance(f, cst.Attribute) else None)

    def _report(self, node, name) -> None:
        what = f"`{name}`" if name else "this tensor"
        self.report(
            node,
            f"{what} is computed from tensors that require grad (it is not a leaf): changing its requires_grad raises "
            f"\"RuntimeError: you can only change requires_grad flags of leaf variables\"; for a new leaf with the same values "
            f"use `{name or 'x'} = {name or 'x'}.detach().requires_grad_()`, to stop the gradient use `.detach()`",
        )


class OutArgumentUnderAutograd(Rule):
    code = "GL311"
    message = "a torch function is given `out=` while an argument requires grad and grad mode is on: RuntimeError"
    severity = Severity.ERROR
    docs = "https://pytorch.org/docs/stable/notes/autograd.html#in-place-operations-with-autograd"
    triggers = ("out=",)
    chunk_triggers = (r",\s*out\s*=(?!=)",)  # a keyword argument `out=`, in code that need not differentiate
    rationale = """
        A torch function that writes its result into a given tensor (`torch.add(a, b, out=c)`,
        `torch.cat(xs, out=buf)`, `torch.matmul(q, k, out=scores)`) is not differentiable:
        when grad mode is on and any argument, the `out=` tensor included, requires grad, it
        raises "functions with out=... arguments don't support automatic differentiation, but
        one of the arguments requires grad" — at once, no backward needed. It is typically
        written to save an allocation in a forward pass or to update a parameter in place
        (`torch.add(w, 1, out=w)`).

        Instead: drop `out=` and assign the result (`c = torch.add(a, b)`), which autograd
        records; or, for an update that must not be recorded, do it inside
        `with torch.no_grad():`.
    """
    invalid = [
        Invalid(
            """
            import torch
            w = torch.randn(4, 3, requires_grad=True)
            buf = torch.empty(4, 3)
            torch.mul(w, 2.0, out=buf)
            buf.sum().backward()
            """,
            line=4,
        ),
    ]
    valid = [
        """
        import torch
        w = torch.randn(4, 3, requires_grad=True)
        buf = torch.mul(w, 2.0)
        buf.sum().backward()
        with torch.no_grad():
            torch.add(w, -0.1 * w.grad, out=w)
        x = torch.randn(4, 3)
        torch.mul(x, 2.0, out=torch.empty(4, 3))
        """,
    ]

    def on_call(self, ev: CallEvent) -> None:
        out = ev.kwargs.get("out")
        if out is None or not (ev.qual or "").startswith("torch.") or ev.ctx.grad != "on":
            return
        if ev.ctx.fn is not None and ev.ctx.fn.grad == "off":
            return
        vals = [*ev.args, *ev.kwargs.values()]
        if not any(certainly_requires_grad(v) for v in vals if v is not None):
            return
        fn = ev.qual.rsplit(".", 1)[-1]
        self.report(
            ev.node,
            f"`{ev.qual}(..., out=...)` while an argument requires grad: this raises \"{fn}(): functions with out=... "
            "arguments don't support automatic differentiation, but one of the arguments requires grad\"; assign the result "
            "instead of passing `out=` (autograd records it), or do the update inside `with torch.no_grad():`",
        )


def _integer_dtype(v: Val | None) -> str | None:
    """"an integer" / "a boolean" when `v` is a torch tensor whose dtype is known to be one."""
    if v is None or v.kind not in (K.TENSOR, None) or v.get(F.FW) not in (None, "torch"):
        return None
    made = v.get(F.CREATED)
    if made is None or v.graphs:
        return None  # only as made by a factory: arithmetic may promote it (`torch.arange(4) / 2` is float)
    if isinstance(made, cst.Call) and callee_last(made) in ("tensor", "as_tensor") and not any(
            a.keyword is not None and a.keyword.value == "dtype" for a in made.args) and not (
            made.args and isinstance(made.args[0].value, (cst.List, cst.Tuple, cst.Integer, cst.UnaryOperation))):
        return None  # data copied from another value (`torch.tensor(mask.type(x.dtype))`): its dtype is not known here
    return {"int": "an integer", "bool": "a boolean"}.get(v.get(F.DTYPE) or "")


class IntegerTensorRequiresGrad(Rule):
    code = "GL312"
    message = "a tensor with an integer or boolean dtype is made to require grad: RuntimeError, only floating point and complex tensors can"
    severity = Severity.ERROR
    docs = "https://pytorch.org/docs/stable/notes/autograd.html#requires-grad"
    triggers = ("requires_grad", "Parameter")
    call_names = None
    rationale = """
        Gradients exist only for floating point (and complex) tensors. `torch.tensor([1, 2, 3],
        requires_grad=True)` (a list of Python ints makes an int64 tensor),
        `torch.arange(10, requires_grad=True)`, `torch.randint(...)`, a tensor made with
        `dtype=torch.long`, `x.long().requires_grad_()` and `nn.Parameter(torch.tensor([0, 1]))`
        raise "Only Tensors of floating point and complex dtype can require gradients" — at
        once, no backward needed. It is typically meant as a float tensor whose values happen
        to be whole numbers.

        Instead: write float literals (`torch.tensor([1., 2., 3.], requires_grad=True)`) or
        give `dtype=torch.float32`; cast before asking for gradients
        (`x.float().requires_grad_()`). Indices and labels never need gradients.
    """
    invalid = [
        Invalid(
            """
            import torch
            w = torch.tensor([1, 2, 3], requires_grad=True)
            loss = (w * torch.randn(3)).sum()
            loss.backward()
            """,
            line=2,
        ),
    ]
    valid = [
        """
        import torch
        w = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
        idx = torch.arange(3)
        b = torch.zeros(3, dtype=torch.long).float().requires_grad_()
        loss = (w[idx] * b).sum()
        loss.backward()
        """,
    ]

    def on_call(self, ev: CallEvent) -> None:
        flag = ev.kwargs.get("requires_grad")
        if ev.method == "requires_grad_":
            on = ev.arg(0, "requires_grad")
            if on is None or on.get(F.CONST) is True:
                self._check(ev.node, ev.recv, "`.requires_grad_()`")
        elif ev.qual in ("torch.nn.Parameter", "torch.nn.parameter.Parameter"):
            if flag is None or flag.get(F.CONST) is not False:
                self._check(ev.node, ev.arg(0, "data"), "`nn.Parameter(...)`")
        elif flag is not None and flag.get(F.CONST) is True and (ev.qual or "").startswith("torch.") and ev.result.get(F.CREATED) is ev.node:
            self._check(ev.node, ev.result, "`requires_grad=True`")

    def on_attrset(self, ev) -> None:
        if ev.attr == "requires_grad" and ev.value.get(F.CONST) is True:
            self._check(ev.node, ev.target, "`.requires_grad = True`")

    def _check(self, node, v: Val | None, how: str) -> None:
        what = _integer_dtype(v)
        if what is None:
            return
        self.report(
            node,
            f"{how} on {what} tensor: only floating point and complex tensors can require gradients, and this raises "
            f"\"Only Tensors of floating point and complex dtype can require gradients\"; use float values or "
            f"`dtype=torch.float32` (cast with `.float()` first)",
        )

