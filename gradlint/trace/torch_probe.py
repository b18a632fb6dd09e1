"""PyTorch instrumentation for `gradlint trace` (imports torch: runs only in the traced process).

Cheap, precise mechanisms, chosen per question (docs/trace.md, "How it works"):

- a `TorchFunctionMode` sees every top-level torch call of the program. It stores, in the
  autograd node of each output, the user's line that created it and the step it belongs to
  (`node.metadata`, so the information lives exactly as long as the graph), keeps a weak
  reference to outputs with history (graphs kept alive across steps), notes operations that
  take a tensor with history out of the graph (`.item()`, `float()`, `.numpy()`, `.detach()`,
  `.data`, `torch.tensor(...)`, an op under `no_grad`, an op without a derivative) and in-place
  operations, and intercepts `backward`/`autograd.grad`. Nested calls inside a torch function
  are not seen (the mode is off while the outer call runs), which is what keeps it cheap;
- global optimizer step pre/post hooks count steps, check which parameters got gradients and
  whether those gradients were already used by an earlier step;
- at `backward`, one walk of the autograd graph from the loss gives the parameters it reaches;
  hooks on the few node types that can turn finite gradients into NaN/Inf name the operation;
- module creation and forward hooks give parameters an owner and a line;
- errors autograd raises (a freed graph, an in-place change of a saved tensor, a loss without
  a graph) are traced back to the operation that caused them.
"""

from __future__ import annotations

import collections
import gc
import itertools
import os
import sys
import types
import weakref

import torch
from torch.overrides import TorchFunctionMode

from . import sites
from .sites import Site, short
from .state import Session, current

Tensor = torch.Tensor
_MethodWrapper = type((1).__add__)

# node types whose backward can turn finite incoming gradients into NaN/Inf (sqrt at 0, log at
# 0, division by 0, norms at 0, inverse trigonometry at +-1, ...): only these get hooks.
_RISKY_NODES = frozenset(
    n + "Backward0" for n in (
        "Sqrt", "Rsqrt", "Log", "Log2", "Log10", "Log1P", "Div", "Reciprocal", "Pow", "Acos", "Asin",
        "Atanh", "Acosh", "Atan2", "Norm", "LinalgVectorNorm", "Cdist", "Std", "Var", "Exp", "Exp2",
        "Expm1", "Lgamma", "Digamma", "Polygamma", "Erfinv", "Tan", "Sinh", "Cosh", "Logit", "Xlogy",
        "Hypot", "Where", "Prod", "Cholesky", "LinalgCholeskyEx", "LinalgEigh", "Svd", "LinalgSvd",
        "Dist", "Renorm", "Mvlgamma", "Logsumexp", "BinaryCrossEntropy", "Sigmoid", "Tanh",
        "Softplus", "Clamp", "Mul", "Cumprod", "Angle", "Atan", "Sgn",
    )
) | frozenset(("PowBackward1", "PowBackward2", "DivBackward1", "NormBackward1", "WhereBackward0",
               "StdBackward0", "VarBackward0", "LinalgVectorNormBackward0"))
# non-differentiable operations that still produce a gradient: zero everywhere
_ZERO_GRAD_NODES = frozenset(("RoundBackward0", "RoundBackward1", "FloorBackward0", "CeilBackward0",
                              "SignBackward0", "TruncBackward0"))

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


class Cut:
    __slots__ = ("kind", "site", "gen", "node", "leaves", "op", "_reach")

    def __init__(self, kind, site, gen, node, leaves, op) -> None:
        self.kind, self.site, self.gen, self.node, self.leaves, self.op = kind, site, gen, node, leaves, op
        self._reach = None

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


def leaves_of(roots) -> set[int]:
    """ids of the leaf tensors (AccumulateGrad variables) reachable from autograd nodes."""
    out: set[int] = set()
    seen: set[int] = set()
    stack = [n for n in roots if n is not None]
    while stack:
        n = stack.pop()
        if id(n) in seen:
            continue
        seen.add(id(n))
        var = getattr(n, "variable", None)
        if var is not None:
            out.add(id(var))
            continue
        for child, _ in n.next_functions:
            if child is not None:
                stack.append(child)
    return out


def _tensors(args, kwargs):
    for a in args:
        if isinstance(a, Tensor):
            yield a
        elif isinstance(a, (list, tuple)):
            for b in a:
                if isinstance(b, Tensor):
                    yield b
    if kwargs:
        for a in kwargs.values():
            if isinstance(a, Tensor):
                yield a


def _history(t: Tensor) -> bool:
    return t.requires_grad


class TorchState:
    """The torch-side state of one Session."""

    def __init__(self, session: Session) -> None:
        self.s = session
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
        while f is not None and f.f_code is not _TF_CODE:
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


class Mode(TorchFunctionMode):
    """The always-on recorder (see the module docstring)."""

    def __init__(self, probe: "TorchProbe") -> None:
        super().__init__()
        self.probe = probe

    def __torch_function__(self, func, types_, args=(), kwargs=None):
        st = self.probe.state
        if st is None or st.s.passive:
            return func(*args, **(kwargs or {}))
        special = SPECIAL.get(func)
        if special is None and type(func) is _MethodWrapper:
            special = _descriptor_special(func)
        if special is not None:
            return special(self.probe, st, func, args, kwargs or {})
        out = func(*args, **(kwargs or {}))
        if st.in_step:
            return out
        first = out
        if type(out) in (tuple, list) and out:
            first = out[0]
        if isinstance(first, Tensor):
            node = first.grad_fn
            if node is not None:
                self.probe.record_output(st, func, first, node, args, kwargs)
            elif first.is_floating_point() or first.dtype in _INT_DTYPES or first.dtype is torch.bool:
                if any(t.requires_grad for t in _tensors(args, kwargs)):
                    self.probe.record_lost(st, func, first, args, kwargs)
            if first.dtype is torch.float16:
                self.probe.check_overflow(st, func, first, args, kwargs)
        name = getattr(func, "__name__", "")
        if name.endswith("_") and not name.startswith("_") and args and isinstance(args[0], Tensor):
            self.probe.record_inplace(st, name, args[0])
        elif kwargs and kwargs.get("inplace") is True and args and isinstance(args[0], Tensor):
            self.probe.record_inplace(st, name, args[0])
        return out


_TF_CODE = Mode.__torch_function__.__code__
_INT_DTYPES = frozenset((torch.int64, torch.int32, torch.int16, torch.int8, torch.uint8))


def _descriptor_special(func):
    owner = getattr(func, "__self__", None)
    if func.__name__ == "__get__" and getattr(owner, "__name__", None) == "data":
        return _sp_data
    return None


def _sp_cut(kind):
    def handler(probe, st, func, args, kwargs):
        if args and isinstance(args[0], Tensor) and args[0].requires_grad:
            st.add_cut(kind, args[0], kind)
        return func(*args, **kwargs)

    return handler


