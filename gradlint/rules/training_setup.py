"""GL7xx training setup: parameters the optimizer never sees, and gradient bookkeeping in the
wrong order (clipping or clearing where it has no effect or discards gradients).

Each rule is one class with its specification (rationale, flagged and correct examples); the
logic of each is a few dozen lines over the analysis' events (stores on `self`, module
constructions, OptEvent's previous gradient event).

Why this module is long: it is a catalogue of rules, one class each, and a rule class is its own
specification (rationale, flagged and correct examples); the logic of each is a few dozen lines
plus the helpers they share. Adding a rule adds a class here (see docs/architecture.md).
"""

from __future__ import annotations

import re

import libcst as cst

from ..analysis import facts as F
from ..analysis import kinds as K
from ..analysis.events import CallEvent, DiffEvent, OptEvent, StoreEvent
from ..analysis.frameworks.lightning import LIGHTNING_BASES
from ..analysis.frameworks.torch import TRAINABLE_MODULES
from ..analysis.queries import module_origins
from ..analysis.values import Val
from ..analysis.walk import callee_last, parent_map, walk
from ..diagnostics import Severity
from ._flow import NO_GRAD as NO_GRAD_KINDS, origin_name, shortened, starved, takes_remainder
from .base import Family, Invalid, Rule

FAMILY = Family("GL7", "training setup")


def _within(ctx, node, stmt) -> bool:
    """`node` is `stmt` or inside it."""
    return node is stmt or any(a is stmt for a in ctx.ancestors(node))


def _guarded(ctx, node, loop) -> bool:
    """`node` runs under an `if` written inside the loop (or inside the helper it is in)."""
    for a in ctx.ancestors(node):
        if a is loop or isinstance(a, (cst.FunctionDef, cst.Lambda)):
            return False
        if isinstance(a, (cst.If, cst.IfExp)):
            return True
    return False


def _made_for(ctx, created, stmt) -> bool:
    """The module was created for the container `stmt` fills: inside the statement, or inside a
    helper the statement calls (`self.features = self._make_layers(cfg)`, VGG's helper that
    returns the plain list it built)."""
    if _within(ctx, created, stmt):
        return True
    fn = next((a for a in ctx.ancestors(created) if isinstance(a, cst.FunctionDef)), None)
    if fn is None:
        return False
    if any(isinstance(n, cst.Call) and callee_last(n) == fn.name.value for n in walk(stmt)):
        return True
    # `layers = []; layers.append(nn.Linear(...)); self.heads = layers` in one function, the
    # local list not wrapped in a container module there (`nn.Sequential(*layers)`)
    value = getattr(stmt, "value", None)
    if not isinstance(value, cst.Name) or not any(a is fn for a in ctx.ancestors(stmt)):
        return False
    wrapped = r"\b(ModuleList|ModuleDict|Sequential|ParameterList|ParameterDict)\s*\(\s*\*?\s*" + re.escape(value.value) + r"\b"
    return re.search(wrapped, ctx.code(fn)) is None


def _trainable_class(v) -> str | None:
    """The class name of a module value that owns parameters: a torch.nn layer that has them by
    default, or an nn.Module subclass of the file. None: not a module, or parameterless
    (`nn.ReLU()`), or unknown."""
    if v is None or v.kind != "module":
        return None
    q = v.get(F.QUAL_NEW) or ""
    if q.startswith("torch.nn.") and q.rsplit(".", 1)[-1] in TRAINABLE_MODULES:
        return q.rsplit(".", 1)[-1]
    cls = v.get(F.CLS)
    if cls is not None and getattr(cls, "is_torch_module", False) and v.get(F.CREATED) is not None:
        return cls.name
    return None


def _trains_itself(v) -> bool:
    """A module of the file's class that builds an optimizer over its own parameters (a
    forward-forward layer, `self.opt = Adam(self.parameters())`): it is trained where it is,
    whoever holds it."""
    fields = v.get(F.FIELDS) if v is not None else None
    return bool(fields) and any(f is not None and f.kind == "optimizer" for f in fields.values())


def _new_parameter(v) -> bool:
    """`nn.Parameter(...)` made here (a list of them is as unregistered as a list of layers)."""
    return v is not None and v.kind == "tensor" and v.get(F.PARAM) is True and v.get(F.CREATED) is not None


def _modules_in(v, depth: int = 0):
    """Trainable module values inside a container value (list/tuple items, a comprehension's
    element, dict values), nested containers included."""
    if v is None or depth > 3:
        return
    if _trainable_class(v) or _new_parameter(v):
        yield v
        return
    for item in v.get(F.ITEMS) or ():
        yield from _modules_in(item, depth + 1)
    yield from _modules_in(v.get(F.ELEM), depth + 1)
    for item in (v.get(F.KEYS) or {}).values():
        yield from _modules_in(item, depth + 1)


def _line_of(line, node) -> str:
    return str(line(node))


class ModuleInPlainContainer(Rule):
    code = "GL701"
    message = ("layers (or nn.Parameters) kept in a plain list/dict attribute of an nn.Module are not registered: parameters() "
               "and the optimizer never see them")
    severity = Severity.WARNING
    docs = "https://pytorch.org/docs/stable/generated/torch.nn.ModuleList.html"
    triggers = ("[", "{")
    rationale = """
        `nn.Module` registers a submodule only when it is assigned directly to an attribute
        (`self.fc = nn.Linear(...)`) or held by `nn.ModuleList` / `nn.ModuleDict` /
        `nn.Sequential`. Layers created into a plain Python list or dict
        (`self.layers = [nn.Linear(...) for _ in range(n)]`, `self.hids = []` then
        `self.hids.append(nn.Linear(...))`, `self.heads = {"a": nn.Linear(...)}`) are invisible
        to `parameters()`, `state_dict()`, `.to(device)` and `.train()/.eval()`: the optimizer
        built from `model.parameters()` never updates them, they stay at their random
        initialisation, are not saved, and stay on the CPU. The same holds for parameters
        (`self.means = [nn.Parameter(torch.randn(d)) for _ in range(k)]`), and for blocks of
        the file's own module classes (`[ResBlock(d) for _ in range(n)]`). A model file
        that only defines the class is checked too: whoever trains it, they are lost. Not
        reported: Keras layers and flax modules (they track the layers in their list
        attributes), and blocks that build an optimizer over their own parameters (trained
        where they are, as in forward-forward training).

        Instead: `self.layers = nn.ModuleList([...])` (or `nn.ModuleDict({...})`,
        `nn.ParameterList` / `nn.ParameterDict` for parameters).
    """
    invalid = [
        Invalid(
            """
            import torch
            import torch.nn as nn

            class MLP(nn.Module):
                def __init__(self, n):
                    super().__init__()
                    self.blocks = [nn.Linear(8, 8) for _ in range(n)]
                    self.out = nn.Linear(8, 1)

                def forward(self, x):
                    for b in self.blocks:
                        x = torch.relu(b(x))
                    return self.out(x)

            model = MLP(3)
            opt = torch.optim.SGD(model.parameters(), lr=0.1)
            """,
            line=7,
        ),
        Invalid(
            """
            import torch
            from torch import nn

            class Heads(nn.Module):
                def __init__(self, tasks):
                    super().__init__()
                    self.heads = {}
                    for t in tasks:
                        self.heads[t] = nn.Linear(16, 2)

                def forward(self, x, t):
                    return self.heads[t](x)

            net = Heads(["a", "b"])
            opt = torch.optim.Adam(net.parameters())
            """,
            line=7,
        ),
    ]
    valid = [
        """
        import torch
        import torch.nn as nn

        class MLP(nn.Module):
            def __init__(self, n):
                super().__init__()
                self.blocks = nn.ModuleList([nn.Linear(8, 8) for _ in range(n)])
                self.a = nn.Linear(8, 8)
                self.order = [self.a]
                self.acts = [nn.ReLU(), nn.Tanh()]

            def forward(self, x):
                for b in self.blocks:
                    x = b(x)
                return x

        model = MLP(3)
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        """,
        """
        import torch
        import torch.nn as nn

        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                layers = []
                for i in range(3):
                    layers.append(nn.Linear(4, 4))
                self.body = nn.Sequential(*layers)
                self.extra = [nn.Linear(4, 4)]
                self.extra = nn.ModuleList(self.extra)

        opt = torch.optim.SGD(Net().parameters(), lr=0.1)
        """,
    ]

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        self._containers: dict[tuple, StoreEvent] = {}  # (class node id, attr) -> `self.attr = [...]`
        self._registered: set[int] = set()  # CREATED nodes of modules assigned directly to an attribute
        self._pending: list[tuple[tuple, StoreEvent, list]] = []

    @staticmethod
    def _module_class(ev):
        fn = ev.ctx.fn
        cls = getattr(fn, "cls", None) if fn is not None else None
        # a torch module: Keras layers and flax modules track the layers in their list attributes
        return cls if cls is not None and cls.is_torch_module else None

    def on_store(self, ev: StoreEvent) -> None:
        cls = self._module_class(ev)
        if cls is None:
            return
        if ev.kind == "attr" and ev.root == "self":
            if ev.value.kind == "module":
                created = ev.value.get(F.CREATED)
                if created is not None:
                    self._registered.add(id(created))
                return
            if ev.value.kind in ("list", "dict", "tuple"):
                key = (id(cls.node), ev.attr)
                self._containers.setdefault(key, ev)
                self._pending.append((key, ev, list(_modules_in(ev.value))))
            return
        if ev.kind in ("append", "item") and ev.root and ev.root.startswith("self.") and ev.root.count(".") == 1:
            key = (id(cls.node), ev.root.split(".", 1)[1])
            self._pending.append((key, ev, list(_modules_in(ev.value))))

    def finish(self) -> None:
        for key, ev, modules in self._pending:
            home = self._containers.get(key)
            if home is None or not modules:
                continue
            fresh = [m for m in modules if m.get(F.CREATED) is not None and id(m.get(F.CREATED)) not in self._registered
                     and _made_for(self.ctx, m.get(F.CREATED), ev.node)]
            if not fresh or any(_trains_itself(m) for m in fresh):
                continue
            attr = key[1]
            cls = self._module_class(home)
            if cls is None or self._registered_later(cls, attr):
                continue
            kind = "dict" if home.value.kind == "dict" else "list"
            params = _new_parameter(fresh[0])
            wrapper = ("nn.ParameterDict" if params else "nn.ModuleDict") if kind == "dict" else (
                "nn.ParameterList" if params else "nn.ModuleList")
            what = "`nn.Parameter`s" if params else f"`{_trainable_class(fresh[0])}` layers"
            self.report(
                home.node,
                f"`self.{attr}` is a plain Python {kind} holding {what}: nn.Module does not register them, so "
                f"`parameters()` (and any optimizer built from it), `state_dict()` and `.to(device)` never see them and "
                f"they stay at their random initialisation; use `{wrapper}(...)`",
                key=("GL701", key),
            )

    def _registered_later(self, cls, attr: str) -> bool:
        """The class wraps or registers the container itself somewhere (`nn.ModuleList(self.x)`,
        `add_module`, `setattr`): the layers are registered after all."""
        text = self.ctx.code(cls.node)
        if re.search(r"\b(add_module|register_module|setattr)\s*\(", text):
            return True
        return re.search(r"\b(ModuleList|ModuleDict|Sequential|ParameterList)\s*\(\s*\*?\s*self\." + re.escape(attr) + r"\b", text) is not None


