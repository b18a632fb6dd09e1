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
  a graph) are traced back to the operation that caused them (torch_explain.py).

This module installs the hooks and records; torch_records.py holds the records,
torch_graph.py the queries on autograd graphs, torch_findings.py what the end of the trace
concludes.
"""

from __future__ import annotations

import sys
import weakref

import torch
from torch.overrides import TorchFunctionMode

from . import sites, torch_findings
from .sites import short
from .state import Session, current
from .torch_explain import explain_backward_error
from .torch_graph import (
    RISKY_NODES, ZERO_GRAD_NODES, Tensor, all_finite, leaves_of, node_meta, node_site, nonfinite_producer, nonzero,
    norms, op_name, params_of, retain_of, roots_of, tensors_of, walk,
)
from .torch_records import MAX_CUTS, MAX_LIVE_PER_STEP, BRec, Cut, Modules, OState, TorchState

_MethodWrapper = type((1).__add__)


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
                if any(t.requires_grad for t in tensors_of(args, kwargs)):
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
    inner = [t for t in tensors_of(args, kwargs) if t.requires_grad]
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
        self.modules = Modules()

    @property
    def state(self) -> TorchState | None:
        s = current()
        if s is None:
            return None
        if s is not self._session:
            self._session = s
            self._state = TorchState(s, _TF_CODE)
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
        if st is None or m in self.modules:
            return
        f = sys._getframe(2)
        # skip the __init__ chain of the module itself (super().__init__() lines)
        while f is not None and (f.f_code.co_name == "__init__" and f.f_locals.get("self") is m
                                 or not st.s.is_user(f.f_code.co_filename)):
            f = f.f_back
        self.modules.add(m, sites.site_of(f) if f is not None else None)

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
            for t in tensors_of(args, kwargs):
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
        inputs = [t for t in tensors_of(args, kwargs) if t.requires_grad]
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
        if any(t.is_floating_point() and not bool(torch.isfinite(t).all()) for t in tensors_of(args, kwargs)):
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
        params = [p for p in params_of(opt) if p.requires_grad]
        if not params:
            return
        for p in params:
            st.opt_params.setdefault(id(p), id(opt))
        has_grad = nonzero([p.grad for p in params])
        any_grad = any(has_grad)
        if not all(has_grad):
            for c in st.cuts + st.zero_nodes:  # while their graphs still exist
                if c.node is not None:
                    c.reaches()
        since = [b for b in st.backwards if b.seq > o.seq_at_last_step]
        for p, nz in zip(params, has_grad):
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
        roots = roots_of(func, args, kwargs)
        retain = retain_of(func, args, kwargs)
        root_nodes = [t.grad_fn for t in roots if isinstance(t, Tensor) and t.grad_fn is not None]
        root_leaves = [t for t in roots if isinstance(t, Tensor) and t.grad_fn is None and t.requires_grad]
        nodes, reached = walk(root_nodes)
        reached_params = list(reached.values()) + root_leaves
        for n in nodes:
            if type(n).__name__ in ZERO_GRAD_NODES and len(st.zero_nodes) < MAX_CUTS:
                meta = node_meta(n)
                if meta is not None:
                    st.zero_nodes.append(Cut("nondiff", meta[0], st.gen, n, (), op_name(n)))
        seq = st.backward_count + 1
        rec = BRec(seq, site, st.gen, retain, None, {id(p) for p in reached_params}, st.now,
                   frozenset(id(n) for n in nodes) if not retain else frozenset())
        self.before_backward(st, rec, reached_params)
        scaled = any(n.metadata.get("gl_scaled") for n in root_nodes)  # type: ignore[attr-defined]  # a dict (the stubs say a method)
        self.check_loss(st, rec, roots, root_nodes)
        hooks = self.nan_hooks(st, nodes, scaled)
        st.in_step += 1
        try:
            return func(*args, **kwargs)
        except RuntimeError as exc:
            explain_backward_error(st, self.modules, exc, rec, nodes)
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
        roots = roots_of(func, args, kwargs)
        root_nodes = [t.grad_fn for t in roots if isinstance(t, Tensor) and t.grad_fn is not None]
        site = st.site()
        rec = BRec(st.backward_count, site, st.gen, retain_of(func, args, kwargs), None, set(), st.now)
        nodes, _ = walk(root_nodes)
        if not rec.retain:
            rec.walked = frozenset(id(n) for n in nodes)
        st.in_step += 1
        try:
            return func(*args, **kwargs)
        except RuntimeError as exc:
            explain_backward_error(st, self.modules, exc, rec, nodes)
            raise
        finally:
            st.in_step -= 1
            st.backwards.append(rec)

    def before_backward(self, st: TorchState, rec: BRec, reached: list) -> None:
        """Per parameter: were its current gradients used by a step already (accumulation
        across steps) or cleared before any step used them (micro-batches cleared)?"""
        if not reached:
            return
        has_grad = nonzero([p.grad for p in reached])
        last_zero = None
        for z in reversed(st.zero_grads):
            if z[0] >= st.backward_count:
                last_zero = z[1]
                break
        for p, nz in zip(reached, has_grad):
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
        sizes = norms(grads)
        if not st.nan_reported and any(n != n or n in (float("inf"), float("-inf")) for n in sizes) and not scaled:
            st.nan_reported = True
            bad = [p for p, n in zip([p for p in reached if p.grad is not None], sizes)
                   if n != n or n in (float("inf"), float("-inf"))]
            names = self.modules.names_of(bad)
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
            extra = f"; {self.modules.names_of(all_zero)} got all-zero gradients" if all_zero else ""
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
                producer = nonfinite_producer(root_nodes)
                where = node_site(producer) if producer is not None else None
                if where is not None and st.s.has("GL604", where):
                    return  # a float16 overflow, reported as such
                if where is not None:
                    st.s.report(
                        "GL603", where,
                        f"`{op_name(producer)}` here produces NaN/Inf in the forward pass (its inputs are finite): the loss "
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
            if type(n).__name__ in RISKY_NODES:
                def hook(grad_inputs, grad_outputs, node=n):
                    if st.nan_reported:
                        return None
                    if all_finite(grad_outputs) and not all_finite(grad_inputs):
                        probe.nan_found(st, node)
                    return None

                try:
                    handles.append(n.register_hook(hook))
                except RuntimeError:  # pragma: no cover - a node that takes no hooks
                    pass
        return handles

    def nan_found(self, st: TorchState, node) -> None:
        st.nan_reported = True
        where = node_site(node)
        op = op_name(node)
        st.s.report(
            "GL603", where,
            f"the gradient of `{op}` here is NaN/Inf although the gradient flowing into it is finite (e.g. sqrt or a "
            f"norm at 0, log at 0, division by 0): every parameter before it gets a NaN gradient; add an epsilon or "
            f"clamp its input",
        )

    def explain(self, exc: BaseException) -> bool:
        return getattr(exc, "_gradlint_explained", False)

    # ------------------------------------------------------------------ the end
    def finalize(self) -> None:
        st = self._state
        if st is None or st.s is not current():
            return
        torch_findings.finalize(st, self.modules)


_PROBE: TorchProbe | None = None


def install() -> TorchProbe:
    """Patch torch once per process (idempotent)."""
    global _PROBE
    if _PROBE is None:
        _PROBE = TorchProbe()
        _PROBE.install()
    return _PROBE


__all__ = ["install", "TorchProbe"]