def _sp_data(probe, st, func, args, kwargs):
    t = args[0] if args else None
    if isinstance(t, Tensor) and t.requires_grad and not st.in_step:
        st.add_cut("data", t, "data")
    return func(*args, **kwargs)


def _sp_tensor(probe, st, func, args, kwargs):
    # torch.tensor([t1, t2]) / torch.as_tensor copies values of tensors with history: a new leaf
    inner = [t for t in _tensors(args, kwargs) if t.requires_grad]
    if inner:
        leaves = set()
        for t in inner:
            if t.grad_fn is None:
                leaves.add(id(t))
        st.add_cut("tensor", None, "tensor", leaves | leaves_of([t.grad_fn for t in inner]))
    return func(*args, **kwargs)


def _sp_backward(probe, st, func, args, kwargs):
    return probe.backward(st, func, args, kwargs)


def _sp_grad(probe, st, func, args, kwargs):
    return probe.autograd_grad(st, func, args, kwargs)


SPECIAL: dict = {}


class TorchProbe:
    """Installed once per process; `state` follows the active session."""

    def __init__(self) -> None:
        self.mode = Mode(self)
        self._state: TorchState | None = None
        self._session: Session | None = None
        self.module_sites: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
        self.modules: weakref.WeakSet = weakref.WeakSet()

    @property
    def state(self) -> TorchState | None:
        s = current()
        if s is None:
            return None
        if s is not self._session:
            self._session = s
            self._state = TorchState(s)
            if "torch" not in s.frameworks:
                s.frameworks.append("torch")
            s.finalizers.append(self.finalize)
            s.explainers.append(self.explain)
        return self._state

    # ------------------------------------------------------------------ install
    def install(self) -> None:
        T = torch.Tensor
        for meth, kind in ((T.item, "item"), (T.__float__, "float"), (T.__int__, "int"), (T.numpy, "numpy"),
                           (T.tolist, "tolist"), (T.detach, "detach"), (T.detach_, "detach"),
                           (T.__array__, "array"), (T.__index__, "int")):
            SPECIAL[meth] = _sp_cut(kind)
        SPECIAL[torch.tensor] = _sp_tensor
        SPECIAL[torch.as_tensor] = _sp_tensor
        SPECIAL[T.backward] = _sp_backward
        SPECIAL[torch.autograd.backward] = _sp_backward
        SPECIAL[torch.autograd.grad] = _sp_grad
        self._patch_optim()
        self._patch_modules()
        self._patch_grad_modes()
        self._patch_amp()
        self.mode.__enter__()

    def _patch_optim(self) -> None:
        from torch.optim.optimizer import (Optimizer, register_optimizer_step_post_hook,
                                           register_optimizer_step_pre_hook)

        probe = self
        register_optimizer_step_pre_hook(lambda opt, a, k: probe.step_pre(opt))
        register_optimizer_step_post_hook(lambda opt, a, k: probe.step_post(opt))
        orig_init = Optimizer.__init__

        def __init__(self, *a, **k):
            orig_init(self, *a, **k)
            probe.optimizer_created(self)

        Optimizer.__init__ = __init__
        orig_zero = Optimizer.zero_grad

        def zero_grad(self, *a, **k):
            return probe.zero_grad(lambda: orig_zero(self, *a, **k))

        Optimizer.zero_grad = zero_grad
        orig_mzero = torch.nn.Module.zero_grad

        def module_zero_grad(self, *a, **k):
            return probe.zero_grad(lambda: orig_mzero(self, *a, **k))

        torch.nn.Module.zero_grad = module_zero_grad

    def _patch_modules(self) -> None:
        from torch.nn.modules.module import register_module_forward_hook, register_module_forward_pre_hook

        probe = self
        orig_init = torch.nn.Module.__init__

        def __init__(self, *a, **k):
            orig_init(self, *a, **k)
            probe.module_created(self)

        torch.nn.Module.__init__ = __init__
        register_module_forward_pre_hook(lambda m, a: probe.forward_enter(m))
        register_module_forward_hook(lambda m, a, o: probe.forward_exit(m), always_call=True)

    def _patch_grad_modes(self) -> None:
        probe = self
        gm = torch.autograd.grad_mode
        for cls in (gm.no_grad, gm.inference_mode):
            orig_enter, orig_exit = cls.__enter__, cls.__exit__

            def enter(self, _orig=orig_enter, _cls=cls):
                if _cls is not gm.inference_mode or getattr(self, "mode", True):
                    probe.nograd_enter()
                else:
                    probe.nograd_enter(None)
                return _orig(self)

            def exit_(self, *exc, _orig=orig_exit):
                probe.nograd_exit()
                return _orig(self, *exc)

            cls.__enter__, cls.__exit__ = enter, exit_
        orig_sge = gm.set_grad_enabled.__init__

        def sge_init(self, mode, _orig=orig_sge):
            probe.grad_enabled_set(bool(mode))
            return _orig(self, mode)

        gm.set_grad_enabled.__init__ = sge_init

    def _patch_amp(self) -> None:
        probe = self
        try:
            from torch.amp.autocast_mode import autocast
        except ImportError:  # pragma: no cover
            return
        orig_enter = autocast.__enter__

        def enter(self, _orig=orig_enter):
            out = _orig(self)
            if getattr(self, "_enabled", False) and getattr(self, "fast_dtype", None) is torch.float16:
                st = probe.state
                if st is not None:
                    st.fp16 = True
            return out

        autocast.__enter__ = enter
        try:
            from torch.amp.grad_scaler import GradScaler
        except ImportError:  # pragma: no cover
            return
        orig_scale = GradScaler.scale

        def scale(self, outputs, _orig=orig_scale):
            out = _orig(self, outputs)
            for t in (out if isinstance(out, (list, tuple)) else [out]):
                if isinstance(t, Tensor) and t.grad_fn is not None:
                    t.grad_fn.metadata["gl_scaled"] = True
            return out

        GradScaler.scale = scale

    # ------------------------------------------------------------------ modules, grad modes
    def module_created(self, m) -> None:
        st = self.state
        if st is None or m in self.module_sites:
            return
        f = sys._getframe(2)
        # skip the __init__ chain of the module itself (super().__init__() lines)
        while f is not None and (f.f_code.co_name == "__init__" and f.f_locals.get("self") is m
                                 or not st.s.is_user(f.f_code.co_filename)):
            f = f.f_back
        self.module_sites[m] = sites.site_of(f) if f is not None else None
        self.modules.add(m)

    def forward_enter(self, m) -> None:
        st = self.state
        if st is None:
            return
        st.forward_depth += 1
        if st.module_stack:
            parent = st.module_stack[-1]
            if id(m) not in st.nested_in:
                st.nested_in[id(m)] = (weakref.ref(m), weakref.ref(parent), st.site())
        st.module_stack.append(m)

    def forward_exit(self, m) -> None:
        st = self.state
        if st is None:
            return
        st.forward_depth = max(0, st.forward_depth - 1)
        if st.module_stack and st.module_stack[-1] is m:
            st.module_stack.pop()

    def nograd_enter(self, site=False) -> None:
        st = self.state
        if st is None:
            return
        st.nograd_stack.append(st.site() if site is False else site)

    def nograd_exit(self) -> None:
        st = self.state
        if st is not None and st.nograd_stack:
            st.nograd_stack.pop()

    def grad_enabled_set(self, mode: bool) -> None:
        st = self.state
        if st is not None:
            st.grad_disabled_by = None if mode else st.site()

    # ------------------------------------------------------------------ the forward
    def record_output(self, st: TorchState, func, out: Tensor, node, args, kwargs) -> None:
        md = node.metadata
        if "gl" in md:
            return  # an op that returned an existing tensor (a view of itself, in-place)
        site = st.site()
        if site is None:
            return
        st.now = now = next(st.opseq)
        md["gl"] = (site, now)
        live = st.live[st.gen]
        if len(live) < MAX_LIVE_PER_STEP:
            try:
                live.append((weakref.ref(out), site, now))
            except TypeError:  # pragma: no cover - a tensor subclass without weakrefs
                pass
        if st.last_post:
            for t in _tensors(args, kwargs):
                g = t.grad_fn
                if g is not None:
                    old = g.metadata.get("gl")
                    if old is not None and old[1] < st.last_post:
                        # older than the latest optimizer step: an iteration boundary may lie
                        # between them (decided at the end, when the cycle is known)
                        seen = st.edges.setdefault(site, [])
                        if len(seen) < 4:
                            seen.append((old[0], old[1], now))

    def record_lost(self, st: TorchState, func, out: Tensor, args, kwargs) -> None:
        """An op took a tensor with history and returned one without: a no_grad block, or an
        operation without a derivative (argmax, a comparison, an integer cast)."""
        if st.in_step:
            return
        inputs = [t for t in _tensors(args, kwargs) if t.requires_grad]
        if not torch.is_grad_enabled():
            kind = "no_grad"
        else:
            kind = "nondiff"
        leaves = {id(t) for t in inputs if t.grad_fn is None}
        nodes = [t.grad_fn for t in inputs if t.grad_fn is not None]
        if len(st.cuts) >= MAX_CUTS or not st.user_called():
            return
        site = st.site()
        if site is None:
            return
        if kind == "no_grad":
            site = st.nograd_stack[-1] if st.nograd_stack and st.nograd_stack[-1] else (st.grad_disabled_by or site)
        cut = Cut(kind, site, st.gen, None, tuple(leaves), getattr(func, "__name__", "op"))
        if nodes:
            cut.leaves = tuple(leaves | leaves_of(nodes))
        st.cuts.append(cut)

    def record_inplace(self, st: TorchState, name: str, t: Tensor) -> None:
        if st.in_step or not t.requires_grad:
            return
        site = st.site()
        if site is None:
            return
        st.inplace.append((site, name, tuple(t.shape), t._version, st.gen))

    def check_overflow(self, st: TorchState, func, out: Tensor, args, kwargs) -> None:
        if not bool(torch.isinf(out).any()):
            return
        if any(t.is_floating_point() and not bool(torch.isfinite(t).all()) for t in _tensors(args, kwargs)):
            return  # inf came in; the op that made it was reported (or is outside the trace)
        site = st.site()
        name = getattr(func, "__name__", "an operation")
        st.s.report("GL604", site,
                    f"`{name}` overflows float16 here: its result has inf although its inputs are finite (float16's "
                    f"largest value is 65504); compute it in float32 (or bfloat16), or rescale its inputs")

    # ------------------------------------------------------------------ optimizers
    def optimizer_created(self, opt) -> None:
        st = self.state
        if st is None:
            return
        st.optimizers_created += 1
        site = None
        f = sys._getframe(2)
        while f is not None and (not st.s.is_user(f.f_code.co_filename)
                                 or (f.f_code.co_name == "__init__" and f.f_locals.get("self") is opt)):
            f = f.f_back
        if f is not None:
            site = sites.site_of(f)
        st.opts[id(opt)] = OState(opt, site)

    def ostate(self, st: TorchState, opt) -> OState:
        o = st.opts.get(id(opt))
        if o is None or o.ref() is not opt:
            o = st.opts[id(opt)] = OState(opt, None)
        return o

    @staticmethod
    def params_of(opt) -> list:
        return [p for g in opt.param_groups for p in g["params"] if isinstance(p, Tensor)]

    def zero_grad(self, call):
        st = self.state
        if st is None or st.s.passive:
            return call()
        st.in_step += 1
        try:
            return call()
        finally:
            st.in_step -= 1
            site = st.site()
            st.zero_grads.append((st.backward_count, site))

    def step_pre(self, opt) -> None:
        st = self.state
        if st is None or st.s.passive:
            return
        o = self.ostate(st, opt)
        if st.primary is None:
            st.primary = id(opt)
        if st.cycle_last is None and id(opt) in st.order:
            st.cycle_last = st.order[-1]
        counts = [x.count for x in st.opts.values() if x.count > 0 and x.ref() is not None]
        if o.count >= st.s.steps and (not counts or min(counts) >= st.s.steps):
            st.s.steps_done = o.count if id(opt) == st.primary else st.s.steps_done
            st.s.step_budget_reached()
            if st.s.passive:
                return
        st.in_step += 1
        try:
            self.check_step(st, opt, o)
        finally:
            st.in_step -= 1
        st.in_step += 1  # the update itself is not the user's forward

    def step_post(self, opt) -> None:
        st = self.state
        if st is None:
            return
        st.in_step = max(0, st.in_step - 1)
        if st.s.passive:
            return
        o = self.ostate(st, opt)
        for c in st.cuts + st.zero_nodes:
            c.node = None  # never keep a step's graph alive past the step (memory, kept-graph checks)
        st.now = st.last_post = next(st.opseq)
        st.posts[id(opt)].append(st.now)
        if st.cycle_last is None and id(opt) not in st.order:
            st.order.append(id(opt))
        o.count += 1
        o.seq_at_last_step = st.backward_count
        o.gen_at_last_step = st.gen
        if id(opt) == st.primary:
            st.gen += 1
            st.s.steps_done = o.count

    def check_step(self, st: TorchState, opt, o: OState) -> None:
        params = [p for p in self.params_of(opt) if p.requires_grad]
        if not params:
            return
        for p in params:
            st.opt_params.setdefault(id(p), id(opt))
        nonzero = _nonzero([p.grad for p in params])
        any_grad = any(nonzero)
        if not all(nonzero):
            for c in st.cuts + st.zero_nodes:  # while their graphs still exist
                if c.node is not None:
                    c.reaches()
        since = [b for b in st.backwards if b.seq > o.seq_at_last_step]
        for p, nz in zip(params, nonzero):
            ps = st.pstate(p)
            if nz:
                ps.got += 1
                stale = [b for b in ps.pending if b.seq <= o.seq_at_last_step]
                if stale and o.count > 0:
                    fresh = [b for b in ps.pending if b.seq > o.seq_at_last_step]
                    at = fresh[0] if fresh else stale[-1]
                    st.s.report(
                        "GL302", at.site,
                        f"this backward() adds its gradients to ones an earlier optimizer step already used: nothing clears "
                        f"them between steps (step {o.count + 1} of the optimizer created at {short(o.site)} uses the sum of "
                        f"{len(ps.pending)} backward passes); call `optimizer.zero_grad()` at the start of each iteration",
                        [(b.site, "an earlier backward whose gradients are still in .grad") for b in stale[:1]],
                    )
            else:
                if p.grad is None:
                    ps.missing += 1
                else:
                    ps.zero += 1
                if since and any(id(p) in b.reached for b in since) and not any_grad:
                    self.report_cleared(st, opt, o, since)
            # discarded micro-batch gradients of the same backward line
            if ps.discarded and nz:
                fresh_sites = {b.site for b in ps.pending}
                for b, zsite in ps.discarded:
                    if b.site in fresh_sites and zsite is not None and b.seq > o.seq_at_last_step:
                        st.s.report(
                            "GL303", zsite,
                            f"this zero_grad() throws away the gradients of the backward() at {short(b.site)} before any "
                            f"optimizer step uses them: step {o.count + 1} of the optimizer sees only the last micro-batch; to "
                            f"accumulate gradients over micro-batches, clear them only after `optimizer.step()`",
                            [(b.site, "the backward whose gradients were cleared")],
                        )
                        break
            ps.discarded = []
            ps.consumed_upto = st.backward_count  # .grad still holds them until something clears it

    def report_cleared(self, st: TorchState, opt, o: OState, since: list) -> None:
        last = since[-1]
        clears = [z for z in st.zero_grads if z[0] >= last.seq and z[1] is not None]
        if clears:
            st.s.report(
                "GL303", clears[-1][1],
                f"zero_grad() clears the gradients that the backward() at {short(last.site)} just computed, before the "
                f"optimizer step uses them: the optimizer steps with zero/None gradients; move zero_grad() before the "
                f"forward pass (or after step())",
                [(last.site, "the backward whose gradients are cleared")],
            )

    # ------------------------------------------------------------------ backward
    def backward(self, st: TorchState, func, args, kwargs):
        if st.in_step:
            return func(*args, **kwargs)
        site = st.site()
        roots = _roots(func, args, kwargs)
        retain = _retain(func, args, kwargs)
        root_nodes = [t.grad_fn for t in roots if isinstance(t, Tensor) and t.grad_fn is not None]
        root_leaves = [t for t in roots if isinstance(t, Tensor) and t.grad_fn is None and t.requires_grad]
        nodes, reached = _walk(root_nodes)
        reached_params = list(reached.values()) + root_leaves
        for n in nodes:
            if type(n).__name__ in _ZERO_GRAD_NODES and len(st.zero_nodes) < MAX_CUTS:
                meta = _node_meta(n)
                if meta is not None:
                    st.zero_nodes.append(Cut("nondiff", meta[0], st.gen, n, (), _op_name(n)))
        seq = st.backward_count + 1
        rec = BRec(seq, site, st.gen, retain, None, {id(p) for p in reached_params}, st.now,
                   frozenset(id(n) for n in nodes) if not retain else frozenset())
        self.before_backward(st, rec, reached_params)
        scaled = any(n.metadata.get("gl_scaled") for n in root_nodes)
        self.check_loss(st, rec, roots, root_nodes)
        hooks = self.nan_hooks(st, nodes, scaled)
        st.in_step += 1
        try:
            return func(*args, **kwargs)
        except RuntimeError as exc:
            self.explain_backward_error(st, exc, rec, nodes, roots, root_nodes)
            raise
        finally:
            st.in_step -= 1
            for h in hooks:
                h.remove()
            st.backward_count = seq
            st.backwards.append(rec)
            if len(st.backwards) > 64:
                del st.backwards[: len(st.backwards) - 64]
            if retain:
                st.retained_any = True
            self.after_backward(st, rec, reached_params, scaled, roots)

    def autograd_grad(self, st: TorchState, func, args, kwargs):
        if st.in_step:
            return func(*args, **kwargs)
        roots = _roots(func, args, kwargs)
        root_nodes = [t.grad_fn for t in roots if isinstance(t, Tensor) and t.grad_fn is not None]
        site = st.site()
        rec = BRec(st.backward_count, site, st.gen, _retain(func, args, kwargs), None, set(), st.now)
        nodes, _ = _walk(root_nodes)
        if not rec.retain:
            rec.walked = frozenset(id(n) for n in nodes)
        st.in_step += 1
        try:
            return func(*args, **kwargs)
        except RuntimeError as exc:
            self.explain_backward_error(st, exc, rec, nodes, roots, root_nodes)
            raise
        finally:
            st.in_step -= 1
            st.backwards.append(rec)

    def before_backward(self, st: TorchState, rec: BRec, reached: list) -> None:
        """Per parameter: were its current gradients used by a step already (accumulation
        across steps) or cleared before any step used them (micro-batches cleared)?"""
        if not reached:
            return
        nonzero = _nonzero([p.grad for p in reached])
        last_zero = None
        for z in reversed(st.zero_grads):
            if z[0] >= st.backward_count:
                last_zero = z[1]
                break
        for p, nz in zip(reached, nonzero):
            ps = st.pstate(p)
            ps.reached = True
            if not nz:
                unconsumed = [b for b in ps.pending if b.seq > ps.consumed_upto]
                if unconsumed:
                    ps.discarded.extend((b, last_zero) for b in unconsumed)
                ps.pending = []
            ps.pending.append(rec)

    def after_backward(self, st: TorchState, rec: BRec, reached: list, scaled: bool, roots) -> None:
        grads = [p.grad for p in reached if p.grad is not None]
        if not grads:
            return
        norms = _norms(grads)
        if not st.nan_reported and any(n != n or n in (float("inf"), float("-inf")) for n in norms) and not scaled:
            st.nan_reported = True
            bad = [p for p, n in zip([p for p in reached if p.grad is not None], norms)
                   if n != n or n in (float("inf"), float("-inf"))]
            names = self.names_of(st, bad)
            st.s.report(
                "GL603", rec.site,
                f"this backward() produced NaN/Inf gradients for {names}; the operation that produced them was not "
                f"one gradlint watches (run with `torch.autograd.detect_anomaly()` around this step to find it)",
            )
        fp16 = any(r.dtype is torch.float16 for r in roots if isinstance(r, Tensor)) or st.fp16 \
            or any(g.dtype is torch.float16 for g in grads)
        if fp16 and not scaled:
            self.check_underflow(st, rec, reached, grads)

    def check_underflow(self, st: TorchState, rec: BRec, reached, grads) -> None:
        total = small = 0
        all_zero = []
        tiny = 2.0 ** -14  # float16's smallest normal number
        for p, g in zip([p for p in reached if p.grad is not None], grads):
            a = g.detach().abs().float()
            n = a.numel()
            total += n
            small += int(((a > 0) & (a < tiny)).sum())
            if n and not bool(a.any()):
                all_zero.append(p)
        if total and (small / total >= 0.001 or all_zero):
            pct = 100.0 * small / total
            extra = f"; {self.names_of(st, all_zero)} got all-zero gradients" if all_zero else ""
            st.s.report(
                "GL406", rec.site,
                f"backward() on a float16 loss without a GradScaler: {pct:.1f}% of the gradient values are below "
                f"float16's smallest normal number (6.1e-05) and lose precision or flush to zero{extra}; scale the "
                f"loss with `torch.amp.GradScaler` (or use bfloat16)",
            )

    def check_loss(self, st: TorchState, rec: BRec, roots, root_nodes) -> None:
        """A loss that is already NaN/Inf: find the forward operation that produced it (the
        graph's saved tensors are still there before backward)."""
        if st.nan_reported:
            return
        for r in roots:
            if isinstance(r, Tensor) and r.is_floating_point() and r.numel() <= 64 and not bool(torch.isfinite(r.detach()).all()):
                st.nan_reported = True
                producer = _nonfinite_producer(root_nodes)
                where = _node_site(producer) if producer is not None else None
                if where is not None and st.s.has("GL604", where):
                    return  # a float16 overflow, reported as such
                if where is not None:
                    st.s.report(
                        "GL603", where,
                        f"`{_op_name(producer)}` here produces NaN/Inf in the forward pass (its inputs are finite): the loss "
                        f"differentiated at {short(rec.site)} is {float(r.detach().float().sum())} and every gradient "
                        f"becomes NaN; guard its input (clamp, add an epsilon) or compute it stably",
                        [(rec.site, "the backward of the non-finite loss")],
                    )
                else:
                    st.s.report("GL603", rec.site,
                                "the loss differentiated here is NaN/Inf: every gradient becomes NaN; its inputs (data or "
                                "parameters) were already non-finite")
                return

    def nan_hooks(self, st: TorchState, nodes, scaled: bool) -> list:
        if st.nan_reported or scaled:
            return []
        handles = []
        probe = self

        for n in nodes:
            if type(n).__name__ in _RISKY_NODES:
                def hook(grad_inputs, grad_outputs, node=n):
                    if st.nan_reported:
                        return None
                    if _all_finite(grad_outputs) and not _all_finite(grad_inputs):
                        probe.nan_found(st, node)
                    return None

                try:
                    handles.append(n.register_hook(hook))
                except RuntimeError:  # pragma: no cover - a node that takes no hooks
                    pass
        return handles

    def nan_found(self, st: TorchState, node) -> None:
        st.nan_reported = True
        where = _node_site(node)
        op = _op_name(node)
        st.s.report(
            "GL603", where,
            f"the gradient of `{op}` here is NaN/Inf although the gradient flowing into it is finite (e.g. sqrt or a "
            f"norm at 0, log at 0, division by 0): every parameter before it gets a NaN gradient; add an epsilon or "
            f"clamp its input",
        )

    # ------------------------------------------------------------------ errors
    def explain(self, exc: BaseException) -> bool:
        return getattr(exc, "_gradlint_explained", False)

    def explain_backward_error(self, st, exc, rec: BRec, nodes, roots, root_nodes) -> None:
        msg = str(exc)
        explained = False
        if "backward through the graph a second time" in msg:
            explained = self.explain_freed(st, rec, nodes)
        elif "modified by an inplace operation" in msg:
            explained = self.explain_inplace(st, rec, msg)
        elif "does not require grad and does not have a grad_fn" in msg:
            explained = self.explain_no_graph(st, rec, roots)
        if explained:
            try:
                exc._gradlint_explained = True
            except AttributeError:  # pragma: no cover
                pass

    def explain_freed(self, st: TorchState, rec: BRec, nodes) -> bool:
        freed = [n for n in nodes if _is_freed(n)]
        if not freed:
            return False
        # which earlier backward walked (and freed) them
        prev, node = None, None
        for b in reversed(st.backwards):
            if b is rec or b.retain:
                continue
            hits = [n for n in freed if id(n) in b.walked]
            hit = next((n for n in hits if _node_meta(n) is not None), hits[0] if hits else None)
            if hit is not None:
                prev, node = b, hit
                break
        meta = _node_meta(node if node is not None else freed[0])
        bounds = st.boundaries()
        if prev is not None and meta is not None and \
                st.iteration_of(meta[1], bounds) < st.iteration_of(rec.opseq, bounds) and prev.site == rec.site:
            # a value of an earlier iteration carried into this one: where does it enter?
            entry = _entry_site(nodes, prev.opseq)
            if entry is not None:
                st.s.report(
                    "GL201", entry,
                    f"a value computed in an earlier iteration (at {short(meta[0])}) enters this iteration's graph here "
                    f"without being detached; the backward() at {short(rec.site)} already freed its graph in that "
                    f"iteration, so it raises \"Trying to backward through the graph a second time\"; detach what is "
                    f"carried across iterations (e.g. `h = h.detach()`, `total += loss.item()`)",
                    [(rec.site, "the backward that raised"), (meta[0], "where the carried value was computed")],
                )
                st.s.report("GL201", rec.site,
                            f"this backward() raises \"Trying to backward through the graph a second time\": its graph "
                            f"contains a value from an earlier iteration, carried in at {short(entry)}, whose graph this "
                            f"backward already freed",
                            [(entry, "where the old value enters the graph")])
                return True
        shared = f"the part of the graph built at {short(meta[0])}" if meta else "part of its graph"
        if prev is not None:
            st.s.report(
                "GL201", prev.site,
                f"this backward() frees the graph, and the backward() at {short(rec.site)} goes through {shared} again "
                f"(RuntimeError: Trying to backward through the graph a second time); pass `retain_graph=True` here if "
                f"the graph is meant to be reused, or detach the shared part (e.g. `fake.detach()`)",
                [(rec.site, "the backward that raised")] + ([(meta[0], "the shared part")] if meta else []),
            )
        st.s.report(
            "GL201", rec.site,
            f"this backward() goes through {shared}, which "
            + (f"the backward() at {short(prev.site)} already freed" if prev else "an earlier backward already freed")
            + " (RuntimeError: Trying to backward through the graph a second time)",
            [(prev.site, "the backward that freed it")] if prev else [],
        )
        return True

    def explain_inplace(self, st: TorchState, rec: BRec, msg: str) -> bool:
        import re

        m = re.search(r"\[(?:torch\.)?\w+ \[([\d, ]*)\]\](?:, which is output (\d+) of (\w+),)? is at version (\d+); "
                      r"expected version (\d+)", msg)
        if not m:
            return False
        shape = tuple(int(x) for x in m.group(1).replace(" ", "").split(",") if x)
        expected = int(m.group(5))
        cands = [r for r in st.inplace if r[2] == shape and r[3] == expected + 1]
        if not cands:
            cands = [r for r in st.inplace if r[2] == shape and r[3] > expected]
        if not cands:
            return False
        site, name, _, _, _ = cands[-1]
        producer = m.group(3)
        what = f"the output of `{producer[:-len('Backward0')] if producer and producer.endswith('Backward0') else producer}`" \
            if producer else "a tensor"
        st.s.report(
            "GL306", site,
            f"`{name}` modifies {what} in place after an operation saved it for the backward pass: the backward() at "
            f"{short(rec.site)} raises \"one of the variables needed for gradient computation has been modified by an "
            f"inplace operation\"; write it out of place (`x = x + ...`, `inplace=False`)",
            [(rec.site, "the backward that raised")],
        )
        st.s.report("GL306", rec.site,
                    f"this backward() raises \"modified by an inplace operation\": the in-place `{name}` at {short(site)} "
                    f"changed a tensor the graph saved",
                    [(site, "the in-place operation")])
        return True

    def explain_no_graph(self, st: TorchState, rec: BRec, roots) -> bool:
        opt_ids = {id(p) for o in st.opts.values() if o.ref() is not None for p in self.params_of(o.ref())}
        if not opt_ids:
            opt_ids = {id(p) for m in list(self.modules) for p in m.parameters(recurse=False)}
        cut = self.find_cut(st, opt_ids, prefer_gen=rec.gen)
        if cut is None:
            return False
        code = CUT_CODES[cut.kind]
        st.s.report(
            code, cut.site,
            f"{CUT_WORDS[cut.kind]} here takes the value out of the autograd graph, so the loss differentiated at "
            f"{short(rec.site)} has no graph at all: backward() raises \"element 0 of tensors does not require grad\"; "
            + _cut_advice(cut.kind),
            [(rec.site, "the backward that raised")],
        )
        st.s.report(code, rec.site,
                    f"the loss differentiated here has no graph: {CUT_WORDS[cut.kind]} at {short(cut.site)} cut it",
                    [(cut.site, "the cut")])
        return True

    def find_cut(self, st: TorchState, ids: set[int], prefer_gen: int | None = None) -> Cut | None:
        order = sorted(st.cuts, key=lambda c: (c.gen != prefer_gen, -c.gen)) if prefer_gen else list(st.cuts)
        for c in order:
            if c.reaches() & ids:
                return c
        return None

    # ------------------------------------------------------------------ names
    def owners(self) -> dict[int, tuple]:
        """param id -> (module, attribute name)."""
        out = {}
        for m in list(self.modules):
            for name, p in m._parameters.items():
                if p is not None and id(p) not in out:
                    out[id(p)] = (m, name)
        return out

    def names_of(self, st: TorchState, params: list, limit: int = 3) -> str:
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
        for m in list(self.modules):
            cls = type(m).__name__
            for qual, p in m.named_parameters():
                named.setdefault(id(p), f"{cls}.{qual}")
        return named

    # ------------------------------------------------------------------ the end
    def finalize(self) -> None:
        st = self._state
        if st is None or st.s is not current():
            return
        self.finalize_params(st)
        self.finalize_unoptimized(st)
        self.finalize_kept(st)

    def finalize_params(self, st: TorchState) -> None:
        """Parameters in an optimizer that never got a gradient (in steps whose loss reached
        other parameters), with the operation that cut them."""
        stepped = [o for o in st.opts.values() if o.count > 0 and o.ref() is not None]
        if not stepped:
            return
        owners = None
        for o in stepped:
            opt = o.ref()
            params = [p for p in self.params_of(opt) if p.requires_grad]
            states = [st.params.get(id(p)) for p in params]
            if not any(s is not None and s.got for s in states):
                # nothing in this optimizer ever got a gradient: say so once (unless a backward
                # did reach them and something cleared the gradients: that is GL303's finding)
                if st.backwards and not any(s is not None and s.reached for s in states):
                    cut = self.find_cut(st, {id(p) for p in params})
                    self.report_starved(st, o, params, cut, whole=True)
                continue
            starved = [p for p, s in zip(params, states) if s is not None and s.got == 0 and (s.missing or s.zero)]
            if not starved:
                continue
            ids = {id(p) for p in starved}
            cut = self.find_cut(st, ids)
            if cut is not None:
                self.report_starved(st, o, starved, cut)
                continue
            if o.count < min(2, st.s.steps):
                continue  # one step is too little to call a missing gradient systematic
            zero = [p for p in starved if st.params[id(p)].zero]
            if zero:
                node_site = self.zero_grad_op(st, {id(p) for p in zero})
                if node_site is not None:
                    st.s.report(
                        "GL410", node_site[0],
                        f"`{node_site[1]}` has a zero derivative everywhere: {self.names_of(st, zero)} (in the optimizer "
                        f"created at {short(o.site)}) got only zero gradients in every traced step; use a differentiable "
                        f"surrogate (a straight-through estimator, a soft relaxation)",
                    )
                    continue
            if owners is None:
                owners = self.owners()
            by_module: dict = collections.defaultdict(list)
            for p in starved:
                m = owners.get(id(p), (None, None))[0]
                by_module[id(m) if m is not None else None].append((p, m))
            for items in by_module.values():
                m = items[0][1]
                where = self.module_sites.get(m) if m is not None else None
                where = where or o.site
                what = f"the parameters of this {type(m).__name__}" if m is not None else self.names_of(st, [p for p, _ in items])
                st.s.report(
                    "GL601", where,
                    f"{what} are in the optimizer created at {short(o.site)} but got no gradient in any of the "
                    f"{o.count} traced steps, while the loss reached other parameters: nothing the loss depends on "
                    f"used them (an unused layer, a branch not taken, or a graph cut gradlint could not see)",
                )

    def report_starved(self, st: TorchState, o: OState, params: list, cut: Cut | None, whole: bool = False) -> None:
        names = self.names_of(st, params)
        last = st.backwards[-1] if st.backwards else None
        if cut is None:
            if last is not None and whole:
                st.s.report(
                    "GL601", last.site,
                    f"none of the parameters of the optimizer created at {short(o.site)} got a gradient from this "
                    f"backward() in any of the {o.count} traced steps: the loss does not depend on them",
                )
            return
        loss_at = f" differentiated at {short(last.site)}" if last is not None else ""
        st.s.report(
            CUT_CODES[cut.kind], cut.site,
            f"{CUT_WORDS[cut.kind]} here cuts {names} (in the optimizer created at {short(o.site)}) from the loss"
            f"{loss_at}: they got no gradient in any of the {o.count} traced steps" + ("" if whole else
            ", while the loss reached the optimizer's other parameters") + "; " + _cut_advice(cut.kind),
            [(last.site, "the backward")] if last is not None else [],
        )

    def zero_grad_op(self, st: TorchState, ids: set[int]):
        """The zero-derivative operation (seen at a backward) between the loss and these
        parameters: (site, op name)."""
        for c in reversed(st.zero_nodes):
            if c.reaches() & ids:
                return c.site, c.op
        return None

    def finalize_unoptimized(self, st: TorchState) -> None:
        """Trainable parameters that backward reached, that no optimizer holds and that never
        changed — in a module in training mode, or one called inside an optimized module's
        forward (layers kept in a plain list)."""
        if not any(o.count > 0 for o in st.opts.values()):
            return
        held = set()
        for o in st.opts.values():
            opt = o.ref()
            if opt is not None:
                held.update(id(p) for p in self.params_of(opt))
        owners = self.owners()
        groups: dict = collections.defaultdict(list)
        for pid, ps in st.params.items():
            p = ps.ref()
            if p is None or not ps.reached or pid in held or not isinstance(p, torch.nn.Parameter):
                continue
            if p._version != ps.version or p.grad is None:
                continue
            m = owners.get(pid, (None, None))[0]
            if m is None:
                continue
            nest = st.nested_in.get(id(m))
            parent = nest[1]() if nest else None
            parent_trained = parent is not None and any(id(q) in held for q in parent.parameters())
            if not (m.training or parent_trained):
                continue
            site = self.module_sites.get(m)
            groups[site].append((m, p, parent if parent_trained else None))
        for site, items in groups.items():
            if site is None:
                continue
            mods = list({id(m): m for m, _, _ in items}.values())
            parent = next((par for _, _, par in items if par is not None), None)
            kind = type(mods[0]).__name__
            count = len(items)
            lst = _held_in_plain_container(mods[0], parent) if parent is not None else None
            if parent is not None:
                how = (f"they are called inside `{type(parent).__name__}.forward` but are not registered submodules of "
                       f"it" + (f" (kept in a plain {lst})" if lst else "") +
                       ", so `.parameters()` misses them; use `nn.ModuleList`/`nn.ModuleDict`")
            else:
                how = ("add them to the optimizer, or freeze them (`requires_grad_(False)`, `.eval()`) if they are meant "
                       "to stay fixed")
            layers = f"{len(mods)} {kind} layers" if len(mods) > 1 else f"this {kind}"
            st.s.report(
                "GL602", site,
                f"{layers} got gradients in every traced step but no optimizer holds their {count} parameters: they "
                f"never change; {how}",
            )

    def finalize_kept(self, st: TorchState) -> None:
        """Graphs of earlier iterations still alive: through a value carried across iterations
        (an op that uses it), or a container that keeps outputs."""
        bounds = st.boundaries()
        current = st.iteration_of(st.now, bounds)
        # carried values need the iteration boundaries: known once the first optimizer stepped
        # again (a program that crashed in its first iteration has none)
        edges = list(st.edges.items()) if st.cycle_last is not None else []
        for site, seen in edges:
            if st.s.has("GL201", site):
                continue
            for old_site, old_seq, new_seq in seen:
                a, b = st.iteration_of(old_seq, bounds), st.iteration_of(new_seq, bounds)
                if a >= b:
                    continue
                code = "GL202" if st.retained_any else "GL205"
                st.s.report(
                    code, site,
                    f"this operation combines a value with history from iteration {a} (computed at {short(old_site)}) "
                    f"with iteration {b}'s graph: every iteration's graph stays alive, chained to the next" +
                    (" (backward runs with retain_graph=True, so nothing is freed)" if st.retained_any else "") +
                    "; accumulate a Python number (`loss.item()`) or detach what is carried across iterations",
                    [(old_site, "where the carried value was computed")],
                )
                break
        if current < 3:
            return
        by_site: dict = collections.defaultdict(list)
        for items in st.live.values():
            for w, site, seq in items:
                it = st.iteration_of(seq, bounds)
                if it > current - 2:
                    continue
                t = w()
                if t is not None and t.grad_fn is not None:
                    by_site[site].append((t, it))
        for site, items in by_site.items():
            t, first = items[0]
            keeper = _keeper(st, t)
            where = keeper[0] if keeper else site
            holder = f" in `{keeper[1]}`" if keeper else ""
            st.s.report(
                "GL205", where,
                f"tensors with autograd history computed at {short(site)} in iteration {first} are still alive in "
                f"iteration {current}: they are kept{holder}, and each keeps its whole graph (activations included) "
                f"alive, so memory grows with every step; keep `loss.item()` (or `.detach()`) instead",
                [(site, "where the kept tensor was computed")],
            )