class ModuleCreatedInForward(Rule):
    code = "GL702"
    message = "a layer with parameters is created inside forward(): it is new (random) on every call and no optimizer can train it"
    severity = Severity.WARNING
    docs = "https://pytorch.org/tutorials/beginner/examples_nn/two_layer_net_module.html"
    triggers = ("forward",)
    rationale = """
        `nn.Linear(...)`, `nn.Conv2d(...)` and other layers create their weights when they are
        constructed. Constructing one inside `forward()` (`h = nn.Linear(d, h)(x)`) makes fresh
        random weights on every call; they are not registered on the module, so
        `model.parameters()` does not contain them, the optimizer never updates them, and the
        model cannot learn (or, if the layer is the only one, the optimizer gets an empty
        parameter list).

        Instead: create the layer once in `__init__` (`self.fc = nn.Linear(d, h)`) and call it
        in `forward`; for a parameter-free operation use the functional form.
    """
    invalid = [
        Invalid(
            """
            import torch
            import torch.nn as nn

            class Net(nn.Module):
                def __init__(self, d):
                    super().__init__()
                    self.d = d

                def forward(self, x):
                    h = torch.relu(nn.Linear(self.d, 32)(x))
                    return h.mean()

            net = Net(8)
            net(torch.randn(4, 8)).backward()
            """,
            line=10,
        ),
    ]
    valid = [
        """
        import torch
        import torch.nn as nn

        class Net(nn.Module):
            def __init__(self, d):
                super().__init__()
                self.fc = nn.Linear(d, 32)
                self.proj = None

            def forward(self, x):
                if self.proj is None:
                    self.proj = nn.Linear(32, 1)
                h = nn.ReLU()(self.fc(x))
                return self.proj(h).mean()

        Net(8)(torch.randn(4, 8)).backward()
        """,
    ]

    def on_call(self, ev: CallEvent) -> None:
        fn = ev.ctx.fn
        if fn is None or fn.name != "forward" or fn.cls is None or not fn.cls.is_module:
            return
        if not (ev.qual or "").startswith("torch.nn.") or ev.result.kind != "module":
            return
        name = _trainable_class(ev.result)
        if name is None or name in ("Sequential", "ModuleList", "ModuleDict"):
            return
        if self._kept_on_self(ev.node) or re.search(r"\b(add_module|register_module|setattr)\s*\(", self.ctx.code(fn.node)):
            return
        self.report(
            ev.node,
            f"`nn.{name}(...)` is constructed inside forward(): its weights are new random values on every call and are "
            f"not registered on the module, so `parameters()` and the optimizer never see them; create it once in "
            f"`__init__` (`self.layer = nn.{name}(...)`) and call it here",
        )

    def _kept_on_self(self, node) -> bool:
        """`self.proj = nn.Linear(...)` (lazy initialisation): registered, created once; also
        through a name (`new = nn.Embedding(...)`, ..., `self.bias = new`)."""
        for a in self.ctx.ancestors(node):
            if isinstance(a, cst.Assign):
                if any(isinstance(t.target, cst.Attribute) for t in a.targets):
                    return True
                names = [t.target.value for t in a.targets if isinstance(t.target, cst.Name)]
                if names:
                    fn = next((f for f in self.ctx.ancestors(a) if isinstance(f, cst.FunctionDef)), None)
                    code = self.ctx.code(fn) if fn is not None else ""
                    return any(re.search(rf"\bself\.\w+\s*=\s*{re.escape(n)}\b", code) for n in names)
                return False
            if isinstance(a, (cst.SimpleStatementLine, cst.FunctionDef)):
                return False
        return False


def _receiver(ctx, node) -> str | None:
    """`optimizer` of `optimizer.step()`: in one loop, the same text names the same optimizer
    (GL703 and GL704 pair a step with a clear this way when the optimizer is a parameter)."""
    f = node.func if isinstance(node, cst.Call) else None
    return ctx.code(f.value) if isinstance(f, cst.Attribute) else None


def _origins(v) -> frozenset:
    """The certain parameter origins an optimizer/params/module value stands for."""
    if v is None:
        return frozenset()
    return frozenset(o for o in (set(v.get(F.OPT_PARAMS) or ()) | set(v.live)) if getattr(o, "certain", False))


# gradient clipping, by the callee's last name: torch's and accelerate's functions and methods
_CLIPPERS = frozenset({"clip_grad_norm_", "clip_grad_value_", "clip_grad_norm", "clip_grads_with_norm_"})


class GradClipMisplaced(Rule):
    code = "GL703"
    message = "gradient clipping runs after step() or on cleared gradients: it has no effect on the update"
    severity = Severity.WARNING
    docs = "https://pytorch.org/docs/stable/generated/torch.nn.utils.clip_grad_norm_.html"
    triggers = ("clip_grad",)
    rationale = """
        `clip_grad_norm_` / `clip_grad_value_` rescale the gradients that are in `.grad` *now*.
        The update uses them at `optimizer.step()`, so the only place where clipping does
        anything is between `backward()` and `step()`. Clipping after `step()` changes
        gradients that were already applied (and are cleared before the next use); clipping
        right after `zero_grad()` (before `backward()`) clips nothing — the new gradients
        reach the step unclipped. Either way `max_grad_norm` is silently ignored and training
        can diverge on the exploding gradients it was meant to bound.

        The same holds for a LightningModule's `training_step` under automatic optimization:
        Lightning runs `backward()` after `training_step` returns, so a clip inside it sees the
        previous step's gradients (or None), which Lightning clears before the new backward.

        Instead: `loss.backward()` → `clip_grad_norm_(model.parameters(), max_norm)` →
        `optimizer.step()` (with AMP, `scaler.unscale_(optimizer)` before clipping). In
        Lightning: `Trainer(gradient_clip_val=...)`, or clip in `configure_gradient_clipping` /
        `on_before_optimizer_step`.
    """
    invalid = [
        Invalid(
            """
            import torch
            model = torch.nn.Linear(16, 4)
            opt = torch.optim.SGD(model.parameters(), lr=0.1)
            for x in torch.randn(10, 2, 16):
                opt.zero_grad()
                model(x).pow(2).mean().backward()
                opt.step()
                torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            """,
            line=8,
        ),
        Invalid(
            """
            import torch
            from torch.nn.utils import clip_grad_value_
            model = torch.nn.Linear(16, 4)
            opt = torch.optim.Adam(model.parameters())
            for x in torch.randn(10, 2, 16):
                opt.zero_grad()
                clip_grad_value_(model.parameters(), 0.5)
                model(x).pow(2).mean().backward()
                opt.step()
            """,
            line=7,
        ),
    ]
    valid = [
        """
        import torch
        model = torch.nn.Linear(16, 4)
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        for x in torch.randn(10, 2, 16):
            opt.zero_grad()
            model(x).pow(2).mean().backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
        """,
    ]

    # torch's and accelerate's clipping functions, a file's own copy of them, Lightning's own method
    _CLIP_NAMES = _CLIPPERS | {"clip_gradients"}

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        self._events: dict[tuple, OptEvent] = {}  # (run, id(node)) -> the step/zero_grad event
        self._order: list = []  # every gradient event (opt and diff), in program order
        self._first_clips: list[OptEvent] = []  # clips with no gradient event before them in their run
        self._unknown_after_step: list[tuple] = []  # (clip, step) of parameters the analysis cannot match

    def on_diff(self, ev: DiffEvent) -> None:
        if ev.kind in ("backward", "autograd_grad"):
            self._order.append(ev)

    def on_call(self, ev: CallEvent) -> None:
        """Clipping inside a LightningModule's training_step under automatic optimization:
        Lightning's backward for this step runs only after training_step returns."""
        if callee_last(ev.node) not in self._CLIP_NAMES:
            return
        fn = ev.ctx.fn
        if fn is None or fn.name != "training_step" or fn.cls is None or not fn.cls.is_lightning:
            return
        if any(isinstance(e, DiffEvent) and e.ctx.run == ev.ctx.run for e in self._order):
            return  # a backward of its own ran before it in this step
        if not automatic_lightning_optimization(self.ctx, fn.cls):
            return
        self.report(
            ev.node,
            "gradients are clipped inside training_step, before Lightning runs this step's backward() (it does so after "
            "training_step returns): this clips the previous step's gradients, which are cleared before the new ones are "
            "computed, so the update is never clipped; pass `gradient_clip_val` to the Trainer, or clip in "
            "`configure_gradient_clipping` / `on_before_optimizer_step`",
        )

    def finish(self) -> None:
        for c, step in self._unknown_after_step:
            after = [e for e in self._order if e.ctx.run == c.ctx.run and e.seq > c.seq]
            nxt = min(after, key=lambda e: e.seq) if after else None
            if isinstance(nxt, OptEvent) and nxt.kind == "zero_grad" and _receiver(self.ctx, nxt.node) == _receiver(self.ctx, step.node):
                self.report(
                    c.node,
                    lambda line, prev=step.node, z=nxt.node: (
                        f"gradients are clipped after the optimizer step on line {_line_of(line, prev)} and cleared next "
                        f"(zero_grad on line {_line_of(line, z)}) before any step uses them: the clipping has no effect; "
                        f"clip between backward() and step()"
                    ),
                )
        # `clip(...); loss.backward()` at the start of a function (the FAMO report): whatever it
        # clipped, the gradients this backward computes reach the step unclipped
        for c in self._first_clips:
            after = [e for e in self._order if e.ctx.run == c.ctx.run and e.seq > c.seq]
            nxt = min(after, key=lambda e: e.seq) if after else None
            if isinstance(nxt, DiffEvent) and nxt.kind == "backward":
                self.report(
                    c.node,
                    lambda line, b=nxt.node: (
                        f"gradients are clipped before the backward() on line {line(b)} computes them: the new gradients "
                        f"reach step() unclipped; clip between backward() and step()"
                    ),
                )

    def on_opt(self, ev: OptEvent) -> None:
        if ev.kind != "clip":
            self._order.append(ev)
        if ev.kind in ("step", "zero_grad"):
            self._events[(ev.ctx.run, id(ev.node))] = ev
            return
        if ev.kind == "clip" and ev.prev is None and ev.ctx.fn is not None and not ev.ctx.calls and not any(
                e.ctx.run == ev.ctx.run for e in self._order):
            self._first_clips.append(ev)
            return
        if ev.kind != "clip" or ev.prev is None or ev.prev[0] not in ("step", "zero", "zero_after_backward"):
            return
        before = self._events.get((ev.ctx.run, id(ev.prev[1])))
        if before is None or (before.kind == "step" and before.target.kind != "optimizer"):
            return
        # the clipped parameters are (certainly) those the step used or the clearing cleared
        if not (_origins(ev.target) & _origins(before.target)):
            if before.kind == "step" and not _origins(before.target):
                # a model and an optimizer given as parameters: which parameters is unknown, but
                # if the next gradient event clears them, the clipping had no effect at all
                self._unknown_after_step.append((ev, before))
            elif before.kind == "zero_grad" and not (_origins(ev.target) and _origins(before.target)):
                # `opt.zero_grad(); clip(model.parameters()); loss.backward()` with the model and
                # optimizer given as parameters: whichever parameters were cleared, if the next
                # gradient event is a backward, what it computes reaches the step unclipped
                self._first_clips.append(ev)
            return
        after_step = before.kind == "step"
        self.report(
            ev.node,
            lambda line, prev=ev.prev[1], after_step=after_step: (
                f"gradients are clipped after the optimizer step on line {_line_of(line, prev)}: the update already used the "
                f"unclipped gradients, so the clipping has no effect; clip between backward() and step()"
                if after_step else
                f"gradients are clipped right after they were cleared (zero_grad on line {_line_of(line, prev)}) and before "
                f"backward(): there is nothing to clip and the new gradients reach step() unclipped; clip between "
                f"backward() and step()"
            ),
        )


# `p.grad`, `autograd.grad(...)`, `jax.grad(f)`: not `zero_grad()` nor `args.gradient_accumulation_steps`
# (`p.grad = None` stores: it clears, reads nothing)
_READS_GRADIENTS = re.compile(r"\.grad\b(?!_)(?![ \t]*=(?!=))|(?<![\w.])grad\(|\.grad\(")


def _clears_one_parameter(stmt, loop) -> bool:
    """`p.grad = None` in `for p in ...:`: the loop clears every parameter's gradient."""
    if not isinstance(loop, cst.For) or not isinstance(loop.target, cst.Name) or not isinstance(stmt, cst.Assign):
        return False
    return any(isinstance(t.target, cst.Attribute) and t.target.attr.value == "grad" and isinstance(t.target.value, cst.Name)
               and t.target.value.value == loop.target.value for t in stmt.targets)


