"""The interpreter as one object: the module body in order, then every function on its own.

It executes the module abstractly, statement by statement, with `Val`s (see values.py) in
place of Python objects:
- module-level code runs first, in order; functions defined in the module are *inlined* where
  they are called (with the caller's values for their arguments, up to a small depth), so a
  helper that turns its argument into NumPy is seen with the model output it was given;
- afterwards every function and method is interpreted once on its own, with its parameters as
  symbolic origins, so code that is never called in the module is still checked;
- loop bodies run twice, so what iteration k leaves behind (hidden states, running losses,
  stored gradients, freed graphs) is seen by iteration k+1;
- `if`/`try` branches run on copies of the state, which are joined afterwards.

Everything the rules need is emitted as events (events.py) through `emit`. The interpreter is
generic: what a library's functions and methods do comes from its overlay (frameworks/). It
knows no rule; rules attach `Note`s to call results through `CallEvent.add_note` to follow
risky values to the place they are differentiated.

The class is assembled from one mixin per job (statements.py, expressions.py, calls.py,
methods.py) that share `self`; this module holds the driver: the runs and their cache.
"""

from __future__ import annotations

import itertools
from typing import Any, Callable

import libcst as cst

from .. import facts as F
from .. import kinds as K
from .. import frameworks
from ..events import CallEvent, Ctx, DiffKind, Event, Traced, enter_grad_mode

from ..values import Origin, Val
from ..walk import walk
from .calls import CallsMixin
from .evidence import EvidenceMixin, evidenced_optimizer, evidenced_scaler
from .expressions import BUILTIN_NAMES, ExpressionsMixin
from .methods import MethodsMixin
from .modules import ModulesMixin, Project
from .state import AnalysisBudgetExceeded, Activation, ClassInfo, FunctionInfo, RuleStates, RunCache, State, self_fields
from .statements import StatementsMixin

# Run and event numbers are unique across checks, so that the events of a run cached by the
# language server (see RunCache) can be replayed next to fresh ones.
_RUN_IDS = itertools.count(1)
_SEQ = itertools.count(1)


# LightningModule hooks the trainer runs with autograd disabled
_LIGHTNING_EVAL_HOOKS = frozenset({"validation_step", "test_step", "predict_step"})
_AUTOGRAD_FUNCTION_HOOKS = frozenset({"forward", "backward"})


def _calls_named(body: list, name: str) -> list[cst.Call]:
    """Calls anywhere in `body` whose callee's last name is `name` (`pl.Trainer(...)`, `Trainer(...)`)."""
    found: list[cst.Call] = []
    for stmt in body:
        for node in walk(stmt, code_only=True):
            if isinstance(node, cst.Call):
                f = node.func
                last = f.attr.value if isinstance(f, cst.Attribute) else f.value if isinstance(f, cst.Name) else None
                if last == name:
                    found.append(node)
    return found