# ---------------------------------------------------------------------------- helpers
def _roots(func, args, kwargs) -> list:
    t = args[0] if args else kwargs.get("tensors", kwargs.get("outputs"))
    if isinstance(t, Tensor):
        return [t]
    if isinstance(t, (list, tuple)):
        return [x for x in t if isinstance(x, Tensor)]
    return []


def _retain(func, args, kwargs) -> bool | None:
    if "retain_graph" in kwargs:
        return kwargs["retain_graph"]
    if func is torch.Tensor.backward:
        if len(args) > 2:
            return args[2]
        return bool(kwargs.get("create_graph", args[3] if len(args) > 3 else False)) or None
    if func is torch.autograd.backward and len(args) > 2:
        return args[2]
    if func is torch.autograd.grad and len(args) > 3:
        return args[3]
    return bool(kwargs.get("create_graph")) or None


def _walk(roots):
    """All nodes reachable from `roots`, and the leaf tensors they accumulate into."""
    nodes = []
    reached: dict[int, Tensor] = {}
    seen: set[int] = set()
    stack = [n for n in roots if n is not None]
    while stack:
        n = stack.pop()
        if id(n) in seen:
            continue
        seen.add(id(n))
        nodes.append(n)
        var = getattr(n, "variable", None)
        if var is not None:
            reached[id(var)] = var
            continue
        for child, _ in n.next_functions:
            if child is not None:
                stack.append(child)
    return nodes, reached