class ZeroGradPerMicroBatch(Rule):
    code = "GL704"
    message = "zero_grad() inside a gradient-accumulation loop whose step() comes after it: only the last micro-batch's gradients are used"
    severity = Severity.WARNING
    docs = "https://pytorch.org/docs/stable/notes/amp_examples.html#gradient-accumulation"
    triggers = ("zero_grad",)
    rationale = """
        Gradient accumulation sums the gradients of several micro-batches (`backward()` adds
        into `.grad`) and steps once. A `zero_grad()` inside the micro-batch loop, with the
        `step()` after the loop, clears what the earlier micro-batches accumulated: the step
        uses only the last micro-batch's gradient (divided by the accumulation count, if the
        loss was scaled), so the effective batch is one micro-batch and the learning rate is
        wrong.

        The one-loop spelling is reported too: `zero_grad()` at the top of every iteration,
        `backward()` on every iteration, `step()` only under `if (i + 1) % accum == 0:` (a loop
        whose backward also sits under that `if` — a generator trained every n_critic steps —
        is not accumulation).

        Instead: clear once per optimizer step — before the micro-batch loop, or right after
        `step()`.
    """
    invalid = [
        Invalid(
            """
            import torch
            model = torch.nn.Linear(16, 16)
            opt = torch.optim.AdamW(model.parameters())
            for batch in torch.randn(5, 4, 8, 16):
                for micro in batch:
                    opt.zero_grad()
                    (model(micro).pow(2).mean() / 4).backward()
                opt.step()
            """,
            line=6,
        ),
    ]
    valid = [
        """
        import torch
        model = torch.nn.Linear(16, 16)
        opt = torch.optim.AdamW(model.parameters())
        for batch in torch.randn(5, 4, 8, 16):
            opt.zero_grad()
            for micro in batch:
                (model(micro).pow(2).mean() / 4).backward()
            opt.step()
        """,
        """
        import torch
        model = torch.nn.Linear(16, 16)
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        grads = []
        for x in torch.randn(5, 8, 16):
            opt.zero_grad()
            model(x).pow(2).mean().backward()
            grads.append([p.grad.clone() for p in model.parameters()])
        for p, g in zip(model.parameters(), zip(*grads)):
            p.grad = torch.stack(g).mean(0)
        opt.step()
        """,
    ]

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        self._zeros: list[OptEvent] = []
        self._all_steps: list[OptEvent] = []  # every step event, whatever its target is known to be
        self._backwards: list[DiffEvent] = []
        self._loop_zeros: list[OptEvent] = []  # every zero_grad() in a loop
        self._done: set[int] = set()
        self._loop_parents: dict[int, dict] = {}  # id(loop) -> its own parent map (_every_k)

    def on_opt(self, ev: OptEvent) -> None:
        if ev.kind == "zero_grad" and self._site(ev) is not None:
            self._loop_zeros.append(ev)
        if ev.kind == "zero_grad" and self._site(ev) is not None and ev.prev is not None and ev.prev[0] in ("backward", "backward_scaled"):
            self._zeros.append(ev)
        elif ev.kind == "step":
            self._all_steps.append(ev)

    def on_diff(self, ev: DiffEvent) -> None:
        if ev.kind == "backward":
            self._backwards.append(ev)

    def finish(self) -> None:
        steps = [s for s in self._all_steps if s.target.kind == "optimizer"]  # an optimizer's own step
        self._every_k_steps(steps)
        for z in self._zeros:
            node, loop = self._site(z)
            run = z.ctx.run
            # every step of this run is outside the loop, and one follows it (any step: an
            # optimizer given as a parameter may be stepped by `scaler.step(opt)` only)
            if any(s.ctx.run == run and s.ctx.in_loop(loop) for s in self._all_steps):
                continue
            # the same optimizer: the same parameters, or (given as a parameter) the same receiver
            later = [s for s in steps if s.ctx.run == run and s.seq > z.seq and self._same_optimizer(s, z)]
            if not later or not any(b.ctx.run == run and b.ctx.in_loop(loop) and b.seq > z.seq for b in self._backwards):
                continue
            if _guarded(self.ctx, node, loop):
                continue  # `if i == 0: opt.zero_grad()`: cleared on some micro-batches only, by design
            # the loop reads the per-micro-batch gradients (per-sample gradients, gradient
            # surgery): clearing each time is the point
            step = later[0].node
            if _READS_GRADIENTS.search(self._outside_step_gate(loop, step)):
                continue
            what = "zero_grad()" if node is z.node else "setting every `.grad` to None"
            self.report(
                node,
                lambda line, step=step, what=what: (
                    f"{what} inside this loop clears the gradients that earlier iterations' backward() accumulated, "
                    f"and the optimizer steps only after the loop (line {line(step)}): the step uses the last micro-batch's "
                    f"gradient alone; clear once per step, before the loop or after step()"
                ),
            )


    def _every_k_steps(self, steps: list[OptEvent]) -> None:
        """The one-loop spelling: `zero_grad()` unconditionally at the top of each iteration,
        `backward()` each iteration, `step()` only every k-th (`if (i + 1) % accum == 0:`): each
        step sees the gradient of the micro-batch since the last clear, not of k of them."""
        if not self._loop_zeros or not steps:
            return
        by_run: dict = {}
        for s in steps:
            by_run.setdefault(s.ctx.run, []).append(s)
        seen: set[int] = set()
        for z in self._loop_zeros:
            node, loop = self._site(z)
            if id(node) in seen:
                continue  # the loop's second pass: the same site
            seen.add(id(node))
            if id(node) in self._done or not self._direct_statement(node, loop) or self._every_k(node, loop):
                continue  # (after `if i % k: continue` it runs every k-th iteration, with the step)
            run = z.ctx.run
            steps = [s for s in by_run.get(run, ()) if s.ctx.in_loop(loop) and self._same_optimizer(s, z)]
            gated = [s for s in steps if self._every_k(s.node, loop)]
            if not steps or len(gated) != len(steps):
                continue
            backs = [b for b in self._backwards if b.ctx.run == run and b.ctx.in_loop(loop)]
            # accumulation: backward() on every iteration, never under the every-k `if` (a GAN
            # that trains the generator every n_critic steps runs its backward there too)
            if not backs or any(self._every_k(b.node, loop) for b in backs):
                continue
            step = gated[0].node
            if _READS_GRADIENTS.search(self._outside_step_gate(loop, step)):
                continue  # per-micro-batch gradients are read: clearing each time is the point
            self._done.add(id(node))
            self.report(
                node,
                lambda line, step=step: (
                    f"zero_grad() runs on every iteration but the optimizer steps only every few (line {line(step)}): each "
                    f"step sees only the gradient of the last micro-batch, not the accumulated ones; clear after step() "
                    f"inside the same `if`"
                ),
            )

    @staticmethod
    def _site(z: OptEvent):
        """Where a clear happens and the loop it repeats in: `for p in model.parameters(): p.grad
        = None` clears once per iteration of the loop around that for (None: in no loop)."""
        loops = z.ctx.loops
        node = z.node
        if loops and _clears_one_parameter(node, loops[-1][0]):
            node, loops = loops[-1][0], loops[:-1]
        return (node, loops[-1][0]) if loops else None

    def _same_optimizer(self, s: OptEvent, z: OptEvent) -> bool:
        """The step and the clear are of one optimizer: the same parameters, or (an optimizer
        given as a parameter, whose parameters are unknown) the same receiver."""
        if _origins(s.target) & _origins(z.target):
            return True
        if _origins(s.target) or _origins(z.target):
            return False
        rs = _receiver(self.ctx, s.node)
        return rs is not None and rs == _receiver(self.ctx, z.node)

    def _outside_step_gate(self, loop, step) -> str:
        """The loop's code, less the `if` that gates its step (`if (i + 1) % k == 0: ...
        opt.step()`): a gradient read there reads what was accumulated, not each micro-batch's."""
        code = self.ctx.code(loop)
        gate = next((a for a in self.ctx.ancestors(step) if a is loop or isinstance(a, cst.If)), None)
        if not isinstance(gate, cst.If) or not _within(self.ctx, gate, loop):
            return code
        outer, inner = self.ctx.range_of(loop), self.ctx.range_of(gate)
        if outer is None or inner is None:
            return code
        lines = self.ctx.source.lines
        return "\n".join(lines[i - 1] for i in range(outer[0].line, outer[1].line + 1) if not inner[0].line <= i <= inner[1].line)

    def _direct_statement(self, node, loop) -> bool:
        """`node` is a statement of the loop's own body, not inside an if/with/try of it."""
        body = getattr(loop, "body", None)  # (a comprehension is a loop without statements)
        if not isinstance(body, cst.IndentedBlock):
            return False  # `for b in batches: opt.zero_grad()` has no statement line
        return any(isinstance(stmt, cst.SimpleStatementLine) and any(n is node for n in walk(stmt, code_only=True))
                   for stmt in body.body)

    def _every_k(self, node, loop) -> bool:
        """`node` runs under an `if` of the loop whose test takes a remainder (`i % k == 0`)."""
        parents = self._loop_parents.get(id(loop))
        if parents is None:
            # the loop's own map: the file's (FileContext.parent) walks every expression of the file
            parents = self._loop_parents[id(loop)] = parent_map([loop])
        # the loop's own map when `node` is written in it; else (a helper the loop calls) the file's
        parent = (lambda n: parents.get(id(n))) if id(node) in parents else self.ctx.parent
        child, cur = node, parent(node)
        gated = False
        while cur is not None and cur is not loop:
            if isinstance(cur, cst.If) and takes_remainder(cur.test):
                gated = True
            elif gated and isinstance(cur, (cst.For, cst.While)):
                return False  # the `if` counts the iterations of a loop inside `loop`, not of `loop`
            elif isinstance(cur, cst.IndentedBlock) and not gated and any(
                    _skips_unless_kth(s) for s in cur.body[:next((i for i, s in enumerate(cur.body) if s is child), 0)]):
                gated = parent(cur) is loop  # `if (i + 1) % k != 0: continue` before it, in the loop's own body
            child, cur = cur, parent(cur)
        return gated


def _skips_unless_kth(stmt) -> bool:
    """`if (i + 1) % k != 0: continue`: the rest of the iteration runs every k-th time only."""
    if not (isinstance(stmt, cst.If) and stmt.orelse is None and takes_remainder(stmt.test)):
        return False
    body = stmt.body.body if isinstance(stmt.body, cst.IndentedBlock) else []
    last = body[-1] if body else None
    return isinstance(last, cst.SimpleStatementLine) and any(isinstance(s, cst.Continue) for s in last.body)


_DDP = frozenset({"torch.nn.parallel.DistributedDataParallel", "torch.nn.parallel.distributed.DistributedDataParallel"})
# a method that reaches submodules without naming them: an unnamed one may still be used
_GENERIC_ACCESS = re.compile(r"\b(getattr|children|named_children|modules|named_modules|_modules|__dict__|values|items)\s*\(|\b_modules\b|__dict__")


def _self_assignments(cls_node, attr: str) -> list:
    """The `self.<attr> = ...` statements in the class body (any method)."""
    found: list[cst.CSTNode] = []

    def is_field(tt) -> bool:
        return isinstance(tt, cst.Attribute) and isinstance(tt.value, cst.Name) and tt.value.value == "self" and tt.attr.value == attr

    for node in walk(cls_node, code_only=True):
        if isinstance(node, cst.Assign):
            found.extend(node for t in node.targets if is_field(t.target))
        elif isinstance(node, cst.AnnAssign) and is_field(node.target):
            found.append(node)
    return found


def _requires_no_grad(store) -> bool:
    """`self.p = nn.Parameter(t, requires_grad=False)`."""
    value = getattr(store, "value", None)
    return isinstance(value, cst.Call) and any(
        a.keyword is not None and a.keyword.value == "requires_grad" and not (isinstance(a.value, cst.Name) and a.value.value == "True")
        for a in value.args)