class Interpreter(StatementsMixin, ExpressionsMixin, CallsMixin, MethodsMixin, EvidenceMixin, ModulesMixin):
    MAX_DEPTH = 3  # a function of the code's own called this many calls deep is still inlined (one deeper if a leaf_level)
    LOOP_UNROLL = 2
    MAX_LOOP_NEST_UNROLLED = 3

    def __init__(self, body, emit: Callable[[Event], None], *, budget: int = 2_000_000, run_cache: RunCache | None = None,
                 project: Project | None = None, elided_members: dict[int, frozenset[str]] | None = None) -> None:
        # `body`: the module's top-level statements (a Module is accepted too)
        # `elided_members`: class node id -> the methods the first pass left out of its skeleton
        self.elided_members = elided_members or {}
        self.body = list(body.body) if isinstance(body, cst.Module) else list(body)
        self._emit = emit
        self.genv: dict[str, Val] = {}
        self._leaves: dict[int, bool] = {}  # id(def node) -> calls nothing of the code's own (leaf_level)
        self.seq = 0
        self.runs = 0
        self.functions: list[FunctionInfo] = []
        self._fn_by_node: dict[int, FunctionInfo] = {}
        self.classes: list[ClassInfo] = []
        self._active: list[FunctionInfo] = []
        self.budget = budget
        self.steps = 0
        # program-wide settings the overlays record (rules read them)
        self.default_dtype = "float32"  # torch.set_default_dtype(...)
        self.jax_x64 = False  # jax.config.update("jax_enable_x64", True)
        self._trainer_inference: bool | None = None  # Lightning evaluation under inference mode (computed once)
        self.frameworks: set[str] = set()  # framework tags of the imported libraries
        self.errors: list[tuple[cst.CSTNode, BaseException]] = []
        self._loop_depth = 0
        self._loop_scopes: dict[int, tuple] = {}  # loop node -> what it binds (statements._loop_scope)
        self._jax_analysed: set = set()  # (function, transform, site) already traced
        self.run_cache = run_cache
        # set by the engine: which rules a run's events changed (see _cached_standalone: a
        # replayed run goes only to the rules that reacted to it when it was recorded)
        self.rule_states: RuleStates | None = None
        self._emit_to: Callable[[Event, frozenset[str]], None] | None = None
        self._deps: set | None = None  # functions/classes the current run read (for RunCache)
        self._inlined_now: set | None = None
        self._truncated_now: set | None = None
        self._recording: list | None = None
        self.skip_inlined = True  # a function inlined where it is called needs no run with symbolic arguments
        self._diff_count = 0
        self._attr_stores = 0  # attribute stores so far (a comprehension over a stateful module's calls)
        # graph node -> the origins it was computed from; a node an optimizer step made stale ->
        # (the step's call, the origins it updated, those named by its parameters) (opt_event)
        self._graph_origins: dict[tuple, frozenset] = {}
        self._stale_by: dict[tuple, tuple] = {}
        # graph node a backward freed -> the first operation after that which took it in (an
        # RNN state kept on `self` and fed to the next step), or the read of an attribute or an
        # item just before that brought it: where GL201 says it came back
        self.freed_fed: dict[tuple, Any] = {}
        self.freed_read: dict[tuple, Any] = {}  # graph node a backward freed -> its last read from storage
        # `for` loop node -> the graph nodes of the container elements it iterates (a list of
        # per-step log-probabilities): each iteration takes another element, which the analysis,
        # holding a container's elements as one value, cannot tell apart
        self._element_graphs: dict[int, frozenset] = {}
        self._module_of: dict = {}  # module origin -> the instance's value (its fields)
        self._module_uses = None  # evidence of the module-level statements (interp/evidence.py)
        # a module-level name read inside a function, proven by that function's uses: one value
        # per (function, name, global value), so every read in the function is the same module
        self._global_evidence: dict[tuple[int, str, int], tuple[Val, Val]] = {}
        self._loss_path_names: frozenset[str] | None = None  # names_on_loss_paths(), on first use
        self._inspected: frozenset[int] = frozenset()  # attribute nodes that inspect a graph (InspectEvent)
        self._expr = {t: getattr(self, name) for t, name in self.EXPRESSIONS.items()}
        self._stmt = {t: getattr(self, name) for t, name in self.STATEMENTS.items()}
        self._small = {t: getattr(self, name) for t, name in self.SMALL_STATEMENTS.items()}
        self._init_modules(project)  # the project modules the file imports (interp/modules.py)

    def leaf_level(self, fn: FunctionInfo, depth: int) -> int:
        """1 when `fn`, called one call deeper than MAX_DEPTH, calls nothing of the code's own
        (`self.loss(pred, y)` returning library losses, in a loss class's `__call__`, in a
        trainer's step, in its epoch): it costs one body and goes no deeper, and its result is
        what the callers keep (a loss term's graph); unfollowed, it would be unknown. 0 otherwise."""
        if depth != self.MAX_DEPTH + 1:
            return 0
        leaf = self._leaves.get(id(fn.node))
        if leaf is None:
            leaf = self._leaves[id(fn.node)] = self._calls_nothing_of_its_own(fn)
        return 1 if leaf else 0

    def _calls_nothing_of_its_own(self, fn: FunctionInfo) -> bool:
        """No call in `fn` may run the code's own functions, classes or methods: every call is
        of a library (an imported name's attribute), a builtin, or a method of a value other
        than the function's `self` (`x.sum()`). A call of a parameter or local (`model(x)`)
        may be anything: not a leaf."""
        me = fn.params[0][0] if fn.cls is not None and fn.params and not fn.is_static else None
        for node in walk(fn.node.body, code_only=True):
            if not isinstance(node, cst.Call):
                continue
            f = node.func
            while isinstance(f, (cst.Attribute, cst.Call, cst.Subscript)):
                f = f.value if not isinstance(f, cst.Call) else f.func
            if not isinstance(f, cst.Name):
                return False
            if isinstance(node.func, cst.Name):
                v = self.genv.get(f.value)
                if v is None and f.value not in BUILTIN_NAMES or v is not None and v.kind != K.REF:
                    return False
            elif f.value == me or (v := self.genv.get(f.value)) is not None and v.kind in (K.FUNCTION, K.CLASS, K.INSTANCE, K.MODULE):
                return False
        return True

    def emit(self, ev: Event) -> None:
        self.seq = next(_SEQ)
        ev.seq = self.seq
        if self._recording is not None:
            self._recording.append(ev)
        self._emit(ev)

    def set_emitter(self, emit: Callable[[Event], None], emit_to: Callable[[Event, frozenset[str]], None] | None = None) -> None:
        """Where events go (the engine's dispatcher to the rules); `emit_to(ev, codes)` gives
        an event to the rules with those codes only (a replayed run's)."""
        self._emit = emit
        if emit_to is not None:
            self._emit_to = emit_to

    def depend(self, node) -> None:
        if self._deps is not None and node is not None:
            self._deps.add(node)

    def run(self) -> None:
        self.runs = next(_RUN_IDS)
        ctx = Ctx(run=self.runs)
        act = Activation(None, (), 0)
        st = State(self.genv, frozenset(), ctx, act)
        cache = self.run_cache
        if cache is not None:
            self._deps = set()
        self.exec_block(self.body, st)
        base = None
        if cache is not None:
            module_deps = frozenset(id(n) for n in self._deps)
            statements = frozenset(id(s) for s in self.body if not isinstance(s, (cst.FunctionDef, cst.ClassDef)))
            base = (statements, module_deps)
            alive = {id(f.node) for f in self.functions} | {id(c.node) for c in self.classes}
        # Every function on its own, with symbolic arguments (including nested ones found on
        # the way; the list grows while we iterate).
        i = 0
        while i < len(self.functions):
            fn = self.functions[i]
            i += 1
            if not fn.standalone_done:
                fn.standalone_done = True
                if fn.inlined and self.skip_inlined and fn.jit is None and not self._rerun_truncated(fn):
                    # already seen with real arguments where it is called (a jitted function
                    # is not: under jax.jit its arguments are tracers, which its own run has)
                    continue
                if self.is_foreign(fn):
                    continue  # defined in another module: seen where this file calls it
                if base is not None and not fn.closure and not fn.is_lambda:
                    self._cached_standalone(fn, base, alive)
                else:
                    self.run_standalone(fn)

    def _rerun_truncated(self, fn: FunctionInfo) -> bool:
        """An inlined function in which a call was cut at the depth limit runs on its own too
        when it differentiates (a training step whose loss helper was beyond reach); one that
        does not (a library helper deep in a call chain) would only cost time."""
        if not fn.truncated:
            return False
        u = self.function_uses(fn)
        return u.backpropagates or u.tape_diff

    def _cached_standalone(self, fn: FunctionInfo, base: tuple, alive: set) -> None:
        cache = self.run_cache
        entry = cache.entries.get(id(fn.node))
        if entry is not None:
            e_node, e_base, e_deps, events, reacting, inlined, truncated, e_modules = entry
            # a project module's definitions are made again in each check, lazily: the run's
            # dependencies there are valid while the module's text is the same (modules.py)
            if e_node is fn.node and e_base == base and all(id(n) in alive for n in e_deps) and self.modules_unchanged(e_modules):
                cache.hits += 1
                for n in inlined:
                    other = self._fn_by_node.get(id(n))
                    if other is not None:
                        other.inlined = True
                for n in truncated:
                    other = self._fn_by_node.get(id(n))
                    if other is not None:
                        other.truncated = True
                emit_to = self._emit_to
                for ev in events:  # none: the run left the rules as they were
                    if isinstance(ev, CallEvent):
                        ev.notes = None
                    if emit_to is not None:
                        emit_to(ev, reacting)
                    else:
                        self._emit(ev)
                return
        cache.misses += 1
        n_functions = len(self.functions)
        self._deps = set()
        self._inlined_now = set()
        self._truncated_now = set()
        self._recording = []
        states = self.rule_states
        before = states.snapshot() if states is not None else None
        try:
            self.run_standalone(fn)
            deps, events, inlined, truncated = self._deps, self._recording, self._inlined_now, self._truncated_now
        finally:
            self._deps = None
            self._inlined_now = None
            self._truncated_now = None
            self._recording = None
        reacting = frozenset()
        if states is not None:
            # Only the rules whose state the run changed hear its replay; that a rule ignores
            # these events now (the run's node and everything it read unchanged) means it will
            # ignore them again. No rule changed: nothing to replay at all.
            reacting = states.reacting(before)
            if not reacting:
                events = ()
        if all(self.is_foreign(f) for f in self.functions[n_functions:]):
            # no nested function (a project module's, defined on the way, is not this run's):
            # nothing else depends on this run
            local = frozenset(n for n in deps if id(n) in alive)
            modules = self.modules_of(n for n in deps if id(n) not in alive)
            if modules is not None:
                cache.entries[id(fn.node)] = (fn.node, base, local, events, reacting, frozenset(inlined), frozenset(truncated), modules)

    def run_standalone(self, fn: FunctionInfo) -> None:
        self.runs = next(_RUN_IDS)
        if fn.cls is not None:
            self.depend(fn.cls.node)
        ctx = Ctx(run=self.runs, fn=fn, entry=fn)
        if fn.cls is not None and fn.cls.is_lightning and fn.name in _LIGHTNING_EVAL_HOOKS:
            ctx = ctx.replace(grad=self._lightning_eval_mode(fn.name), grad_node=fn.node)
        elif fn.cls is not None and fn.cls.is_autograd_fn and fn.name in _AUTOGRAD_FUNCTION_HOOKS:
            # autograd runs a custom Function's forward and backward with gradients off (backward
            # has them on only under backward(create_graph=True)): what they compute has no graph
            # unless they re-enable it with torch.enable_grad()
            ctx = ctx.replace(grad="off", grad_node=fn.node)
        if fn.grad and enter_grad_mode(ctx.grad, fn.grad) != ctx.grad:
            ctx = ctx.replace(grad=enter_grad_mode(ctx.grad, fn.grad), grad_node=fn.grad_node)
        env: dict[str, Val] = {}
        params = self._symbolic_params(fn)
        env.update(params)
        if fn.cls is not None and not fn.is_static and fn.params and fn.name != "__init__":
            self_name = fn.params[0][0]
            me = params.get(self_name)
            if me is not None and me.kind in (K.MODULE, K.INSTANCE):
                for attr, fact in self.class_facts(fn.cls).items():
                    view = self._fact_view(me, fact)
                    view = self.proven_field_view(fn.cls, attr, view, fn.node)
                    env[f"{self_name}.{attr}"] = view
        if fn.cls is not None and fn.cls.is_autograd_fn and fn.name == "backward" and fn.params:
            # what forward saved comes back as tensors (`x, w = ctx.saved_tensors`)
            saved = Val(kind=K.TENSOR, attrs={F.FW: "torch"})
            env[f"{fn.params[0][0]}.saved_tensors"] = Val(kind=K.LIST, attrs={F.ELEM: saved, F.FW: "torch"})
        if fn.jit is not None:
            ctx = ctx.replace(traced=Traced(fn.jit.kind, fn))
        act = Activation(fn, fn.closure, 0)
        st = State(env, frozenset(), ctx, act)
        self._active.append(fn)
        try:
            self._exec_function_body(fn, st)
        finally:
            self._active.pop()
        ret = self._after_function(fn, st, "standalone", params)
        if fn.name == "training_step" and fn.cls is not None and fn.cls.is_lightning:
            # Lightning calls backward() on what training_step returns (or on its "loss")
            target = ret
            keys = ret.get(F.KEYS)
            if isinstance(keys, dict) and "loss" in keys:
                target = keys["loss"]
            self.differentiate(None, st, DiffKind.LIGHTNING, target, None, node=fn.node)

    def _lightning_eval_mode(self, hook: str) -> str:
        """The grad mode Lightning runs an evaluation hook in. Its evaluation loops run under
        `torch.no_grad()`, or `torch.inference_mode()` when the Trainer's `inference_mode` is on
        (the default); validation also runs inside `fit`, without inference mode. So
        validation_step is certainly under no_grad (at least); test/predict_step are under inference
        mode when this file builds its Trainer(s) without `inference_mode=` (anything else, or no
        visible Trainer: no_grad, which both configurations imply)."""
        if hook == "validation_step":
            return "off"
        if self._trainer_inference is None:
            seen, default = False, True
            for call in _calls_named(self.body, "Trainer"):
                seen = True
                if any(a.keyword is not None and a.keyword.value == "inference_mode" or a.star for a in call.args):
                    default = False
            self._trainer_inference = seen and default
        return "inference" if self._trainer_inference else "off"

    def class_facts(self, info: ClassInfo) -> dict:
        """Attribute values `__init__` stores on `self` (interpreted once per class, with
        symbolic arguments): tells `self.linear` (a submodule) from `self.kernel_size`."""
        self.depend(info.node)
        if info.facts is not None:
            return info.facts
        init = info.find_method("__init__")
        if init is None and info.framework == "jax":
            init = info.find_method("setup")  # a flax.linen module declares its submodules in setup()
        if init is None and info.is_test:
            init = info.find_method("setUp") or info.find_method("setup_method")  # a test case's fixtures (gradcheck inputs)
        if init is not None and init in self._active:
            # asked from inside __init__ itself (its standalone run, or a method it calls): not
            # known yet — and not cached, or every other method would see no fields at all
            return {}
        info.facts = {}
        if init is None or not init.params:
            return info.facts
        params = self._symbolic_params(init)
        me = params.get(init.params[0][0])
        if me is None:
            return info.facts
        env = dict(params)
        ctx = Ctx(run=self.runs, fn=init)
        st = State(env, frozenset(), ctx, Activation(init, init.closure, 1))
        saved_emit = self._emit
        self._emit = lambda ev: None  # a fact-finding run: its events are not findings
        self._active.append(init)
        try:
            self._exec_function_body(init, st)
            build = info.find_method("build") if info.is_keras else None
            if build is not None and build.params and build not in self._active:
                self._run_build(build, init.params[0][0], env)
        except (AnalysisBudgetExceeded, RecursionError):
            raise
        except Exception:
            pass
        finally:
            self._active.pop()
            self._emit = saved_emit
        info.facts = facts = self_fields(env, init.params[0][0])
        return facts

    def _run_build(self, build: FunctionInfo, self_name: str, env: dict) -> None:
        """A Keras layer's build(input_shape) runs before its first call: the weights it creates
        (`self.kernel = self.add_weight(...)`) are fields as much as those of __init__."""
        benv = dict(self._symbolic_params(build))
        own = build.params[0][0]
        benv.update({own + k[len(self_name):]: v for k, v in env.items() if k == self_name or k.startswith(self_name + ".")})
        st = State(benv, frozenset(), Ctx(run=self.runs, fn=build), Activation(build, build.closure, 1))
        self._active.append(build)
        try:
            self._exec_function_body(build, st)
        finally:
            self._active.pop()
        env.update({self_name + k[len(own):]: v for k, v in benv.items() if k.startswith(own + ".")})

    def proven_field_view(self, info: ClassInfo, attr: str, view: Val, node) -> Val:
        """`self.attr` as __init__ left it, unless that proves less than the class's uses of it:
        `self.model = model` (a symbolic parameter of __init__, at most called a module there
        by its use, with no certain origin) is what the methods do with it."""
        role = self.class_uses(info).role("self." + attr)
        if role is None:
            return view
        unproven = view.kind == K.MODULE and not any(o.certain for o in view.live)
        if unproven or view.kind in (None, K.INSTANCE, K.TENSOR):
            proven = self.self_attribute_by_evidence(info, attr, node)
            if proven is not None:
                return proven
        return view

    def _fact_view(self, inst: Val, fact: Val) -> Val:
        """An attribute of `inst` as __init__ left it: submodules and parameters are part of
        the instance (its origin); plain configuration values are what they are."""
        if fact.kind == K.MODULE or any(o.certain for o in fact.live):
            attrs = dict(fact.attrs or {})
            attrs.pop(F.FRESH_ORIGIN, None)
            attrs[F.PERSISTENT] = True
            if fact.live and all(getattr(o, "frozen", False) for o in fact.live):
                attrs[F.FROZEN] = True
            # a submodule is part of the module that holds it; a plain object holding a model
            # (a trainer) keeps the model's own origin
            live = inst.live if inst.live else fact.live
            return Val(live, fact.cuts, fact.notes, frozenset(), fact.kind, attrs)
        if fact.graphs:
            # computed once at construction: not a graph that later backward passes free
            return Val(fact.live, fact.cuts, fact.notes, frozenset(), fact.kind, fact.attrs)
        return fact

    def _symbolic_params(self, fn: FunctionInfo) -> dict[str, Val]:
        out: dict[str, Val] = {}
        jit = fn.jit
        for idx, (name, _kind, annotation) in enumerate(fn.params):
            if idx == 0 and fn.cls is not None and not fn.is_static:
                if fn.is_classmethod:
                    out[name] = Val(kind=K.CLASS, attrs={F.CLS: fn.cls})
                else:
                    out[name] = self._instance_val(fn.cls, None, label="self")
                continue
            if jit is not None and name not in jit.static:
                o = Origin(K.ORIGIN_JAXARG, name, fn.node, certain=True, framework="jax")
                out[name] = Val(live=frozenset({o}), kind=K.TENSOR, attrs={F.FW: "jax", F.TRACED: True})
                continue
            ann = self._qual_of_annotation(annotation)
            role = frameworks.annotation_role(ann)
            if role == "module":
                o = Origin(K.ORIGIN_MODULE, name, fn.node, certain=True)
                out[name] = Val(live=frozenset({o}), kind=K.MODULE)
                continue
            if role == "optimizer":
                out[name] = Val(kind=K.OPTIMIZER, attrs={F.OPT_PARAMS: frozenset(), F.SYM: True})
                continue
            proven = self.function_uses(fn).role(name) if not ann else None
            if proven in ("module", "called"):
                fw = self.function_uses(fn).framework(name)
                o = Origin(K.ORIGIN_MODULE, name, fn.node, certain=True, framework=fw)
                o.weak = proven == "called"  # only called: maybe a schedule, a filter
                out[name] = Val(live=frozenset({o}), kind=K.MODULE, attrs={F.FW: fw, F.EVIDENCED: proven})
                continue
            if proven == "optimizer":
                out[name] = evidenced_optimizer()
                continue
            if proven == "scaler":
                out[name] = evidenced_scaler(fn.node)
                continue
            o = Origin(K.ORIGIN_SYM, name, fn.node, certain=False)
            attrs: dict = {F.SYM: name}
            if role == "tensor":
                attrs[F.FW] = "torch"
            default = fn.defaults.get(name)
            c = default.get(F.CONST) if default is not None else None
            if default is not None and default.kind == K.NUMBER and isinstance(c, (int, float)) and not isinstance(c, bool):
                # `lambda_gp=10.0`: a number by default, and 0-dim whatever a caller passes in its
                # place (a weight, a coefficient): `lambda_gp * penalty.mean()` is a 0-dim loss term
                attrs[F.SCALAR] = True
            out[name] = Val(live=frozenset({o}), kind=K.TENSOR if ann else None, attrs=attrs)
        return out

    def qual_of(self, node, st: State) -> str | None:
        """The qualified name of the library object an expression names (`nn.Module`), if any."""
        v = self.eval(node, st)
        return frameworks.canonical(v.attrs[F.QUAL]) if v.kind == K.REF else None

    def _qual_of_annotation(self, annotation) -> str | None:
        if annotation is None:
            return None
        try:
            v = self.eval(annotation, State(self.genv, frozenset(), Ctx(), Activation(None, (), 0)))
        except Exception:
            return None
        if v.kind == K.REF:
            return frameworks.canonical(v.attrs[F.QUAL])
        return None

    def _exec_function_body(self, fn: FunctionInfo, st: State) -> None:
        node = fn.node
        if fn.is_lambda:
            st.act.returns.append(self.eval(node.body, st))
            return
        self.exec_block(node.body.body, st)  # an indented block or a one-line `def f(x): return x`