def _nonzero(grads: list) -> list[bool]:
    present = [g for g in grads if g is not None]
    if not present:
        return [False] * len(grads)
    try:
        flags = torch.stack([g.detach().ne(0).any() for g in present]).tolist()
    except RuntimeError:  # different devices: one by one
        flags = [bool(g.detach().ne(0).any()) for g in present]
    it = iter(flags)
    return [False if g is None else bool(next(it)) for g in grads]


def _norms(grads: list) -> list[float]:
    try:
        return torch.stack([torch.linalg.vector_norm(g.detach().float()) for g in grads]).tolist()
    except RuntimeError:
        return [float(torch.linalg.vector_norm(g.detach().float())) for g in grads]


def _entry_site(nodes, before: int):
    """The site of a node created after op counter `before` whose input was created before it:
    where an old value enters the current graph."""
    for n in nodes:
        meta = _node_meta(n)
        if meta is None or meta[1] <= before:
            continue
        # look through the unrecorded nodes inside a composite op (an RNN cell, a loss)
        stack, seen = [c for c, _ in n.next_functions if c is not None], set()
        while stack:
            c = stack.pop()
            if id(c) in seen:
                continue
            seen.add(id(c))
            cm = _node_meta(c)
            if cm is not None:
                if cm[1] <= before:
                    return meta[0]
                continue
            stack.extend(x for x, _ in c.next_functions if x is not None)
    return None