class DdpUnusedSubmodule(Rule):
    code = "GL705"
    message = "a submodule registered in __init__ is never used: under DistributedDataParallel its parameters get no gradient and the next iteration fails"
    severity = Severity.WARNING
    docs = "https://pytorch.org/docs/stable/generated/torch.nn.parallel.DistributedDataParallel.html"
    triggers = ("DistributedDataParallel",)
    rationale = """
        `DistributedDataParallel` all-reduces gradients in buckets and, by default
        (`find_unused_parameters=False`), waits for a gradient of *every* parameter of the
        wrapped module after each `backward()`. A layer that `__init__` registers
        (`self.head2 = nn.Linear(...)`) but that `forward()` never calls gets no gradient, the
        reduction never finishes, and the next iteration raises "Expected to have finished
        reduction in the prior iteration before starting a new one" (the same model trains fine
        on one GPU, which is why the leftover layer goes unnoticed).

        The same holds for an entry of an `nn.ModuleDict` that forward() never reads (the dict
        read only with constant keys, none of them this one) and for a bare `nn.Parameter` field
        that nothing reads.

        Instead: delete the unused layer (or freeze it: `requires_grad_(False)`), or construct
        DDP with `find_unused_parameters=True` when some layers are really used only on some
        iterations (it costs an extra graph traversal per step).
    """
    invalid = [
        Invalid(
            """
            import torch
            import torch.nn as nn
            from torch.nn.parallel import DistributedDataParallel as DDP

            class Net(nn.Module):
                def __init__(self):
                    super().__init__()
                    self.body = nn.Linear(16, 16)
                    self.aux = nn.Linear(16, 4)
                    self.out = nn.Linear(16, 2)

                def forward(self, x):
                    return self.out(torch.relu(self.body(x)))

            model = DDP(Net())
            opt = torch.optim.SGD(model.parameters(), lr=0.1)
            """,
            line=9,
        ),
    ]
    valid = [
        """
        import torch
        import torch.nn as nn
        from torch.nn.parallel import DistributedDataParallel as DDP

        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.body = nn.Linear(16, 16)
                self.aux = nn.Linear(16, 4)
                self.out = nn.Linear(16, 2)

            def forward(self, x):
                return self.out(torch.relu(self.body(x)))

        model = DDP(Net(), find_unused_parameters=True)
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        """,
        """
        import torch
        import torch.nn as nn

        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.body = nn.Linear(16, 16)
                self.aux = nn.Linear(16, 4)
                self.aux.requires_grad_(False)

            def forward(self, x):
                return self.body(x)

        model = nn.parallel.DistributedDataParallel(Net())
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        """,
    ]

    call_names = frozenset(q.rsplit(".", 1)[-1] for q in _DDP)

    def on_call(self, ev: CallEvent) -> None:
        if ev.qual not in _DDP:
            return
        node = ev.node
        if any(a.star for a in node.args):  # `**kwargs`: find_unused_parameters may be in there
            return
        for key in ("find_unused_parameters", "static_graph"):
            kw = ev.kw_nodes.get(key)
            if kw is not None and not (isinstance(kw, cst.Name) and kw.value == "False"):
                return
        mod = ev.arg(0, "module")
        if mod is None or mod.kind != "module":
            return
        self._check(mod, ev, depth=0, seen=set())

    def _check(self, mod, ev: CallEvent, depth: int, seen: set) -> None:
        info = mod.get(F.CLS)
        fields = mod.get(F.FIELDS)
        if info is None or not getattr(info, "is_module", False) or not fields or depth > 4 or id(info) in seen:
            return
        seen.add(id(info))
        text = self.ctx.code_text  # strings and comments blanked
        raw = self.ctx.source.text
        body = self._methods_text(info)
        if not any(stmt is info.node for stmt in self.ctx.module_statements()):
            # a class of another module of the project: this file's text does not say what
            # reads its fields; its own code does (uses elsewhere in its module stay unseen)
            text = raw = self.ctx.code(info.node)
        generic = _GENERIC_ACCESS.search(body) is not None
        for attr, v in list(fields.items()):
            if v is None:
                continue
            # a bare nn.Parameter field (`self.pos_embed = nn.Parameter(...)`) is waited for too
            param = v.kind != "module" and bool(v.get(F.PARAM)) and isinstance(v.get(F.CREATED), cst.Call) and callee_last(v.get(F.CREATED)) == "Parameter"
            if v.kind != "module" and not param:
                continue
            if v.get(F.CLS) is not None:
                self._check(v, ev, depth + 1, seen)
            name = "nn.Parameter" if param else _trainable_class(v)
            if generic or v.get(F.FROZEN) or (v.live and all(o.frozen for o in v.live)):
                continue
            stores = _self_assignments(info.node, attr)
            if not stores:
                continue
            if v.get(F.QUAL_NEW) == "torch.nn.ModuleDict":
                self._check_dict_keys(attr, stores, text, raw, ev)
            if name is None:
                continue
            if param and _requires_no_grad(stores[0]):
                continue  # `nn.Parameter(..., requires_grad=False)`: a buffer in all but name
            # every `.attr` of the file is one of its registrations: nothing reads it
            reads = len(re.findall(r"\." + re.escape(attr) + r"\b", text))
            if reads > len(stores) or re.search(r"['\"]" + re.escape(attr) + r"['\"]", raw):
                continue
            self._report_unused(stores[0], f"`self.{attr}` (`{name}`)", ev, ("GL705", id(info.node), attr))

    def _check_dict_keys(self, attr: str, stores: list, text: str, raw: str, ev: CallEvent) -> None:
        """`self.heads = nn.ModuleDict({"cls": ..., "reg": ...})` read only as `self.heads["cls"]`:
        the "reg" layer is never used. Any other read of the dict (iteration, a variable key,
        `.items()`) may use every key."""
        value = getattr(stores[0], "value", None)
        if len(stores) != 1 or not isinstance(value, cst.Call) or not value.args or not isinstance(value.args[0].value, cst.Dict):
            return
        entries = {}
        for el in value.args[0].value.elements:
            key = getattr(el, "key", None)
            if not isinstance(el, cst.DictElement) or not isinstance(key, cst.SimpleString) or not isinstance(key.evaluated_value, str):
                return
            entries[key.evaluated_value] = el
        # the reads: every `.heads` but the registration (`self.heads = ...`)
        reads = [m.end() for m in re.finditer(r"\." + re.escape(attr) + r"\b", text) if not re.match(r"\s*=(?!=)", text[m.end():])]
        if not reads:
            return  # not read at all: nothing tells the keys apart (the whole dict is unused)
        used: set = set()
        for end in reads:
            m = re.match(r"\s*\[\s*(['\"])(\w+)\1\s*\]", raw[end:end + 80])
            if m is None:
                return  # read some other way
            used.add(m.group(2))
        code = re.sub(r"#[^\n]*", "", raw)  # comments may quote a key
        for key, el in entries.items():
            trainable = el.value
            if key in used or not (isinstance(trainable, cst.Call) and callee_last(trainable) in TRAINABLE_MODULES):
                continue
            if len(re.findall(r"['\"]" + re.escape(key) + r"['\"]", code)) > 1:
                continue  # the key is spelled elsewhere (a task list that indexes the dict)
            self._report_unused(el, f"the `{key}` entry of `self.{attr}` (`{callee_last(trainable)}` in an nn.ModuleDict)", ev,
                                ("GL705", id(el), key))

    def _report_unused(self, node, what: str, ev: CallEvent, key: tuple) -> None:
        self.report(
            node,
            lambda line, ddp=ev.node, what=what: (
                f"{what} is registered but never used, and the module is wrapped in "
                f"DistributedDataParallel on line {line(ddp)} without find_unused_parameters=True: its parameters get no "
                f"gradient, so DDP's reduction never finishes and the next iteration raises \"Expected to have finished "
                f"reduction in the prior iteration\"; delete the layer, freeze it, or pass find_unused_parameters=True"
            ),
            key=key,
        )

    def _methods_text(self, info) -> str:
        """The code of the class's methods other than `__init__` (where `self.modules()` loops
        initialise weights and use nothing)."""
        parts = []
        for name, fn in info.methods.items():
            if name != "__init__" and getattr(fn, "node", None) is not None:
                parts.append(self.ctx.code(fn.node))
        return "\n".join(parts)


def _enclosing_class(ctx, node):
    """The ClassDef whose method holds `node` (a with statement or a decorator), or None."""
    for a in ctx.ancestors(node):
        if isinstance(a, cst.ClassDef):
            return a
    return None


def _region_is_output(ctx, region) -> bool:
    """The method returns what the no-grad region computed: a decorated method, a `return`
    inside the `with` block, or a returned name (alone or in a tuple) assigned inside it.
    (A region whose result feeds later layers is a frozen backbone, on purpose.)"""
    if not isinstance(region, cst.With):
        return True
    fn = next((a for a in ctx.ancestors(region) if isinstance(a, cst.FunctionDef)), None)
    if fn is None:
        return False
    assigned: set[str] = set()
    for node in walk(region.body, code_only=True):
        if isinstance(node, cst.Return):
            return True
        if isinstance(node, cst.AssignTarget):
            assigned.update(_target_names(node.target))
    returned: list[str] = []
    for node in walk(fn.body, code_only=True):
        if isinstance(node, cst.Return):
            v = node.value
            items = [e.value for e in v.elements] if isinstance(v, (cst.Tuple, cst.List)) else [v]
            returned.extend(i.value for i in items if isinstance(i, cst.Name))
    return any(n in assigned for n in returned)


def _target_names(t) -> list[str]:
    if isinstance(t, cst.Name):
        return [t.value]
    if isinstance(t, (cst.Tuple, cst.List)):
        return [n for e in t.elements for n in _target_names(e.value)]
    return []


class NoGradInModuleMethod(Rule):
    code = "GL706"
    message = "torch.no_grad() inside a module's forward pass covers layers the optimizer trains: they never get a gradient"
    severity = Severity.WARNING
    docs = "https://pytorch.org/docs/stable/generated/torch.no_grad.html"
    triggers = ("no_grad", "inference_mode")
    rationale = """
        A `with torch.no_grad():` block (or an `@torch.no_grad()` decorator) inside
        `forward()` or a helper it calls is a common way to freeze a pretrained backbone. It
        freezes *everything* computed inside it: a projection head or classifier called in
        the same block, or an input that is being optimised (adversarial examples, feature
        visualisation, prompt tuning) gets no gradient. The optimizer holds those parameters,
        `backward()` runs without an error (other branches of the loss have a graph), and the
        layers stay at their random initialisation.

        Instead: keep only the frozen backbone inside the block and call the trainable layers
        after it (`with torch.no_grad(): h = self.backbone(x)` then `return self.head(h)`), or
        freeze the backbone with `requires_grad_(False)` and drop the `no_grad`.
    """
    invalid = [
        Invalid(
            """
            import torch
            import torch.nn as nn

            class Probe(nn.Module):
                def __init__(self):
                    super().__init__()
                    self.backbone = nn.Linear(32, 16)
                    self.head = nn.Linear(16, 4)

                def forward(self, x):
                    with torch.no_grad():
                        h = torch.relu(self.backbone(x))
                        out = self.head(h)
                    return out

            model = Probe()
            opt = torch.optim.Adam(model.parameters())
            for x, y in loader:
                loss = nn.functional.cross_entropy(model(x), y)
                opt.zero_grad()
                loss.backward()
                opt.step()
            """,
            line=11,
        ),
    ]
    valid = [
        """
        import torch
        import torch.nn as nn

        class Probe(nn.Module):
            def __init__(self):
                super().__init__()
                self.backbone = nn.Linear(32, 16)
                self.head = nn.Linear(16, 4)

            def forward(self, x):
                with torch.no_grad():
                    h = torch.relu(self.backbone(x))
                return self.head(h)

        model = Probe()
        opt = torch.optim.Adam(model.parameters())
        for x, y in loader:
            loss = nn.functional.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        """,
    ]

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        self._modules: dict = {}  # origin of a module instance of the file -> its value
        self._steps: list[OptEvent] = []
        self._diffs: list[DiffEvent] = []
        self._pending: list = []  # (backward, origin, cut, class node)

    def on_call(self, ev: CallEvent) -> None:
        _record_module(self._modules, ev.result)

    def on_opt(self, ev: OptEvent) -> None:
        if ev.kind == "step" and ev.target.kind == "optimizer":
            self._steps.append(ev)

    def on_diff(self, ev: DiffEvent) -> None:
        if ev.kind != "backward":
            return
        self._diffs.append(ev)
        for o, cuts in starved(ev.target).items():
            for c in cuts:
                if c.kind not in NO_GRAD_KINDS:
                    continue
                cls = _enclosing_class(self.ctx, c.node)
                if cls is not None and _region_is_output(self.ctx, c.node) and not _within(self.ctx, ev.node, c.node) \
                        and any(info.node is cls and info.is_module for info in self.ctx.interp.classes):
                    # (a module's method; a backward inside the region itself is GL104's: the whole loss has no graph)
                    self._pending.append((ev, o, c, cls))

    def _trained_after(self, ev: DiffEvent) -> frozenset:
        """The origins the optimizer steps after this backward (before the next one)."""
        nxt = [d.seq for d in self._diffs if d.ctx.run == ev.ctx.run and d.seq > ev.seq]
        limit = min(nxt) if nxt else float("inf")
        out: set = set()
        for s in self._steps:
            if s.ctx.run == ev.ctx.run and ev.seq < s.seq < limit:
                out |= set(s.target.get(F.OPT_PARAMS) or ())
        return frozenset(out)

    def _region_code(self, region) -> str:
        """The code a no-grad region covers: the `with` statement, or the decorated method."""
        if isinstance(region, cst.Decorator):
            region = self.ctx.parent(region) or region
        return self.ctx.code(region)

    def _inside(self, node, outer) -> bool:
        return node is not None and any(a is outer for a in self.ctx.ancestors(node))

    def _layer_of(self, owners, o, cls_node, region):
        """(attribute, value) of the fresh torch.nn layer with origin `o` that the class `cls_node`
        builds in its own code and registers on an instance the optimizer holds (directly or
        through its submodules), and that the no-grad `region` calls as `self.<attr>`. (A layer
        handed to the class from outside, run through a parameter, is the caller's choice.)"""
        todo = [self._modules[p] for p in owners if p in self._modules]
        seen: set = set()
        while todo:
            m = todo.pop()
            if id(m) in seen:
                continue
            seen.add(id(m))
            info = m.get(F.CLS)
            for attr, v in (m.get(F.FIELDS) or {}).items():
                if v is None or v.kind != "module":
                    continue
                if info is not None and info.node is cls_node and o in v.live and v.get(F.CREATED) is not None \
                        and (v.get(F.QUAL_NEW) or "").startswith("torch.nn.") and _trainable_class(v) \
                        and _self_assignments(cls_node, attr) and self._inside(v.get(F.CREATED), cls_node) \
                        and re.search(r"\bself\s*\.\s*" + re.escape(attr) + r"\b", self._region_code(region)):
                    return attr, v
                if v.get(F.FIELDS):
                    todo.append(v)
        return None

    def finish(self) -> None:
        regions: dict = {}  # id(no-grad node) -> (node, backward, [names])
        for ev, o, c, cls in self._pending:
            if o.frozen:
                continue
            trained = self._trained_after(ev)
            if o in trained:
                name = origin_name(o)
            else:
                hit = self._layer_of(trained, o, cls, c.node)
                if hit is None:
                    continue
                attr, v = hit
                # weights loaded or frozen elsewhere: a frozen pretrained part, on purpose
                if re.search(r"\b" + re.escape(attr) + r"\b\s*(\.\s*\w+\s*)*\.\s*(load_state_dict|requires_grad_|requires_grad\b|from_pretrained|copy_)",
                             self.ctx.code_text):
                    continue
                name = f"`self.{attr}`"
            entry = regions.setdefault(id(c.node), (c.node, ev.node, []))
            if name not in entry[2]:
                entry[2].append(name)
        for region, backward, names in regions.values():
            what = ", ".join(names)
            self.report(
                region,
                lambda line, what=what, b=backward: (
                    f"this no-grad region inside the module's forward pass stops the gradient of the backward() on line "
                    f"{line(b)} from reaching {what}, which the optimizer updates: {'they are' if ',' in what else 'it is'} "
                    f"never trained; keep only the frozen part inside the block and call the trainable layers after it "
                    f"(or move the optimised input out of it)"
                ),
                key=("GL706", id(region)),
            )


