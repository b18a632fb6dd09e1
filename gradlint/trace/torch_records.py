"""What the torch probe records while the program runs (imports torch: runs only in the
traced process): cuts out of the graph, per-parameter, per-backward and per-optimizer records,
the state of one trace session (TorchState), the modules created, and the words and codes of
each kind of cut. torch_probe.py fills them in; torch_explain.py and torch_findings.py read them.
"""

from __future__ import annotations

import collections
import itertools
import sys
import types
import weakref

import torch

from . import sites
from .sites import Site
from .state import Session
from .torch_graph import Tensor, leaves_of

# codes by the kind of cut (docs/trace.md): a conversion out of torch, a detach, a no_grad
# block, an operation without a derivative
CUT_CODES = {"item": "GL101", "float": "GL101", "int": "GL101", "numpy": "GL101", "tolist": "GL101",
             "array": "GL101", "tensor": "GL102", "detach": "GL103", "data": "GL103", "no_grad": "GL104",
             "nondiff": "GL410"}
CUT_WORDS = {"item": "`.item()`", "float": "`float()`", "int": "`int()`", "numpy": "`.numpy()`",
             "tolist": "`.tolist()`", "array": "a NumPy conversion", "tensor": "`torch.tensor(...)`",
             "detach": "`.detach()`", "data": "`.data`", "no_grad": "a `no_grad` block",
             "nondiff": "an operation without a derivative"}

MAX_CUTS = 512
MAX_LIVE_PER_STEP = 20000
MAX_INPLACE = 512


def cut_advice(kind: str) -> str:
    return {
        "item": "keep the tensor (`.item()` is for logging)",
        "float": "keep the tensor (`float()` is for logging)",
        "int": "keep the tensor",
        "numpy": "compute it with torch operations instead of NumPy",
        "tolist": "keep the tensor",
        "array": "compute it with torch operations instead of NumPy",
        "tensor": "combine the tensors with `torch.stack`/`torch.cat` instead of `torch.tensor(...)`",
        "detach": "remove the detach on this path (keep it only where a constant target is intended)",
        "data": "use the tensor itself, not `.data`",
        "no_grad": "compute it outside `torch.no_grad()` (or take these parameters out of the optimizer if they "
                   "are meant to stay frozen)",
        "nondiff": "use a differentiable surrogate",
    }[kind]


class Cut:
    __slots__ = ("kind", "site", "gen", "node", "leaves", "op", "_reach")

    def __init__(self, kind, site, gen, node, leaves, op) -> None:
        self.kind, self.site, self.gen, self.node, self.leaves, self.op = kind, site, gen, node, leaves, op
        self._reach: set[int] | None = None

    def reaches(self) -> set[int]:
        """ids of the leaf tensors this value depended on (computed on demand, once)."""
        if self._reach is None:
            r = set(self.leaves)
            if self.node is not None:
                r |= leaves_of([self.node])
            self._reach = r
            self.node = None  # the graph is no longer needed
        return self._reach


class PState:
    """What is known about one parameter (or other leaf that requires grad)."""

    __slots__ = ("ref", "pending", "consumed_upto", "got", "missing", "zero", "version", "reached",
                 "discarded")

    def __init__(self, p) -> None:
        self.ref = weakref.ref(p)
        self.pending: list = []  # backward records whose gradients are in .grad now
        self.consumed_upto = 0  # backward records up to this sequence number were used by a step
        self.got = 0  # steps at which it had a non-zero gradient
        self.missing = 0  # steps at which its optimizer stepped without a gradient for it
        self.zero = 0  # ... with an all-zero gradient
        self.version = p._version
        self.reached = False  # some backward reached it
        self.discarded: list = []  # (backward record, zero_grad call) cleared before any step used them


class BRec:
    """One backward pass."""

    __slots__ = ("seq", "site", "gen", "retain", "reached", "opseq", "walked")

    def __init__(self, seq, site, gen, retain, root, reached, opseq=0, walked=frozenset()) -> None:
        # (the root node is not kept: a retained graph must not outlive the program's own use;
        # `walked` holds node ids only, to tell later which backward freed a node still alive)
        self.seq, self.site, self.gen, self.retain, self.reached = seq, site, gen, retain, reached
        self.opseq, self.walked = opseq, walked


class OState:
    __slots__ = ("ref", "site", "count", "seq_at_last_step", "gen_at_last_step")

    def __init__(self, opt, site) -> None:
        self.ref = weakref.ref(opt)
        self.site = site
        self.count = 0
        self.seq_at_last_step = 0
        self.gen_at_last_step = 0