def _all_finite(ts) -> bool:
    for t in ts:
        if isinstance(t, Tensor) and t.is_floating_point() and not bool(torch.isfinite(t).all()):
            return False
    return True


def _node_meta(node):
    try:
        return node.metadata.get("gl")
    except (AttributeError, RuntimeError):
        return None


def _node_site(node):
    """The line that created a node; nodes made inside a composite op (no record of their
    own) take the line of the nearest recorded node above them."""
    meta = _node_meta(node)
    if meta is not None:
        return meta[0]
    return None


def _op_name(node) -> str:
    name = type(node).__name__
    for suffix in ("Backward0", "Backward1", "Backward2"):
        if name.endswith(suffix):
            name = name[: -len(suffix)]
    return name.lower()


def _is_freed(node) -> bool:
    for attr in dir(node):
        if attr.startswith("_saved_"):
            try:
                getattr(node, attr)
            except RuntimeError as e:
                if "second time" in str(e) or "already been freed" in str(e):
                    return True
    return False


def _saved_tensors(node):
    for attr in dir(node):
        if attr.startswith("_saved_"):
            try:
                v = getattr(node, attr)
            except RuntimeError:
                continue
            if isinstance(v, Tensor):
                yield attr, v
            elif isinstance(v, (tuple, list)):
                for x in v:
                    if isinstance(x, Tensor):
                        yield attr, x