_FROZEN_EMBEDDINGS = re.compile(
    r"(?:embed\w*|\bwte|\bget_input_embeddings\s*\(\s*\))(?:\.\w+|\[[^\]]*\])*\s*\.\s*(?:parameters\s*\(\s*\)\s*:\s*\n\s*\w+\s*\.\s*requires_grad\s*=\s*False"
    r"|requires_grad_\s*\(\s*False|weight\s*\.\s*requires_grad\s*=\s*False)")
_INPUT_GRADS = re.compile(r"\b(enable_input_require_grads|prepare_model_for_kbit_training|prepare_model_for_int8_training)\b")


class HfCheckpointingFrozenInputs(Rule):
    code = "GL707"
    message = "reentrant gradient checkpointing on a model whose input embeddings are frozen: the checkpointed layers get no gradient"
    severity = Severity.WARNING
    docs = "https://pytorch.org/docs/stable/checkpoint.html"
    triggers = ("gradient_checkpointing",)
    rationale = """
        Hugging Face's `gradient_checkpointing_enable()` (without `gradient_checkpointing_kwargs`,
        or with `use_reentrant=True`) uses the reentrant `torch.utils.checkpoint`, which records
        an autograd node for a layer *only if one of its tensor inputs requires grad*. When the
        input embeddings are frozen — by hand (`embeddings.requires_grad_(False)`), or because a
        PEFT/LoRA wrapper froze the whole base model — the hidden states entering the first
        checkpointed layer do not require grad: PyTorch warns "None of the inputs have
        requires_grad=True", the trainable parameters inside the layers (the unfrozen layers,
        the LoRA adapters) get no gradient, and training does nothing or fails with "element 0
        of tensors does not require grad". (GL503 is the same pitfall for a direct
        `torch.utils.checkpoint.checkpoint` call.)

        Instead: `model.enable_input_require_grads()` (before wrapping with PEFT; PEFT's
        `prepare_model_for_kbit_training` calls it), or
        `gradient_checkpointing_kwargs={"use_reentrant": False}`.
    """
    invalid = [
        Invalid(
            """
            from transformers import AutoModelForCausalLM

            model = AutoModelForCausalLM.from_pretrained("gpt2")
            for p in model.transformer.wte.parameters():
                p.requires_grad = False
            model.gradient_checkpointing_enable()
            model.train()
            """,
            line=6,
        ),
    ]
    valid = [
        """
        from transformers import AutoModelForCausalLM

        model = AutoModelForCausalLM.from_pretrained("gpt2")
        for p in model.transformer.wte.parameters():
            p.requires_grad = False
        model.enable_input_require_grads()
        model.gradient_checkpointing_enable()
        model.train()
        """,
    ]

    def on_call(self, ev: CallEvent) -> None:
        if ev.method == "gradient_checkpointing_enable" or "gradient_checkpointing_kwargs" in ev.kw_nodes:
            self._check_transformers(ev)

    def _check_transformers(self, ev: CallEvent) -> None:
        """Hugging Face gradient checkpointing (reentrant unless told otherwise) on a model
        whose input embeddings are frozen (by hand, or by wrapping it with PEFT)."""
        if ev.method == "gradient_checkpointing_enable":
            where = ev.kw_nodes.get("gradient_checkpointing_kwargs")
            if where is not None and not re.search(r"""['"]?use_reentrant['"]?\s*[:=]\s*True""", self.ctx.code(where)):
                return  # anything but an explicit reentrant choice: not provably reentrant
            report_at = ev.node
        else:
            # a training config: `gradient_checkpointing_kwargs=dict(use_reentrant=True)`
            where = ev.kw_nodes.get("gradient_checkpointing_kwargs")
            on = ev.kw_nodes.get("gradient_checkpointing")
            if where is None or not (isinstance(on, cst.Name) and on.value == "True") \
                    or not re.search(r"""['"]?use_reentrant['"]?\s*[:=]\s*True""", self.ctx.code(where)):
                return
            report_at = where
        text = self.ctx.code_text
        if _INPUT_GRADS.search(text):
            return
        rng = self.ctx.range_of(ev.node)
        if rng is None:
            return
        lines = text.split("\n")
        before = "\n".join(lines[: rng[0].line - 1])
        # frozen before checkpointing is enabled; PEFT wrapping a model that already checkpoints
        # makes its inputs require grad itself
        root = None
        if ev.method == "gradient_checkpointing_enable" and isinstance(ev.node.func, cst.Attribute):
            base = ev.node.func.value
            while isinstance(base, (cst.Attribute, cst.Subscript, cst.Call)):
                base = base.value if not isinstance(base, cst.Call) else base.func
            root = base.value if isinstance(base, cst.Name) else None
        if not self._frozen_inputs(before, root):
            return
        self.report(
            report_at,
            "reentrant gradient checkpointing on a model whose input embeddings do not require grad (frozen, or a "
            "PEFT/LoRA model): the checkpointed layers see no input that requires grad, so their outputs have no "
            "grad_fn and the trainable parameters inside get no gradient; call model.enable_input_require_grads() "
            "or use gradient_checkpointing_kwargs={\"use_reentrant\": False}",
        )

    @staticmethod
    def _frozen_inputs(before: str, root: str | None) -> bool:
        """The code before the call freezes the input embeddings of `root` (a model name; None:
        of any model) or wraps it with PEFT."""
        for line in before.split("\n"):
            if re.search(r"\bget_peft_model\s*\(", line) and (root is None or re.search(r"\b" + re.escape(root) + r"\b", line)):
                return True
        for m in _FROZEN_EMBEDDINGS.finditer(before):
            start = before.rfind("\n", 0, m.start()) + 1
            if root is None or re.search(r"\b" + re.escape(root) + r"\b", before[start:m.end()]):
                return True
        return False


def automatic_lightning_optimization(ctx, info) -> bool:
    """The class is a LightningModule under automatic optimization: Lightning runs backward()
    and step() around what `training_step` returns. Not in a file that mentions
    `automatic_optimization` (manual optimization, here or in a base)."""
    return "automatic_optimization" not in ctx.code_text and _lightning_all_the_way(ctx, info, 0)


def _lightning_all_the_way(ctx, info, depth: int) -> bool:
    """Every base of the class is Lightning's module, or a class of this file that is
    (a base the analysis could not resolve may turn automatic optimization off)."""
    if depth > 8 or len(info.bases) != len(info.node.bases):
        return False
    classes = {c.name: c for c in ctx.interp.classes}
    for b in info.bases:
        if b in LIGHTNING_BASES:
            continue
        parent = classes.get(b)
        if parent is None or parent is info or not parent.is_lightning or not _lightning_all_the_way(ctx, parent, depth + 1):
            return False
    return True


class TrainingStepReturnsNothing(Rule):
    code = "GL708"
    message = "a LightningModule's training_step returns nothing: with automatic optimization Lightning skips every batch"
    severity = Severity.ERROR
    docs = "https://lightning.ai/docs/pytorch/stable/common/lightning_module.html#training-step"
    triggers = ("training_step",)
    rationale = """
        With automatic optimization (the default), Lightning backpropagates what
        `training_step` returns: the loss tensor, or a dict with a `"loss"` key. A return of
        `None` means "skip this batch" — no backward, no optimizer step. A `training_step` that
        computes the loss and logs it (`self.log("train_loss", loss)`) but never returns it
        therefore skips *every* batch: the model does not train, the logged loss stays flat,
        and the only sign is a warning.

        gradlint reports a `training_step` with no `return <value>` on any path, in a class
        whose bases are all Lightning's `LightningModule` or classes of the same file derived
        from it, in a file that never turns automatic optimization off (manual optimization
        calls `self.manual_backward(loss)` and may return nothing). Instead: `return loss`.
    """
    invalid = [
        Invalid(
            """
            import torch
            import torch.nn.functional as F
            import lightning as L

            class Classifier(L.LightningModule):
                def __init__(self):
                    super().__init__()
                    self.net = torch.nn.Linear(16, 2)

                def training_step(self, batch, batch_idx):
                    x, y = batch
                    loss = F.cross_entropy(self.net(x), y)
                    self.log("train_loss", loss)

                def configure_optimizers(self):
                    return torch.optim.Adam(self.parameters(), lr=1e-3)
            """,
            line=13,
        ),
    ]
    valid = [
        """
        import torch
        import torch.nn.functional as F
        import lightning as L

        class Classifier(L.LightningModule):
            def __init__(self):
                super().__init__()
                self.net = torch.nn.Linear(16, 2)

            def training_step(self, batch, batch_idx):
                x, y = batch
                loss = F.cross_entropy(self.net(x), y)
                self.log("train_loss", loss)
                return loss

            def configure_optimizers(self):
                return torch.optim.Adam(self.parameters(), lr=1e-3)
        """,
        """
        import torch
        import lightning as L

        class GAN(L.LightningModule):
            def __init__(self):
                super().__init__()
                self.automatic_optimization = False
                self.g = torch.nn.Linear(4, 4)

            def training_step(self, batch, batch_idx):
                opt = self.optimizers()
                loss = self.g(batch).pow(2).mean()
                opt.zero_grad()
                self.manual_backward(loss)
                opt.step()
        """,
    ]

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        self._done: set[int] = set()

    def on_function(self, ev) -> None:
        fn = ev.fn
        if fn.name != "training_step" or fn.cls is None or not fn.cls.is_lightning or id(fn.node) in self._done:
            return
        self._done.add(id(fn.node))
        if not automatic_lightning_optimization(self.ctx, fn.cls):
            return  # manual optimization (here or in a base class gradlint does not see)
        body = fn.node.body
        stmts = body.body if isinstance(body, cst.IndentedBlock) else ()
        if not stmts or self._returns_a_value(fn.node) or not self._computes(stmts):
            return
        self.report(
            stmts[-1],
            "training_step ends here without returning the loss: with automatic optimization Lightning treats a "
            "None return as \"skip this batch\" and runs no backward and no optimizer step, so the model never trains; "
            "`return loss` (or a dict with a \"loss\" key)",
        )

    @staticmethod
    def _returns_a_value(fn_node) -> bool:
        nested = (cst.FunctionDef, cst.Lambda, cst.ClassDef)
        for n in walk(fn_node.body, lambda n: not isinstance(n, nested), code_only=True):
            if isinstance(n, cst.Return) and n.value is not None and not (isinstance(n.value, cst.Name) and n.value.value == "None"):
                return True
            if isinstance(n, (cst.Yield, cst.Await)):
                return True
        return False

    @staticmethod
    def _computes(stmts) -> bool:
        """The body does work (a call), and is not a stub that raises or passes."""
        if any(isinstance(s, cst.SimpleStatementLine) and any(isinstance(x, cst.Raise) for x in s.body) for s in stmts):
            return False
        return any(isinstance(n, cst.Call) for s in stmts for n in walk(s, code_only=True))