class TorchState:
    """The torch-side state of one Session."""

    def __init__(self, session: Session, mode_code: types.CodeType) -> None:
        self.s = session
        self.mode_code = mode_code  # of the recorder's __torch_function__ (user_called looks for it)
        self.gen = 1
        self.seq = itertools.count(1)
        self.opts: dict[int, OState] = {}
        self.opt_params: dict[int, int] = {}  # param id -> optimizer id (first holder)
        self.primary: int | None = None
        self.optimizers_created = 0
        self.params: dict[int, PState] = {}
        self.backwards: list[BRec] = []
        self.cuts: list[Cut] = []
        self.zero_nodes: list[Cut] = []  # zero-derivative ops (round, floor, sign) seen at backward
        self.inplace: collections.deque = collections.deque(maxlen=MAX_INPLACE)
        self.live: dict[int, list] = collections.defaultdict(list)
        self.edges: dict = {}  # site of the op -> (site of the old value, its step, this step)
        self.zero_grads: list = []  # (seq after the last backward, site)
        self.nograd_stack: list = []
        self.grad_disabled_by: Site | None = None
        self.fp16 = False  # float16 autocast was entered
        # Iterations: an op counter orders everything; an iteration ends when the optimizer that
        # closes the cycle of optimizer steps (D then G in a GAN) has stepped. The cycle is known
        # once the first optimizer steps again; until then the first optimizer's steps count.
        self.opseq = itertools.count(1)
        self.now = 0
        self.last_post = 0  # op counter at the latest optimizer step
        self.order: list[int] = []
        self.cycle_last: int | None = None
        self.posts: dict[int, list[int]] = collections.defaultdict(list)
        self.in_step = 0
        self.forward_depth = 0
        self.module_stack: list = []
        self.nested_in: dict[int, tuple] = {}  # id(module) -> (module ref, parent module ref, call site)
        self.backward_count = 0
        self.nan_reported = False
        self.retained_any = False

    # ------------------------------------------------------------------ helpers
    def boundaries(self) -> list[int]:
        """Op counters at which iterations ended (after the last optimizer of the cycle)."""
        last = self.cycle_last if self.cycle_last is not None else (self.order[-1] if self.order else None)
        return list(self.posts.get(last, [])) if last is not None else []

    def iteration_of(self, opseq: int, bounds: list[int]) -> int:
        import bisect

        return 1 + bisect.bisect_right(bounds, opseq)

    def pstate(self, p) -> PState:
        st = self.params.get(id(p))
        if st is None or st.ref() is not p:
            st = self.params[id(p)] = PState(p)
        return st

    def site(self) -> Site | None:
        """The innermost user frame above this call (gradlint's and torch's frames are not the
        user's, so the walk passes them)."""
        return sites.user_site(self.s.is_user, start=sys._getframe(1))

    def user_called(self) -> bool:
        """Was the current torch call made by the user's code (or inside a module's forward)?
        Library code (an optimizer, clip_grad_norm_, nn.init) working on parameters is not."""
        if self.forward_depth > 0:
            return True
        f = sys._getframe(1)
        while f is not None and f.f_code is not self.mode_code:
            f = f.f_back
        caller = f.f_back if f is not None else None
        return caller is not None and self.s.is_user(caller.f_code.co_filename)

    def add_cut(self, kind: str, t: Tensor | None, op: str, leaves=()) -> None:
        if len(self.cuts) >= MAX_CUTS or self.in_step:
            return
        if not self.user_called():
            return
        site = self.site()
        if site is None:
            return
        if kind == "no_grad":
            site = self.nograd_stack[-1] if self.nograd_stack else (self.grad_disabled_by or site)
        node = t.grad_fn if t is not None else None
        lv = tuple(leaves)
        if t is not None and node is None and t.requires_grad:
            lv = lv + (id(t),)
        self.cuts.append(Cut(kind, site, self.gen, node, lv, op))

    def find_cut(self, ids: set[int], prefer_gen: int | None = None) -> Cut | None:
        """The recorded cut that took these leaves (by id) out of a graph; with `prefer_gen`,
        one of that step first."""
        order = sorted(self.cuts, key=lambda c: (c.gen != prefer_gen, -c.gen)) if prefer_gen else list(self.cuts)
        for c in order:
            if c.reaches() & ids:
                return c
        return None

    def zero_grad_op(self, ids: set[int]) -> tuple | None:
        """The zero-derivative operation (seen at a backward) between the loss and these
        parameters: (site, op name)."""
        for c in reversed(self.zero_nodes):
            if c.reaches() & ids:
                return c.site, c.op
        return None


class Modules:
    """Every nn.Module created while tracing (weakly held), with the user's line that created
    it: owners and names of parameters for the findings."""

    def __init__(self) -> None:
        self.sites: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
        self.all: weakref.WeakSet = weakref.WeakSet()

    def __contains__(self, m) -> bool:
        return m in self.sites

    def add(self, m, site: Site | None) -> None:
        self.sites[m] = site
        self.all.add(m)

    def site_of(self, m) -> Site | None:
        return self.sites.get(m)

    def owners(self) -> dict[int, tuple]:
        """param id -> (module, attribute name)."""
        out = {}
        for m in list(self.all):
            for name, p in m._parameters.items():
                if p is not None and id(p) not in out:
                    out[id(p)] = (m, name)
        return out

    def names_of(self, params: list, limit: int = 3) -> str:
        """`model.fc.weight`, `Net.head.bias` and 2 more: the parameters as the user names them."""
        roots = self._root_names()
        names = []
        for p in params[:limit]:
            names.append(f"`{roots.get(id(p), 'a ' + 'x'.join(map(str, p.shape)) + ' parameter')}`")
        more = f" and {len(params) - limit} more" if len(params) > limit else ""
        return ", ".join(names) + more

    def _root_names(self) -> dict[int, str]:
        main = sys.modules.get("__main__")
        g = vars(main) if main is not None else {}
        named = {}
        for var, obj in list(g.items()):
            if isinstance(obj, Tensor) and obj.requires_grad:
                named.setdefault(id(obj), var)
            elif isinstance(obj, torch.nn.Module):
                for qual, p in obj.named_parameters():
                    named.setdefault(id(p), f"{var}.{qual}")
        for m in list(self.all):
            cls = type(m).__name__
            for qual, p in m.named_parameters():
                named.setdefault(id(p), f"{cls}.{qual}")
        return named