def _finite(t: Tensor) -> bool:
    return not t.is_floating_point() or bool(torch.isfinite(t).all())


def _nonfinite_producer(roots):
    """Before backward: the recorded forward op whose output is the first non-finite value."""
    order, seen, stack = [], set(), [(n, 0) for n in roots if n is not None]
    while stack:
        n, d = stack.pop()
        if id(n) in seen:
            continue
        seen.add(id(n))
        order.append((d, n))
        for child, _ in n.next_functions:
            if child is not None and getattr(child, "variable", None) is None:
                stack.append((child, d + 1))
    bad = []
    for d, n in order:
        saved = list(_saved_tensors(n))
        if any(not _finite(t) for _, t in saved):
            bad.append((d, n, saved))
    if not bad:
        return None
    bad.sort(key=lambda x: -x[0])
    d, n, saved = bad[0]
    results = [t for a, t in saved if a == "_saved_result"]
    inputs = [t for a, t in saved if a != "_saved_result"]
    if results and all(_finite(t) for t in inputs) and _node_meta(n) is not None:
        return n  # it saved its own non-finite output from finite inputs (exp overflow)
    for child, _ in n.next_functions:
        if child is not None and getattr(child, "variable", None) is None:
            child_saved = [t for _, t in _saved_tensors(child)]
            if all(_finite(t) for t in child_saved) and _node_meta(child) is not None:
                return child
    return n if _node_meta(n) is not None else None