class KerasTrainableChangedAfterCompile(Rule):
    code = "GL709"
    message = "model.trainable is switched off after compile() and the same model is then trained: Keras 2 ignores it, Keras 3 trains nothing"
    severity = Severity.WARNING
    frameworks = ("tf",)
    docs = "https://keras.io/guides/transfer_learning/#the-trainable-attribute"
    triggers = ("trainable",)
    # a helper that switches the flag (`make_trainable(net, False)`) is kept by the first pass
    chunk_triggers = (r"\.trainable\s*=(?!=)",)
    rationale = """
        `model.trainable = False` (or setting it on each of its layers) after
        `model.compile()` means different things to the two Keras generations. Keras 2 reads
        the flag when the model is *compiled*: the compiled model keeps updating the
        "frozen" weights (it warns "Discrepancy between trainable weights and collected
        trainable weights") until it is compiled again. Keras 3 (TensorFlow >= 2.16) reads it
        when the model *trains*: `model.train_on_batch(...)` now finds no trainable weights
        and the model never learns. The classic GAN recipe — compile the discriminator, set
        `discriminator.trainable = False`, compile the combined model, then call
        `discriminator.train_on_batch` in the loop — relies on the Keras 2 behaviour and
        silently stops training the discriminator under Keras 3; the opposite intent (freeze
        a model that was compiled) silently keeps training under Keras 2.

        gradlint reports the switch when the model was compiled before it and is trained by
        its own `fit`/`train_on_batch` after it with the flag still off. Instead: set the flag
        explicitly before each training call (`discriminator.trainable = True` before its
        `train_on_batch`, `False` before the combined model's), or compile after changing it.
    """
    invalid = [
        Invalid(
            """
            import numpy as np
            import tensorflow as tf

            d = tf.keras.Sequential([tf.keras.layers.Dense(8), tf.keras.layers.Dense(1)])
            d.compile(loss="mse", optimizer="adam")
            d.trainable = False
            d.train_on_batch(np.zeros((4, 2)), np.zeros((4, 1)))
            """,
            line=6,
        ),
    ]
    valid = [
        """
        import numpy as np
        import tensorflow as tf

        d = tf.keras.Sequential([tf.keras.layers.Dense(8), tf.keras.layers.Dense(1)])
        d.compile(loss="mse", optimizer="adam")
        for step in range(3):
            d.trainable = True
            d.train_on_batch(np.zeros((4, 2)), np.zeros((4, 1)))
            d.trainable = False
        """,
        """
        import tensorflow as tf

        base = tf.keras.applications.MobileNetV2(include_top=False, weights=None)
        base.trainable = False
        model = tf.keras.Sequential([base, tf.keras.layers.GlobalAveragePooling2D(), tf.keras.layers.Dense(1)])
        model.compile(loss="mse", optimizer="adam")
        base.trainable = True
        model.compile(loss="mse", optimizer="adam")
        """,
    ]

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        self._compiled: set = set()  # models compiled (by origin)
        self._frozen: dict = {}  # model -> (where trainable was switched off after its compile, the calls around it)
        self._done: set[int] = set()

    call_names = frozenset({"compile", "fit", "train_on_batch"})

    @staticmethod
    def _model(v):
        if v is None or v.kind != "module":
            return None
        key = frozenset(o for o in v.live if o.certain)
        return key or None

    def on_call(self, ev: CallEvent) -> None:
        if ev.method not in ("compile", "fit", "train_on_batch") or ev.recv is None:
            return
        m = self._model(ev.recv)
        if m is None:
            return
        if ev.method == "compile":
            self._compiled.add(m)
            self._frozen.pop(m, None)
            return
        frozen = self._frozen.get(m)
        if frozen is None:
            return
        where, calls = frozen
        depth = len(ev.ctx.calls)
        if len(calls) > depth and calls[:depth] == ev.ctx.calls:
            where = calls[depth]  # switched in a helper (`make_trainable(d, False)`): its call here
        if id(where) in self._done:
            return
        self._done.add(id(where))
        self.report(
            where,
            lambda line, ev=ev: (
                f"trainable is switched off here, after the model was compiled, and the model is trained on line "
                f"{line(ev.node)} with the flag still off: Keras 2 ignores the change until the next compile() (the "
                f"weights keep training), Keras 3 honours it (the model trains nothing, \"does not have any trainable "
                f"weights\"); set `trainable = True` before its own training call, or compile after changing it"
            ),
        )

    def on_attrset(self, ev) -> None:
        if ev.attr != "trainable":
            return
        m = self._model(ev.target)
        if m is None:
            return
        off = ev.value.get(F.CONST)
        if off is False and m in self._compiled:
            self._frozen[m] = (ev.node, ev.ctx.calls)
        elif off is not False:
            self._frozen.pop(m, None)


class SubmoduleNotInOptimizer(Rule):
    code = "GL710"
    name = "submodule-not-in-optimizer"
    message = "the optimizer is built from some submodules' parameters and leaves out one the loss uses: it gets gradients and is never updated"
    severity = Severity.WARNING
    docs = "https://pytorch.org/docs/stable/optim.html#per-parameter-options"
    triggers = ("parameters()",)
    rationale = """
        Parameter groups listed by hand (`Adam([{"params": model.bert.parameters()},
        {"params": model.cls.parameters(), "lr": 1e-3}])`, or
        `list(model.encoder.parameters()) + list(model.decoder.parameters())`) have to name
        every trained part of the model. A layer the forward pass uses but no group names
        receives gradients in every `backward()`, the optimizer never updates it, and it stays
        at its random initialisation; nothing raises, the loss still goes down through the other
        layers.

        Reported at the optimizer when the model is a class of the file, two or more of its
        submodules are listed in the optimizer and one that the backpropagated loss depends on
        is in no optimizer of the file; not for a single group (a linear probe trains its head
        and leaves the backbone as it is), not for a part named as kept on purpose (a backbone,
        a teacher, a target or momentum copy), not when the layer was frozen (`requires_grad_(False)`), when
        a parameter group is added later (`add_param_group`), or when a group is built by code
        the analysis cannot follow.

        The same holds for a module of the file other than the model whose own nn.Parameters
        the loss uses (a contrastive loss with a learnable temperature, learned task-uncertainty
        weights) when the only optimizer holds the model's parameters: reported when the loss
        also trains the model through that optimizer and the module is not part of the model.

        Instead: add the missing group, or build the groups from `model.named_parameters()` so
        that every parameter lands in one (the optimizer then fails loudly on a parameter
        listed twice).
    """
    invalid = [
        Invalid(
            """
            import torch
            import torch.nn as nn

            class Tagger(nn.Module):
                def __init__(self):
                    super().__init__()
                    self.encoder = nn.Linear(16, 8)
                    self.proj = nn.Linear(8, 8)
                    self.cls = nn.Linear(8, 4)

                def forward(self, x):
                    return self.cls(self.proj(self.encoder(x)))

            model = Tagger()
            optimizer = torch.optim.Adam([
                {"params": model.encoder.parameters(), "lr": 5e-5},
                {"params": model.cls.parameters()},
            ], lr=1e-3)
            loss = nn.functional.cross_entropy(model(torch.randn(2, 16)), torch.tensor([0, 1]))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            """,
            line=15,
        ),
    ]
    valid = [
        """
        import torch
        import torch.nn as nn

        class Tagger(nn.Module):
            def __init__(self):
                super().__init__()
                self.encoder = nn.Linear(16, 8)
                self.proj = nn.Linear(8, 8)
                self.cls = nn.Linear(8, 4)

            def forward(self, x):
                return self.cls(self.proj(self.encoder(x)))

        model = Tagger()
        model.proj.requires_grad_(False)
        optimizer = torch.optim.Adam([
            {"params": model.encoder.parameters(), "lr": 5e-5},
            {"params": model.cls.parameters()},
        ], lr=1e-3)
        loss = nn.functional.cross_entropy(model(torch.randn(2, 16)), torch.tensor([0, 1]))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        """,
        """
        import torch
        import torch.nn as nn

        class Tagger(nn.Module):
            def __init__(self):
                super().__init__()
                self.encoder = nn.Linear(16, 8)
                self.cls = nn.Linear(8, 4)

            def forward(self, x):
                return self.cls(self.encoder(x))

        model = Tagger()
        optimizer = torch.optim.Adam([
            {"params": model.encoder.parameters(), "lr": 5e-5},
            {"params": [p for n, p in model.named_parameters() if not n.startswith("encoder")]},
        ], lr=1e-3)
        loss = nn.functional.cross_entropy(model(torch.randn(2, 16)), torch.tensor([0, 1]))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        """,
    ]

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        self._modules: dict = {}  # origin of a module instance of the file -> its value
        self._optimizers: list = []  # (call node, origins it holds, understood)
        self._steps: list[OptEvent] = []
        self._diffs: list[DiffEvent] = []

    def on_call(self, ev: CallEvent) -> None:
        r = ev.result
        if _record_module(self._modules, r):
            return
        if r.kind == "optimizer" and (ev.qual or "").startswith("torch.optim."):
            params = ev.arg(0, "params")
            self._optimizers.append((ev.node, frozenset(r.get(F.OPT_PARAMS) or ()), params is not None and _understood(params)))

    def on_opt(self, ev: OptEvent) -> None:
        if ev.kind == "step":
            self._steps.append(ev)

    def on_diff(self, ev: DiffEvent) -> None:
        if ev.kind == "backward":
            self._diffs.append(ev)

    def finish(self) -> None:
        if not self._optimizers or not all(u for _, _, u in self._optimizers) or "add_param_group" in self.ctx.code_text:
            return
        if any(s.target.kind != "optimizer" or s.target.get(F.SYM) or s.target.get(F.EVIDENCED) for s in self._steps):
            return  # an optimizer made where the analysis does not see (a parameter, a factory)
        held = frozenset().union(*(p for _, p, _ in self._optimizers))
        for ev in self._diffs:
            for parent in [o for o in ev.target.live if o in self._modules and o not in held]:
                model = self._modules[parent]
                subs = [(a, v) for a, v in (model.get(F.FIELDS) or {}).items() if v is not None and _trainable_class(v)]
                listed = [a for a, v in subs if module_origins(v) & held]
                parts = frozenset().union(*(module_origins(v) for a, v in subs if a in listed))
                if not listed:
                    self._module_left_out(ev, parent, model, held)
                    continue
                if len(listed) < 2:
                    # one group is a choice (a linear probe trains its head, the backbone stays as
                    # it is); groups listing parts one by one are meant to name every trained part
                    continue
                for attr, v in subs:
                    origins = module_origins(v)
                    if origins & held or not (v.live & ev.target.live) or any(o.frozen for o in v.live):
                        continue
                    if _KEPT_AS_IS.search(attr):
                        continue  # a pretrained backbone, a teacher, a momentum/target copy: left out on purpose
                    if re.search(r"\." + re.escape(attr) + r"\s*(\.\s*\w+\s*)*(\.\s*(weight|bias)\s*=(?!=)|\.\s*requires_grad"
                                 r"|\.\s*eval\s*\(|\.\s*train\s*\(\s*(False|mode\s*=\s*False))", self.ctx.code_text):
                        continue  # tied to another layer's weight, or frozen by hand (or kept in eval mode: a fixed feature extractor)
                    self._report(ev, parent, attr, listed, parts)

    def _module_left_out(self, ev: DiffEvent, parent, model, held: frozenset) -> None:
        """A module of the file other than the model (a contrastive loss with a learnable
        temperature, uncertainty weights) owns nn.Parameters the backpropagated loss uses, no
        optimizer holds any of them, and the optimizer stepped after it trains the model the same
        loss goes through: those parameters get gradients and never change."""
        trained = held & ev.target.live
        if not trained or _KEPT_AS_IS.search(origin_name(parent)) or any(o.frozen for o in model.live):
            return
        if self.ctx.interp.holders_of(parent) & held or any(module_origins(m) & {parent} for m in self._modules.values() if m.live & held):
            return  # a submodule of a model the optimizer holds (`self.gc1` of the GCN): its parameters are the model's
        own = [a for a, v in (model.get(F.FIELDS) or {}).items()
               if v is not None and v.get(F.PARAM) and v.get(F.RG) is not False and not any(o.frozen for o in v.live)]
        if not own or re.search(r"\.\s*(" + "|".join(map(re.escape, own)) + r")\s*\.\s*requires_grad", self.ctx.code_text):
            return
        node = next((n for n, p, _ in self._optimizers if p & trained), None)
        if node is None:
            return
        owner = origin_name(parent).strip("`")
        self.report(
            node,
            lambda line, ev=ev, owner=owner, attr=own[0]: (
                f"`{owner}.{attr}` is an nn.Parameter the loss backpropagated on line {line(ev.node)} uses, but no optimizer "
                f"holds `{owner}`'s parameters (this one holds the model's): it gets gradients and is never updated; add "
                f"`{owner}.parameters()` to the optimizer (e.g. `itertools.chain(model.parameters(), {owner}.parameters())`)"
            ),
            key=("GL710", id(node), owner),
        )

    def _report(self, ev: DiffEvent, parent, attr: str, listed: list[str], parts: frozenset) -> None:
        node = next((n for n, p, _ in self._optimizers if p & parts), None)  # the optimizer built from the parts
        if node is None:
            return
        owner = origin_name(parent).strip("`")
        groups = ", ".join(f"`{owner}.{a}`" for a in listed)
        self.report(
            node,
            lambda line, ev=ev, owner=owner, attr=attr, groups=groups: (
                f"`{owner}.{attr}` is used by the loss backpropagated on line {line(ev.node)}, but no optimizer holds its "
                f"parameters (the groups name {groups}): it gets gradients and is never updated; add "
                f"`{owner}.{attr}.parameters()` to a group, or build the groups from `{owner}.named_parameters()`"
            ),
            key=("GL710", id(node), attr),
        )


_KEPT_AS_IS = re.compile(r"backbone|pretrain|frozen|freeze|teacher|target|ema|momentum|key_enc|_k$|fixed|vgg|clip", re.I)


def _record_module(modules: dict, r) -> bool:
    """Remember a module instance of the file's classes by its origins (origin -> its value, with
    the fields its methods set); True when `r` is one."""
    if r.kind == "module" and r.get(F.FIELDS):
        for o in r.live:
            modules.setdefault(o, r)
        return True
    return False


def _understood(params) -> bool:
    """The optimizer's `params` argument holds only what the analysis followed: no part of it
    comes out of code it does not see (`itertools.chain(...)`, a helper of another module)."""
    stack = [params]
    seen: set = set()
    while stack:
        v = stack.pop()
        if v is None or id(v) in seen:
            continue
        seen.add(id(v))
        if v.cuts or (v.kind is None and not v.live):
            return False
        stack.extend(v.get(F.ITEMS) or ())
        keys = v.get(F.KEYS)
        if isinstance(keys, dict):
            stack.extend(keys.values())
    return True


# optimizers that keep a state between steps (moment estimates, momentum buffers, curvature
# pairs); SGD does only with momentum
_STATEFUL_OPTIMIZERS = frozenset({
    "Adam", "AdamW", "Adamax", "NAdam", "Nadam", "RAdam", "RMSprop", "Adagrad", "Adadelta", "SparseAdam",
    "Rprop", "ASGD", "Ftrl", "Lion", "Adafactor", "AdamWeightDecay",
})  # not LBFGS: one step(closure) is a whole run of max_iter iterations


class OptimizerCreatedPerStep(Rule):
    code = "GL711"
    message = "an optimizer with state (Adam, momentum SGD, ...) is created anew for every step: its state restarts each time"
    severity = Severity.WARNING
    docs = "https://pytorch.org/docs/stable/optim.html"
    triggers = tuple(sorted(_STATEFUL_OPTIMIZERS | {"SGD"}))
    rationale = """
        Adam's moment estimates, RMSprop's running average and SGD's momentum buffer live in
        the optimizer object. Constructed inside the training loop (or inside the function
        that performs one training step) and stepped once, each optimizer starts from empty
        state: every update is a first update (for Adam about `lr` times the sign of the
        gradient, whatever its size), momentum never builds up, and a learning-rate scheduler
        attached to it restarts too. Inside a `tf.function` training step the new optimizer's
        variables are created on every call, which TensorFlow refuses on the second one
        ("tf.function only supports singleton tf.Variables created on the first call").

        Instead: create the optimizer once, before the loop, and reuse it. (An optimizer made
        per task and stepped several times in an inner loop — per-example fine-tuning, a
        meta-learning inner loop — is not reported.)
    """
    invalid = [
        Invalid(
            """
            import torch
            import torch.nn as nn
            model = nn.Linear(10, 1)
            for x, y in [(torch.randn(8, 10), torch.randn(8, 1))] * 100:
                optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
                loss = (model(x) - y).pow(2).mean()
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
            """,
            line=5,
        )
    ]
    valid = [
        """
        import torch
        import torch.nn as nn
        model = nn.Linear(10, 1)
        optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
        for x, y in [(torch.randn(8, 10), torch.randn(8, 1))] * 100:
            loss = (model(x) - y).pow(2).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        for task in range(5):
            fast = nn.Linear(10, 1)
            inner = torch.optim.Adam(fast.parameters(), lr=1e-2)
            for step in range(10):
                inner.zero_grad()
                fast(torch.randn(4, 10)).pow(2).mean().backward()
                inner.step()
        """
    ]
    call_names = _STATEFUL_OPTIMIZERS | {"SGD"}

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        self._made: dict = {}  # id(creation node) -> the creation's CallEvent
        self._factory_call: dict = {}  # id(creation node) -> the call of the function that returned it
        self._done: set = set()

    def on_function(self, ev) -> None:
        r = ev.returns
        if ev.kind == "inline" and ev.ctx.calls and r is not None and r.kind == "optimizer" and id(r.get(F.CREATED)) in self._made:
            # `opt = build_optimizer(model, cfg)`: a factory returned it; the call is what to move
            self._factory_call[id(r.get(F.CREATED))] = (ev.ctx.calls[-1], ev.ctx.run)

    def on_call(self, ev: CallEvent) -> None:
        r = ev.result
        if r.kind != "optimizer" or r.get(F.CREATED) is not ev.node:
            return
        if ev.name == "SGD":
            m = ev.arg(2, "momentum")
            if m is None or m.get(F.CONST, 0) in (0, 0.0):
                return  # plain SGD keeps nothing between steps
        self._made[id(ev.node)] = ev

    def on_opt(self, ev: OptEvent) -> None:
        if ev.kind != "step":
            return
        made = self._made.get(id(ev.target.get(F.CREATED)))
        if made is None or made.ctx.run != ev.ctx.run or id(made.node) in self._done:
            return
        loops = ev.ctx.loops
        if loops and made.ctx.loops == loops and self._kept_parameters(made, loops[-1][0]) \
                and not _guarded(self.ctx, made.node, loops[-1][0]):
            # (`if self.optimizer is None: self.optimizer = Adam(...)`: made on the first step only)
            where = loops[-1][0]
            self._done.add(id(made.node))
            call, run = self._factory_call.get(id(made.node), (None, None))
            site = call if call is not None and run == ev.ctx.run and _within(self.ctx, call, where) else made.node
            self.report(site, lambda line, where=where, step=ev.node: (
                f"this optimizer is created anew in every iteration of the loop on line {line(where)} and stepped once "
                f"(line {line(step)}): its state (moment estimates, momentum) starts from zero each step, so every "
                "update is a first update; create it once before the loop"))
        elif not made.ctx.loops and made.ctx.fn is not None and made.ctx.fn is ev.ctx.fn and self._tf_function(made.ctx.fn):
            self._done.add(id(made.node))
            self.report(made.node, lambda line, step=ev.node: (
                "this optimizer is created inside a tf.function training step that applies it (line "
                f"{line(step)}): its variables are made on every call, which TensorFlow refuses after the first "
                "(\"tf.function only supports singleton tf.Variables created on the first call\"), and its state would "
                "restart each step; create it once outside the function"))

    def _kept_parameters(self, made: CallEvent, loop) -> bool:
        """What it updates is proven to outlive the iteration: known parameters, none of them
        made in the loop body (a new model or perturbation each iteration wants a new optimizer;
        parameters of an object the analysis does not see, maybe reloaded each time, prove
        nothing)."""
        params = made.result.get(F.OPT_PARAMS) or ()
        return bool(params) and all(o.certain and o.node is not None and not _within(self.ctx, o.node, loop) for o in params)

    @staticmethod
    def _tf_function(fn) -> bool:
        return any(d in ("tensorflow.function", "tf.function") for d in fn.decorators)