def _cut_advice(kind: str) -> str:
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


def _held_in_plain_container(m, parent) -> str | None:
    for name, value in vars(parent).items():
        if isinstance(value, (list, tuple)) and any(x is m for x in value):
            return f"{type(value).__name__} `self.{name}`"
        if isinstance(value, dict) and any(x is m for x in value.values()):
            return f"dict `self.{name}`"
    return None


def _keeper(st: TorchState, t: Tensor):
    """(site of the statement that stores `t`, the container's name) — found through the
    containers that refer to it and the user's frames on the stack."""
    import ast

    gc.collect()
    containers = [r for r in gc.get_referrers(t) if isinstance(r, (list, dict, tuple, collections.deque))]
    frame = sys._getframe(1)
    frames = []
    while frame is not None:
        if st.s.is_user(frame.f_code.co_filename):
            frames.append(frame)
        frame = frame.f_back
    for c in containers:
        for f in frames:
            for scope_name, scope in (("locals", f.f_locals), ("globals", f.f_globals)):
                for name, value in list(scope.items()):
                    owner_attr = None
                    if value is c:
                        owner_attr = name
                    elif hasattr(value, "__dict__") and not isinstance(value, types.ModuleType):
                        try:
                            for attr, v in vars(value).items():
                                if v is c:
                                    owner_attr = f"{name}.{attr}"
                                    break
                        except TypeError:
                            continue
                    if owner_attr is None:
                        if isinstance(value, dict) and value is not f.f_globals:
                            for k, v in value.items():
                                if v is c:
                                    owner_attr = f"{name}[{k!r}]"
                                    break
                    if owner_attr is None:
                        continue
                    site = _store_site(f.f_code.co_filename, owner_attr, c)
                    if site is not None:
                        return site, owner_attr
                    return None
    return None