class ModelReplacedAfterOptimizer(Rule):
    code = "GL712"
    name = "model-replaced-after-optimizer"
    message = "the model is replaced by a new one after the optimizer was built over the old one's parameters: the new model is never updated"
    severity = Severity.WARNING
    docs = "https://pytorch.org/docs/stable/optim.html#constructing-it"
    triggers = ("parameters()",)
    rationale = """
        An optimizer holds the parameter tensors it was given when it was constructed, not the
        name they were reached through. `optimizer = Adam(model.parameters())` followed later by
        `model = Net2()` (a changed architecture, a model re-created before the training loop,
        a checkpoint's class instantiated again) leaves the optimizer updating the old model's
        tensors: the new model's loss is backpropagated, its gradients fill up, and
        `optimizer.step()` changes nothing it uses. Nothing raises; the loss simply never goes
        down (pytorch/pytorch#54765, spro/practical-pytorch#9).

        Reported at the rebinding when a model built by a constructor call replaces one the
        optimizer was built over, the loss that is then backpropagated depends on the new
        model and not the old one, and that optimizer steps. Moving or wrapping a model
        (`model.to(device)`, `DistributedDataParallel(model)`, `torch.compile(model)`) keeps its
        parameters and is not a replacement.

        Instead: build the optimizer after the model is final, or build a new one for the new
        model (`optimizer = Adam(model.parameters())` after the rebinding).
    """
    invalid = [
        Invalid(
            """
            import torch
            import torch.nn as nn
            net = nn.Linear(4, 1)
            optimizer = torch.optim.Adam(net.parameters(), lr=3e-2)
            net = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))
            for _ in range(5):
                optimizer.zero_grad()
                nn.functional.mse_loss(net(torch.randn(16, 4)), torch.randn(16, 1)).backward()
                optimizer.step()
            """,
            line=5,
        )
    ]
    valid = [
        """
        import torch
        import torch.nn as nn
        net = nn.Linear(4, 1)
        optimizer = torch.optim.Adam(net.parameters(), lr=3e-2)
        net = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))
        optimizer = torch.optim.Adam(net.parameters(), lr=3e-2)
        net = net.to("cpu")
        for _ in range(5):
            optimizer.zero_grad()
            nn.functional.mse_loss(net(torch.randn(16, 4)), torch.randn(16, 1)).backward()
            optimizer.step()
        """
    ]

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        # (run, replacement node) -> (the node, old module origins, new module origins, its seq)
        self._replaced: dict = {}
        self._trained: dict = {}  # (run, replacement node) -> the backward that trains the new model alone
        self._optimizers: dict = {}  # id(optimizer creation node) -> seq of its creation
        self._creations: list = []  # (seq, origins it holds) of every optimizer creation run
        self._wrapping: dict = {}  # id(module construction) -> origins of the modules it was given
        self._done: set = set()

    def on_call(self, ev: CallEvent) -> None:
        r = ev.result
        if r.get(F.CREATED) is not ev.node:
            return
        if r.kind == "optimizer":
            self._optimizers.setdefault(id(ev.node), ev.seq)
            self._creations.append((ev.seq, frozenset(r.get(F.OPT_PARAMS) or ())))
        elif r.kind == "module":
            # `DDP(model)`, `nn.Sequential(backbone, head)`: built around modules, whose
            # parameters it keeps
            given = frozenset(o for a in [*ev.args, *ev.kwargs.values()] if a.kind == "module" for o in a.live)
            if given:
                self._wrapping[id(ev.node)] = given

    def on_assign(self, ev) -> None:
        old, new = ev.old, ev.value
        if ev.op is not None or old is None or old.kind != "module" or new.kind != "module":
            return
        made = new.get(F.CREATED)
        if not (new.get(F.FRESH_ORIGIN) and isinstance(made, cst.Call) and made is getattr(ev.node, "value", None)) \
                or self._wrapping.get(id(made), frozenset()) & old.live:
            return  # not a constructor call written here (`model.to(device)`, `DDP(model)` keep the parameters)
        old_o = frozenset(old.live)
        new_o = frozenset(o for o in new.live if o.certain)
        if not old_o or not new_o or old_o & new_o or len(self._replaced.get((ev.ctx.run, id(ev.node)), ())) > 4:
            return  # (a layer of a module replaced: on_store's)
        self._replaced[(ev.ctx.run, id(ev.node))] = (ev.node, old_o, new_o, ev.seq)

    def on_store(self, ev) -> None:
        """`model.fc = nn.Linear(512, 10)`: a layer of the model replaced by a new one (its old
        parameters may stay in an optimizer built before; the new ones are in none)."""
        new, holder = ev.value, ev.container
        if ev.kind not in ("attr", "item") or new is None or new.kind != "module" or holder is None or holder.kind != "module":
            return  # (`model.fc = ...`, `model.classifier[-1] = ...`)
        made = new.get(F.CREATED)
        if not (new.get(F.FRESH_ORIGIN) and isinstance(made, cst.Call) and made is ev.value_node):
            return
        new_o = frozenset(o for o in new.live if o.certain)
        holder_o = frozenset(o for o in holder.live if o.certain)
        if not any(seq < ev.seq and holder_o and holder_o <= params for seq, params in self._creations):
            return  # no optimizer was built over this model before: its construction, not a replacement
        if new_o and holder_o and not new_o & holder_o and not self._wrapping.get(id(made), frozenset()):
            target = ev.node.targets[0].target if isinstance(ev.node, cst.Assign) and len(ev.node.targets) == 1 else None
            layer = ev.attr if ev.kind == "attr" else self.ctx.code(target) if target is not None else None
            if layer is not None:
                self._replaced[(ev.ctx.run, id(ev.node))] = (ev.node, holder_o, new_o, ev.seq, layer)

    def on_diff(self, ev: DiffEvent) -> None:
        if ev.kind != "backward":
            return
        live = set(ev.target.live)
        for key, (_node, old_o, new_o, _seq, *layer) in self._replaced.items():
            # the new model alone (not the old), or the new layer inside the model that holds it
            if key[0] == ev.ctx.run and new_o <= live and (bool(layer) or not old_o & live):
                self._trained.setdefault(key, ev)

    def on_opt(self, ev: OptEvent) -> None:
        if ev.kind != "step" or ev.target.kind != "optimizer":
            return
        params = frozenset(ev.target.get(F.OPT_PARAMS) or ())
        built = ev.target.get(F.CREATED)
        # built before the replacement, or given from outside (a parameter, an attribute): it
        # cannot hold the new model's parameters, whatever it holds
        built_at = self._optimizers.get(id(built)) if built is not None else -1
        if built_at is None or "add_param_group" in self.ctx.code_text:
            return
        for key, (node, old_o, new_o, seq, *layer) in self._replaced.items():
            trained = self._trained.get(key)
            if key in self._done or key[0] != ev.ctx.run or trained is None or trained.seq > ev.seq or built_at > seq:
                continue
            if params & new_o or params and not old_o <= params or layer and not params:
                continue  # (built over the old model: the one it updates; over others: not this pitfall)
            self._done.add(key)
            if layer:
                self.report(node, lambda line, built=built, step=ev.node, attr=layer[0]: (
                    f"this replaces the layer `{attr}` of a model after the optimizer on line {line(built)} was built over "
                    f"its parameters: the optimizer holds the old layer's, so its step() (line {line(step)}) never updates "
                    f"the new one, whose gradients the loss fills; replace the layer before building the optimizer, or "
                    f"add its parameters with `optimizer.add_param_group(...)`"))
                continue
            self.report(
                node,
                lambda line, built=built, step=ev.node: (
                    (f"this replaces the model the optimizer on line {line(built)} was built over: its step() (line "
                     f"{line(step)}) keeps updating the old model's parameters"
                     if built is not None else
                     f"this replaces the model with a new one, but the optimizer stepped on line {line(step)} comes from "
                     f"outside and was made before it: it cannot hold the new model's parameters")
                    + "; the new model, whose loss is backpropagated, is never updated. Build the optimizer after the "
                    "model is final, or a new one for the new model"
                ),
            )


# what walks the whole of an iterable it is given: an optimizer's constructor (its `params`, or
# the `params` of each group), gradient clipping (_CLIPPERS, above), and Python's materialising builtins
_MATERIALISERS = frozenset({"list", "tuple", "sorted", "set"})


def _one_shots(v: Val | None, depth: int = 0) -> list[Val]:
    """The one-shot iterators in an optimizer's `params` argument: itself, or the `params` of
    its groups (`[{"params": gen, "lr": 1e-3}, ...]`)."""
    if v is None or depth > 2:
        return []
    if v.get(F.ONE_SHOT) is not None:
        return [v]
    out: list[Val] = []
    for item in v.get(F.ITEMS) or ():
        out += _one_shots(item, depth + 1)
    keys = v.get(F.KEYS) or {}
    if "params" in keys:
        out += _one_shots(keys["params"], depth + 1)
    return out


class ExhaustedParameterIterator(Rule):
    code = "GL713"
    message = "a one-shot iterator of parameters (model.parameters(), filter(...), a generator) is walked a second time: it is empty"
    severity = Severity.ERROR
    docs = "https://pytorch.org/docs/stable/optim.html#constructing-it"
    triggers = ("parameters()", "filter(", "map(", "iter(", " for ")
    rationale = """
        `model.parameters()` returns a generator, and so do `filter(...)`, `map(...)` and a
        generator expression: it can be walked once. Kept in a variable or attribute
        (`params = model.parameters()`, `self.hyper_params = filter(lambda p: ..., net.parameters())`),
        the first walk — the optimizer's constructor — exhausts it, and every later one sees
        nothing: `clip_grad_norm_(params, 1.0)` in the loop clips no gradient, an optimizer
        rebuilt at the next epoch (a learning-rate change, a new stage) gets an empty group and
        leaves those parameters untrained, `list(params)` is empty. Nothing raises (an
        optimizer whose only group is empty raises "optimizer got an empty parameter list").

        Reported when the iterator is walked again in straight-line code after a first walk,
        or walked inside a loop it was created outside of (the second iteration gets nothing).

        Instead: materialise it once (`params = list(model.parameters())`) or call
        `model.parameters()` again where it is needed.
    """
    invalid = [
        Invalid(
            """
            import torch
            model = torch.nn.Linear(4, 1)
            params = model.parameters()
            opt = torch.optim.SGD(params, lr=0.1)
            for x, y in [(torch.randn(8, 4), torch.randn(8, 1))] * 3:
                opt.zero_grad()
                torch.nn.functional.mse_loss(model(x), y).backward()
                torch.nn.utils.clip_grad_norm_(params, 1.0)
                opt.step()
            """,
            line=8,
        )
    ]
    valid = [
        """
        import torch
        model = torch.nn.Linear(4, 1)
        params = list(model.parameters())
        opt = torch.optim.SGD(params, lr=0.1)
        for x, y in [(torch.randn(8, 4), torch.randn(8, 1))] * 3:
            opt.zero_grad()
            torch.nn.functional.mse_loss(model(x), y).backward()
            torch.nn.utils.clip_grad_norm_(params, 1.0)
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
        """
    ]

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        # id(node that made the iterator) -> [(the call that walked it, its ctx.calls, its ctx.run)]
        self._walks: dict[int, list] = {}

    def on_call(self, ev: CallEvent) -> None:
        name = ev.name or ""
        if ev.result.kind == K.OPTIMIZER and ev.qual is not None:
            walked, what = _one_shots(ev.arg(0, "params")), "the optimizer gets no parameters from it"
        elif name in _CLIPPERS and ev.qual is not None:
            walked, what = _one_shots(ev.arg(0, "parameters")), "nothing is clipped"
        elif name in _MATERIALISERS and ev.qual in (None, f"builtins.{name}") and ev.method is None and ev.args:
            walked, what = [v for v in ev.args[:1] if v.get(F.ONE_SHOT) is not None], "the result is empty"
        else:
            return
        for v in walked:
            made = v.get(F.ONE_SHOT)
            key = id(made)
            earlier = self._walks.setdefault(key, [])
            why = self._why_empty(ev, made, earlier)
            earlier.append((ev.node, ev.ctx.calls, ev.ctx.run))
            if why is not None:
                self.report(
                    ev.node,
                    lambda line, made=made, why=why, what=what: (
                        f"this walks `{shortened(self.ctx.code(made), 60)}` (line {line(made)}), a one-shot iterator {why(line)}: it is "
                        f"empty here, so {what}; materialise it once with `list(...)` or call `.parameters()` again"
                    ),
                )

    def _why_empty(self, ev: CallEvent, made, earlier: list):
        for node, calls, run in earlier:
            if node is ev.node:
                continue
            if calls == ev.ctx.calls and self._dominates(node, ev.node) or self._in_init_before(node, ev.node) \
                    or run == ev.ctx.run and self._top_level(node):
                return lambda line, node=node: f"already walked on line {line(node)}"
        home = self._function_of(ev.node)
        if self._function_of(made) is not home:
            return None  # made by another function (called per iteration, it makes a new one each time)
        for loop, _ in ev.ctx.loops:
            if isinstance(loop, (cst.For, cst.While)) and self._function_of(loop) is home and self._inside(ev.node, loop) \
                    and not self._inside(made, loop):
                return lambda line, loop=loop: f"made before the loop on line {line(loop)}, whose first iteration exhausts it"
        return None

    def _function_of(self, node):
        return next((a for a in self.ctx.ancestors(node) if isinstance(a, (cst.FunctionDef, cst.Lambda))), None)

    def _inside(self, node, container) -> bool:
        return any(a is container for a in self.ctx.ancestors(node))

    def _block_of(self, node):
        """The innermost block (an indented body, or the module) holding `node`."""
        return next((a for a in self.ctx.ancestors(node) if isinstance(a, (cst.IndentedBlock, cst.Module))), None)

    def _top_level(self, node) -> bool:
        """`node` is in a statement of the module itself, run unconditionally (not in a function,
        a branch or a loop): whatever the same run does later comes after it."""
        return isinstance(self._block_of(node), cst.Module)

    def _in_init_before(self, first, second) -> bool:
        """`first` runs unconditionally in `__init__`, and `second` in another method of the same
        class: the object's constructor ran before any of its methods."""
        fn_first = next((a for a in self.ctx.ancestors(first) if isinstance(a, cst.FunctionDef)), None)
        fn_second = next((a for a in self.ctx.ancestors(second) if isinstance(a, cst.FunctionDef)), None)
        if fn_first is None or fn_second is None or fn_first.name.value != "__init__" or fn_first is fn_second:
            return False
        cls = _enclosing_class(self.ctx, fn_first)
        block = next((a for a in self.ctx.ancestors(first) if isinstance(a, cst.IndentedBlock)), None)
        return cls is not None and block is fn_first.body and self._inside(fn_second, cls)

    def _dominates(self, first, second) -> bool:
        """`first` certainly ran before `second`: in the same function, in a block that contains
        `second` (not a branch or loop body that `second` is outside of)."""
        block = self._block_of(first)
        if block is None or self._function_of(first) is not self._function_of(second):
            return False
        # (a top-level statement ran before any later module-level code; the first pass may
        # have parsed the two statements as separate modules)
        return isinstance(block, cst.Module) or self._inside(second, block)