def _store_site(filename: str, name: str, container):
    """The statement in `filename` that adds to `name` (`name.append(...)`, `name[k] = ...`,
    `name += [...]`), preferring one inside a loop."""
    import ast

    try:
        with open(filename, encoding="utf-8") as fh:
            tree = ast.parse(fh.read())
    except (OSError, SyntaxError, ValueError):
        return None
    base = name.split("[")[0]
    found = []

    def text(node) -> str:
        try:
            return ast.unparse(node)
        except Exception:  # noqa: BLE001
            return ""

    class V(ast.NodeVisitor):
        loops = 0

        def generic_visit(self, node):
            is_loop = isinstance(node, (ast.For, ast.While, ast.AsyncFor))
            self.loops += is_loop
            super().generic_visit(node)
            self.loops -= is_loop

        def visit_Call(self, node):
            f = node.func
            if isinstance(f, ast.Attribute) and f.attr in ("append", "extend", "insert", "add", "appendleft", "setdefault") \
                    and _matches(text(f.value), base):
                found.append((self.loops > 0, node))
            self.generic_visit(node)

        def visit_Assign(self, node):
            for tgt in node.targets:
                if isinstance(tgt, ast.Subscript) and _matches(text(tgt.value), base):
                    found.append((self.loops > 0, node))
            self.generic_visit(node)

        def visit_AugAssign(self, node):
            if _matches(text(node.target), base) and isinstance(container, list):
                found.append((self.loops > 0, node))
            self.generic_visit(node)

    V().visit(tree)
    if not found:
        return None
    found.sort(key=lambda x: (not x[0], x[1].lineno))
    n = found[0][1]
    return (filename, n.lineno, n.col_offset, n.end_lineno or n.lineno, n.end_col_offset or n.col_offset)


def _matches(expr: str, name: str) -> bool:
    return expr == name or expr.endswith("." + name.split(".")[-1]) and name.split(".")[-1] == expr.split(".")[-1]


_PROBE: TorchProbe | None = None


def install() -> TorchProbe:
    """Patch torch once per process (idempotent)."""
    global _PROBE
    if _PROBE is None:
        _PROBE = TorchProbe()
        _PROBE.install()
    return _PROBE


__all__ = ["install", "TorchProbe", "leaves_of", "os"]
