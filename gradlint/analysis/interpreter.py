"""The data-flow interpreter: one traversal of a module that computes the shared facts.

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

Everything the rules need is emitted as events (events.py) through `emit`. The interpreter
knows framework semantics (knowledge.py) but no rule; rules attach `Note`s to call results
through `CallEvent.add_note` to follow risky values to the place they are differentiated.
"""

from __future__ import annotations

import itertools
from typing import Any, Callable, Iterable

import libcst as cst

from . import knowledge as K
from .events import (
    AssignEvent,
    AttrSetEvent,
    BinOpEvent,
    CallEvent,
    CompareEvent,
    Ctx,
    DiffEvent,
    Event,
    FunctionEvent,
    InplaceEvent,
    OptEvent,
    StoreEvent,
    UseEvent,
)
from .values import EMPTY, Cut, Note, Origin, Val, combine, cut, join, ref

_E = frozenset()

BUILTIN_NAMES = frozenset(
    {
        "float", "int", "bool", "complex", "len", "sum", "max", "min", "abs", "list", "tuple",
        "dict", "set", "zip", "enumerate", "range", "isinstance", "print", "super", "getattr",
        "setattr", "hasattr", "sorted", "reversed", "map", "filter", "iter", "next", "round",
        "str", "repr", "any", "all", "type", "id", "callable", "divmod", "pow", "format",
        "open", "vars", "globals", "locals", "frozenset", "object", "staticmethod",
        "classmethod", "property", "NotImplementedError", "ValueError", "RuntimeError",
        "TypeError", "KeyError", "Exception", "AssertionError", "slice", "hash", "math",
    }
)


class AnalysisBudgetExceeded(Exception):
    pass


# Run and event numbers are unique across checks, so that the events of a run cached by the
# language server (see RunCache) can be replayed next to fresh ones.
_RUN_IDS = itertools.count(1)
_SEQ = itertools.count(1)


class RunCache:
    """Recorded events of functions interpreted on their own, kept between checks of one
    document. A run is replayed instead of re-interpreted when the function's node and every
    function or class it read are unchanged (parsed units are cached by text, so an unchanged
    function keeps its node object), and so are the module-level statements and what the
    module-level run read (the globals every run sees)."""

    def __init__(self) -> None:
        self.entries: dict[int, tuple] = {}
        self.hits = 0
        self.misses = 0


class ClassInfo:
    __slots__ = ("node", "name", "bases", "methods", "is_module", "is_lightning", "is_autograd_fn", "is_optimizer", "is_keras", "is_test", "facts")

    def __init__(self, node: cst.ClassDef, name: str) -> None:
        self.node = node
        self.name = name
        self.bases: list[str] = []
        self.methods: dict[str, FunctionInfo] = {}
        self.is_module = False
        self.is_lightning = False
        self.is_autograd_fn = False
        self.is_optimizer = False
        self.is_keras = False
        self.is_test = False
        # what __init__ stores on self (attribute name -> value), computed on first use
        self.facts: dict | None = None

    def find_method(self, name: str) -> "FunctionInfo | None":
        return self.methods.get(name)


class FunctionInfo:
    __slots__ = (
        "node", "name", "qualname", "cls", "params", "defaults", "closure", "decorators",
        "grad", "grad_node", "jit", "is_static", "is_classmethod", "is_lambda", "standalone_done", "inlined",
    )

    def __init__(self, node, name: str, qualname: str, cls: ClassInfo | None, closure: tuple) -> None:
        self.node = node
        self.name = name
        self.qualname = qualname
        self.cls = cls
        self.params: list[tuple[str, str, Any]] = []  # (name, kind, annotation node)
        self.defaults: dict[str, Val] = {}
        self.closure = closure  # tuple of env dicts, innermost first
        self.decorators: list[str] = []
        self.grad: str | None = None  # grad mode forced by a decorator
        self.grad_node = None
        self.jit: dict | None = None  # {"kind": "jit"/"grad", "static": set(names)} when decorated
        self.is_static = False
        self.is_classmethod = False
        self.is_lambda = False
        self.standalone_done = False
        self.inlined = False  # interpreted at least once where it is called

    def __repr__(self) -> str:  # pragma: no cover
        return f"<fn {self.qualname}>"


class TapeInfo:
    __slots__ = ("node", "persistent", "watch_accessed", "watched", "name", "active", "with_node")

    def __init__(self, node, persistent: bool | None, watch_accessed: bool | None) -> None:
        self.node = node
        self.persistent = persistent
        self.watch_accessed = watch_accessed
        self.watched: set = set()
        self.name: str | None = None
        self.active = False
        self.with_node = None


class Activation:
    """One interpretation of a function body (or of the module body)."""

    __slots__ = ("fn", "returns", "closure", "depth", "loop_exits", "yields")

    def __init__(self, fn: FunctionInfo | None, closure: tuple, depth: int) -> None:
        self.fn = fn
        self.returns: list[Val] = []
        self.closure = closure
        self.depth = depth
        self.loop_exits: list[list[State]] = []
        self.yields: list[Val] = []


class State:
    __slots__ = ("env", "freed", "used", "gflag", "ctx", "act", "dead")

    def __init__(self, env: dict, freed: frozenset, ctx: Ctx, act: Activation, used: frozenset = frozenset(), gflag=None) -> None:
        self.env = env
        self.freed = freed  # graph nodes whose buffers a backward pass released
        self.used = used  # ids of consumed one-shot resources (non-persistent tapes)
        self.gflag = gflag  # last gradient bookkeeping event on this path (see OptEvent.prev)
        self.ctx = ctx
        self.act = act
        self.dead = False

    def fork(self) -> "State":
        s = State(dict(self.env), self.freed, self.ctx, self.act, self.used, self.gflag)
        return s

    def absorb(self, states: list["State"]) -> None:
        """Become the join of `states` (keeping this env dict's identity)."""
        alive = [s for s in states if not s.dead]
        if not alive:
            self.dead = True
            if states:
                self.freed = frozenset().union(*(s.freed for s in states))
                self.used = frozenset().union(*(s.used for s in states))
            return
        self.dead = False
        if len(alive) == 1:
            env = alive[0].env
            if env is not self.env:
                self.env.clear()
                self.env.update(env)
            self.freed = alive[0].freed
            self.used = alive[0].used
            self.gflag = alive[0].gflag
            return
        keys: dict[str, None] = {}
        for s in alive:
            keys.update(dict.fromkeys(s.env))
        merged = {}
        for k in keys:
            vals = [s.env[k] for s in alive if k in s.env]
            first = vals[0]
            if all(v is first for v in vals):
                merged[k] = first
            else:
                merged[k] = join(vals)
        self.env.clear()
        self.env.update(merged)
        freed = alive[0].freed
        used = alive[0].used
        for s in alive[1:]:
            if s.freed is not freed:
                freed = freed | s.freed
            if s.used is not used:
                used = used | s.used
        self.freed = freed
        self.used = used
        g = alive[0].gflag
        self.gflag = g if all(s.gflag == g for s in alive) else None


def _self_fields(env: dict, self_name: str) -> dict[str, Val]:
    """`self.x` bindings of a method's environment, as {"x": value} (not `self.x.y`, not
    the interpreter's own `#` keys)."""
    prefix = self_name + "."
    return {k[len(prefix):]: v for k, v in env.items()
            if k.startswith(prefix) and "." not in k[len(prefix):] and "#" not in k}


def dotted_name(node: cst.CSTNode | None) -> str | None:
    """`x` -> "x", `self.h` -> "self.h", `a.b.c` -> "a.b.c"; other expressions -> None."""
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        base = dotted_name(node.value)
        return f"{base}.{node.attr.value}" if base else None
    return None


def _root_name(node: cst.CSTNode | None) -> str | None:
    """The variable at the root of a store target: `self.state[p]["g"]` -> "self.state"."""
    while isinstance(node, cst.Subscript):
        node = node.value
    return dotted_name(node)


def _const(node: cst.CSTNode) -> Any:
    """The Python value of a literal (numbers, strings, True/False/None, unary minus)."""
    if isinstance(node, cst.Integer):
        try:
            return int(node.value.replace("_", ""), 0)
        except ValueError:
            return None
    if isinstance(node, cst.Float):
        try:
            return float(node.value.replace("_", ""))
        except ValueError:
            return None
    if isinstance(node, cst.Name) and node.value in ("True", "False", "None"):
        return {"True": True, "False": False, "None": None}[node.value]
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus):
        v = _const(node.expression)
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            return -v
    if isinstance(node, cst.SimpleString):
        v = node.value
        # most strings have no prefix and no escapes: skip literal_eval (it is slow)
        if v[:1] in "'\"" and "\\" not in v:
            q = 3 if v[:3] in ("\"\"\"", "\'\'\'") else 1
            return v[q:-q]
        try:
            return node.evaluated_value
        except Exception:  # pragma: no cover - malformed literal
            return None
    return _NOCONST


class _NoConst:
    def __repr__(self) -> str:  # pragma: no cover
        return "<no const>"


_NOCONST = _NoConst()


def const_of(node: cst.CSTNode | None) -> Any:
    if node is None:
        return _NOCONST
    return _const(node)


def is_const(v: Any) -> bool:
    return v is not _NOCONST


class Interpreter:
    MAX_DEPTH = 3
    LOOP_UNROLL = 2
    MAX_LOOP_NEST_UNROLLED = 3

    def __init__(self, body, emit: Callable[[Event], None], *, budget: int = 2_000_000, run_cache: RunCache | None = None) -> None:
        # `body`: the module's top-level statements (a Module is accepted too)
        self.body = list(body.body) if isinstance(body, cst.Module) else list(body)
        self._emit = emit
        self.genv: dict[str, Val] = {}
        self.seq = 0
        self.runs = 0
        self.functions: list[FunctionInfo] = []
        self._fn_by_node: dict[int, FunctionInfo] = {}
        self.classes: list[ClassInfo] = []
        self._active: list[FunctionInfo] = []
        self.budget = budget
        self.steps = 0
        self.default_dtype = "float32"
        self.jax_x64 = False  # jax.config.update("jax_enable_x64", True)
        self.frameworks: set[str] = set()
        self.errors: list[tuple[cst.CSTNode, BaseException]] = []
        self._loop_depth = 0
        self._jax_analysed: set = set()
        self.run_cache = run_cache
        # set by the engine: a cheap summary of what the rules have accumulated (see
        # _cached_standalone: a run that changes nothing need not be replayed)
        self.state_signature: Callable[[], tuple] | None = None
        self._deps: set | None = None  # functions/classes the current run read (for RunCache)
        self._inlined_now: set | None = None
        self._recording: list | None = None
        self.skip_inlined = True
        self._diff_count = 0  # a function inlined where it is called needs no run with symbolic arguments
        self._expr = {
            cst.Name: self._e_name,
            cst.Attribute: self._e_attribute,
            cst.Call: self._e_call,
            cst.BinaryOperation: self._e_binop,
            cst.UnaryOperation: self._e_unary,
            cst.BooleanOperation: self._e_boolop,
            cst.Comparison: self._e_compare,
            cst.Subscript: self._e_subscript,
            cst.Tuple: self._e_seq,
            cst.List: self._e_seq,
            cst.Set: self._e_seq,
            cst.Dict: self._e_dict,
            cst.ListComp: self._e_comp,
            cst.SetComp: self._e_comp,
            cst.GeneratorExp: self._e_comp,
            cst.DictComp: self._e_comp,
            cst.Lambda: self._e_lambda,
            cst.IfExp: self._e_ifexp,
            cst.Integer: self._e_number,
            cst.Float: self._e_number,
            cst.Imaginary: self._e_number,
            cst.SimpleString: self._e_string,
            cst.ConcatenatedString: self._e_string,
            cst.FormattedString: self._e_fstring,
            cst.Await: self._e_await,
            cst.Yield: self._e_yield,
            cst.NamedExpr: self._e_walrus,
            cst.StarredElement: self._e_starred,
            cst.Ellipsis: lambda n, st: EMPTY,
        }
        self._stmt = {
            cst.SimpleStatementLine: self._s_simple_line,
            cst.FunctionDef: self._s_funcdef,
            cst.ClassDef: self._s_classdef,
            cst.If: self._s_if,
            cst.For: self._s_for,
            cst.While: self._s_while,
            cst.With: self._s_with,
            cst.Try: self._s_try,
            cst.TryStar: self._s_try,
            cst.Match: self._s_match,
        }
        self._small = {
            cst.Expr: self._s_expr,
            cst.Assign: self._s_assign,
            cst.AugAssign: self._s_augassign,
            cst.AnnAssign: self._s_annassign,
            cst.Return: self._s_return,
            cst.Import: self._s_import,
            cst.ImportFrom: self._s_importfrom,
            cst.Raise: self._s_raise,
            cst.Pass: lambda n, st: None,
            cst.Break: self._s_loop_exit,
            cst.Continue: self._s_loop_exit,
            cst.Del: self._s_del,
            cst.Global: lambda n, st: None,
            cst.Nonlocal: lambda n, st: None,
            cst.Assert: self._s_assert,
        }

    # ================================================================== driver
    def emit(self, ev: Event) -> None:
        self.seq = next(_SEQ)
        ev.seq = self.seq
        if self._recording is not None:
            self._recording.append(ev)
        self._emit(ev)

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
                if fn.inlined and self.skip_inlined:
                    continue  # already seen with real arguments where it is called
                if base is not None and not fn.closure and not fn.is_lambda:
                    self._cached_standalone(fn, base, alive)
                else:
                    self.run_standalone(fn)

    def _cached_standalone(self, fn: FunctionInfo, base: tuple, alive: set) -> None:
        cache = self.run_cache
        entry = cache.entries.get(id(fn.node))
        if entry is not None:
            e_node, e_base, e_deps, events, inlined = entry
            if e_node is fn.node and e_base == base and all(id(n) in alive for n in e_deps):
                cache.hits += 1
                for n in inlined:
                    other = self._fn_by_node.get(id(n))
                    if other is not None:
                        other.inlined = True
                for ev in events:  # None: the run left the rules as they were
                    if isinstance(ev, CallEvent):
                        ev.notes = None
                    self._emit(ev)
                return
        cache.misses += 1
        n_functions = len(self.functions)
        self._deps = set()
        self._inlined_now = set()
        self._recording = []
        sig = self.state_signature
        before = sig() if sig is not None else None
        try:
            self.run_standalone(fn)
            deps, events, inlined = self._deps, self._recording, self._inlined_now
        finally:
            self._deps = None
            self._inlined_now = None
            self._recording = None
        if sig is not None and sig() == before:
            events = ()  # inert: replaying it would change nothing
        if len(self.functions) == n_functions:  # no nested function: nothing else depends on this run
            cache.entries[id(fn.node)] = (fn.node, base, frozenset(deps), events, frozenset(inlined))

    def run_standalone(self, fn: FunctionInfo) -> None:
        self.runs = next(_RUN_IDS)
        if fn.cls is not None:
            self.depend(fn.cls.node)
        ctx = Ctx(run=self.runs, fn=fn)
        if fn.grad:
            ctx = ctx.replace(grad=fn.grad, grad_node=fn.grad_node)
        env: dict[str, Val] = {}
        params = self._symbolic_params(fn)
        env.update(params)
        if fn.cls is not None and not fn.is_static and fn.params and fn.name != "__init__":
            self_name = fn.params[0][0]
            me = params.get(self_name)
            if me is not None and me.kind in ("module", "instance"):
                for attr, fact in self.class_facts(fn.cls).items():
                    env[f"{self_name}.{attr}"] = self._fact_view(me, fact)
        if fn.jit is not None:
            ctx = ctx.replace(traced={"kind": fn.jit["kind"], "fn": fn})
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
            keys = ret.get("keys")
            if isinstance(keys, dict) and "loss" in keys:
                target = keys["loss"]
            self.differentiate(None, st, "lightning", target, None, node=fn.node)

    def class_facts(self, info: ClassInfo) -> dict:
        """Attribute values `__init__` stores on `self` (interpreted once per class, with
        symbolic arguments): tells `self.linear` (a submodule) from `self.kernel_size`."""
        self.depend(info.node)
        if info.facts is not None:
            return info.facts
        info.facts = {}
        init = info.find_method("__init__")
        if init is None or init in self._active or not init.params:
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
        except (AnalysisBudgetExceeded, RecursionError):
            raise
        except Exception:
            pass
        finally:
            self._active.pop()
            self._emit = saved_emit
        info.facts = facts = _self_fields(env, init.params[0][0])
        return facts

    def _fact_view(self, inst: Val, fact: Val) -> Val:
        """An attribute of `inst` as __init__ left it: submodules and parameters are part of
        the instance (its origin); plain configuration values are what they are."""
        if fact.kind == "module" or any(o.certain for o in fact.live):
            attrs = dict(fact.attrs or {})
            attrs.pop("fresh_origin", None)
            attrs["persistent"] = True
            if fact.live and all(getattr(o, "frozen", False) for o in fact.live):
                attrs["frozen"] = True
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
        for idx, (name, kind, annotation) in enumerate(fn.params):
            if idx == 0 and fn.cls is not None and not fn.is_static:
                if fn.is_classmethod:
                    out[name] = Val(kind="class", attrs={"cls": fn.cls})
                else:
                    out[name] = self._instance_val(fn.cls, None, label="self")
                continue
            if jit is not None and name not in jit.get("static", ()):
                o = Origin("jaxarg", name, fn.node, certain=True, framework="jax")
                out[name] = Val(live=frozenset({o}), kind="tensor", attrs={"fw": "jax", "traced": True})
                continue
            ann = self._qual_of_annotation(annotation)
            if ann in ("torch.nn.Module", "torch.nn.modules.module.Module"):
                o = Origin("module", name, fn.node, certain=True)
                out[name] = Val(live=frozenset({o}), kind="module")
                continue
            if ann in ("torch.optim.Optimizer", "torch.optim.optimizer.Optimizer"):
                out[name] = Val(kind="optimizer", attrs={"opt_params": frozenset(), "sym": True})
                continue
            o = Origin("sym", name, fn.node, certain=False)
            attrs = {"sym": name}
            if ann in ("torch.Tensor", "torch.FloatTensor"):
                attrs["fw"] = "torch"
            out[name] = Val(live=frozenset({o}), kind="tensor" if ann else None, attrs=attrs)
        return out

    def _qual_of_annotation(self, annotation) -> str | None:
        if annotation is None:
            return None
        try:
            v = self.eval(annotation, State(self.genv, frozenset(), Ctx(), Activation(None, (), 0)))
        except Exception:
            return None
        if v.kind == "ref":
            return K.canonical(v.attrs["qual"])
        return None

    def _exec_function_body(self, fn: FunctionInfo, st: State) -> None:
        node = fn.node
        if fn.is_lambda:
            st.act.returns.append(self.eval(node.body, st))
            return
        self.exec_block(node.body.body, st)  # an indented block or a one-line `def f(x): return x`

    def _after_function(self, fn: FunctionInfo, st: State, kind: str, params: dict) -> Val:
        ret = join(st.act.returns) if st.act.returns else Val(kind="none")
        self.emit(FunctionEvent(fn.node, st.ctx, fn, kind, ret, params))
        return ret

    # ================================================================== statements
    def exec_block(self, stmts: Iterable[cst.CSTNode], st: State) -> None:
        for stmt in stmts:
            if st.dead:
                return
            handler = self._stmt.get(type(stmt))
            if handler is None:
                continue
            self.steps += 1
            if self.steps > self.budget:
                raise AnalysisBudgetExceeded()
            try:
                handler(stmt, st)
            except (AnalysisBudgetExceeded, RecursionError):
                raise
            except Exception as exc:  # an analysis bug must not hide the rest of the file
                self.errors.append((stmt, exc))

    def _s_simple_line(self, node: cst.SimpleStatementLine, st: State) -> None:
        for small in node.body:
            if st.dead:
                return
            h = self._small.get(type(small))
            if h is not None:
                h(small, st)

    def _s_expr(self, node: cst.Expr, st: State) -> None:
        self.eval(node.value, st)

    def _s_assert(self, node: cst.Assert, st: State) -> None:
        self.eval(node.test, st)

    def _s_raise(self, node, st: State) -> None:
        if node.exc is not None:
            self.eval(node.exc, st)
        st.dead = True

    def _s_loop_exit(self, node, st: State) -> None:
        """`break` and `continue` alike: the state joins the loop's next pass and what follows
        the loop (for `break`, a safe over-approximation)."""
        if st.act.loop_exits:
            st.act.loop_exits[-1].append(st.fork())
        st.dead = True

    def _s_return(self, node: cst.Return, st: State) -> None:
        v = self.eval(node.value, st) if node.value is not None else Val(kind="none")
        st.act.returns.append(v)
        st.dead = True

    def _s_del(self, node: cst.Del, st: State) -> None:
        target = node.target
        targets = target.elements if isinstance(target, (cst.Tuple, cst.List)) else [target]
        for t in targets:
            t = t.value if isinstance(t, cst.Element) else t
            name = dotted_name(t)
            if name is not None:
                st.env.pop(name, None)

    def _s_import(self, node: cst.Import, st: State) -> None:
        for alias in node.names:
            full = dotted_name(alias.name) or ""
            if alias.asname is not None:
                st.env[alias.asname.name.value] = ref(K.canonical(full))
            else:
                head = full.split(".", 1)[0]
                st.env[head] = ref(head)
            self._note_framework(full)

    def _s_importfrom(self, node: cst.ImportFrom, st: State) -> None:
        if node.module is None:
            base = "." * len(node.relative)
        else:
            base = "." * len(node.relative) + (dotted_name(node.module) or "")
        self._note_framework(base)
        if isinstance(node.names, cst.ImportStar):
            return
        for alias in node.names:
            name = dotted_name(alias.name) or ""
            bound = alias.asname.name.value if alias.asname is not None else name
            qual = K.canonical(f"{base}.{name}") if not base.endswith(".") else f"{base}{name}"
            st.env[bound] = ref(qual)

    def _note_framework(self, qual: str) -> None:
        fw = K.framework_of(K.canonical(qual.lstrip(".")))
        if fw:
            self.frameworks.add(fw)

    # ---------------------------------------------------------------- assignment
    def _s_assign(self, node: cst.Assign, st: State) -> None:
        v = self.eval(node.value, st)
        for t in node.targets:
            self.bind(t.target, v, st, node, value_node=node.value)

    def _s_annassign(self, node: cst.AnnAssign, st: State) -> None:
        if node.value is None:
            return
        v = self.eval(node.value, st)
        self.bind(node.target, v, st, node, value_node=node.value)

    def _s_augassign(self, node: cst.AugAssign, st: State) -> None:
        target = node.target
        old = self.eval(target, st)
        value = self.eval(node.value, st)
        op = _OPS.get(type(node.operator), "?")
        name = dotted_name(target)
        tensorish = old.kind in ("tensor", "grad") or old.get("fw") in ("torch", "tf", "jax") or bool(old.live)
        if tensorish and old.get("fw") not in ("jax", "tf"):
            new = self.inplace_result(node, st, old, [value])
        else:
            new = self._arith(node, st, [old, value], op=op)
        if old.kind == "container" or old.kind == "list":
            new = new.with_(kind=old.kind, attrs=old.attrs)
        if tensorish and old.get("fw") != "jax":
            via_data = bool(old.get("data_of"))
            tgt = old.get("data_base") if via_data else old
            saved = st.env.get(f"{name}.#saved") if name else None
            by = saved.get("by") if saved is not None else old.get("saved_output")
            self.emit(InplaceEvent(node, st.ctx, tgt, target, f"{op}=", via_data, name, by))
        if name is not None:
            aev = AssignEvent(node, st.ctx, name, old, value, new, op, target)
            self.emit(aev)
            if aev.notes:
                new = new.add_notes(aev.notes)
            st.env[name] = new
        elif isinstance(target, cst.Subscript):
            root = _root_name(target)
            if root is not None:
                aev = AssignEvent(node, st.ctx, root, old, value, new, op, target)
                self.emit(aev)
            self._store_item(target, new, st, node, node.value)

    def bind(self, target: cst.BaseExpression, v: Val, st: State, stmt, value_node=None) -> None:
        if isinstance(target, cst.Name):
            name = target.value
            old = st.env.get(name)
            if v.live and v.get("fresh_origin"):
                for o in v.live:
                    if o.label in ("", "?"):
                        o.label = name
            aev = AssignEvent(stmt, st.ctx, name, old, v, v, None, target)
            self.emit(aev)
            if aev.notes:
                v = v.add_notes(aev.notes)
            st.env[name] = v
            # attribute facts of the old binding do not survive a rebinding
            if old is not None:
                prefix = name + "."
                for k in [k for k in st.env if k.startswith(prefix)]:
                    del st.env[k]
            return
        if isinstance(target, (cst.Tuple, cst.List)):
            elems = [e.value for e in target.elements]
            items = v.get("items")
            star = any(isinstance(e, cst.StarredElement) for e in target.elements)
            if items is not None and len(items) == len(elems) and not star:
                for e, iv in zip(elems, items):
                    self.bind(e, iv, st, stmt)
            else:
                elem = self.iter_val(v)
                for e in elems:
                    if isinstance(e, cst.StarredElement):
                        self.bind(e.value, elem.with_(kind="list", attrs=None), st, stmt)
                    else:
                        self.bind(e, elem, st, stmt)
            return
        if isinstance(target, cst.StarredElement):
            self.bind(target.value, v, st, stmt)
            return
        if isinstance(target, cst.Attribute):
            self._store_attr(target, v, st, stmt, value_node)
            return
        if isinstance(target, cst.Subscript):
            self._store_item(target, v, st, stmt, value_node)
            return

    def _store_attr(self, target: cst.Attribute, v: Val, st: State, stmt, value_node) -> None:
        base_node = target.value
        base = self.eval(base_node, st)
        attr = target.attr.value
        base_name = dotted_name(base_node)
        self.emit(AttrSetEvent(stmt, st.ctx, base, attr, v, base_name, value_node))
        if attr == "requires_grad" and base_name is not None:
            c = v.get("const", _NOCONST)
            if c is True:
                _freeze(base, False)
                st.env[base_name] = self._make_requires_grad(base, target, base_name)
            elif c is False:
                _freeze(base, True)
            return
        if attr == "data" and base_name is not None:
            self.emit(InplaceEvent(stmt, st.ctx, base, base_node, "data=", True, base_name))
            return
        if attr == "grad":
            if v.kind == "none":
                self.opt_event(stmt, st, "zero_grad", base)
            if base_name is not None and v.kind != "none":
                st.env[f"{base_name}.grad"] = v
            elif base_name is not None:
                st.env.pop(f"{base_name}.grad", None)
            return
        self.emit(StoreEvent(stmt, st.ctx, "attr", base, base_node, base_name, v, value_node, attr))
        name = dotted_name(target)
        if name is not None:
            old = st.env.get(name)
            if old is None:
                old = self.attribute_of(base, attr, target, st)
            self.emit(AssignEvent(stmt, st.ctx, name, old, v, v, None, target))
            st.env[name] = v
            # `model.fc = nn.Linear(...)`: the object now reaches what it holds.
            if base_name is not None and base_name in st.env and v.live:
                old = st.env[base_name]
                if old.kind in ("module", "instance", None) and not old.get("sym"):
                    st.env[base_name] = Val(old.live | v.live, old.cuts, old.notes, old.graphs, old.kind, old.attrs)

    def _store_item(self, target: cst.Subscript, v: Val, st: State, stmt, value_node) -> None:
        container_node = target.value
        container = self.eval(container_node, st)
        for el in target.slice:
            if isinstance(el.slice, cst.Index):
                self.eval(el.slice.value, st)
        root = _root_name(target)
        self.emit(StoreEvent(stmt, st.ctx, "item", container, container_node, root, v, value_node))
        if container.kind in ("tensor", "grad") or container.get("fw") in ("torch", "tf", "jax"):
            via_data = bool(container.get("data_of"))
            saved = st.env.get(f"{root}.#saved") if root else None
            by = saved.get("by") if saved is not None else container.get("saved_output")
            self.emit(InplaceEvent(stmt, st.ctx, container.get("data_base") if via_data else container, container_node, "[]=", via_data, root, by))
        if root is not None:
            old = st.env.get(root)
            if old is None:
                old = self.lookup(root, st) if "." not in root else EMPTY
            keys = old.get("keys") if old is not None else None
            key_const = _single_index_const(target)
            if isinstance(keys, dict) and isinstance(key_const, str) and container_node is not None and dotted_name(container_node) == root:
                new_keys = dict(keys)
                new_keys[key_const] = v
                st.env[root] = Val(old.live | v.live, old.cuts | v.cuts, old.notes | v.notes, old.graphs | v.graphs, old.kind, {**(old.attrs or {}), "keys": new_keys})
            elif old is not None and (old.kind in ("tensor",) or old.get("fw")):
                st.env[root] = combine([old, v], kind=old.kind, attrs=old.attrs)
            else:
                kind = old.kind if old is not None and old.kind else "container"
                attrs = {k: x for k, x in (old.attrs or {}).items() if k not in ("items",)} if old is not None else None
                st.env[root] = combine([old or EMPTY, v], kind=kind, attrs=attrs or None)

    # ---------------------------------------------------------------- compound
    def _s_funcdef(self, node: cst.FunctionDef, st: State, cls: ClassInfo | None = None) -> FunctionInfo:
        fn = self._fn_by_node.get(id(node))
        fresh = fn is None
        if fresh:
            qual = f"{cls.name}.{node.name.value}" if cls else node.name.value
            if st.act.fn is not None and cls is None:
                qual = f"{st.act.fn.qualname}.<locals>.{node.name.value}"
            closure = (st.env,) + st.act.closure if st.act.fn is not None else ()
            fn = FunctionInfo(node, node.name.value, qual, cls, closure)
            self._fn_by_node[id(node)] = fn
            self.functions.append(fn)
            self._read_params(fn, node.params, st)
            for dec in node.decorators:
                self._apply_decorator(fn, dec, st)
        else:
            # re-entered (loop iteration / inlined caller): refresh the closure to this env
            if st.act.fn is not None and cls is None:
                fn.closure = (st.env,) + st.act.closure
        val = Val(kind="function", attrs={"fn": fn})
        if fn.jit is not None and fn.jit.get("kind") == "grad":
            val = Val(kind="jaxfn", attrs={"jaxfn": {"kind": "grad", "fn": fn, "node": node, "argnums": (0,), "has_aux": False, "value": False}})
        if cls is None:
            st.env[node.name.value] = val
        return fn

    def _read_params(self, fn: FunctionInfo, params: cst.Parameters, st: State) -> None:
        for p in params.posonly_params:
            fn.params.append((p.name.value, "pos", p.annotation.annotation if p.annotation else None))
        for p in params.params:
            fn.params.append((p.name.value, "pos", p.annotation.annotation if p.annotation else None))
        if isinstance(params.star_arg, cst.Param):
            fn.params.append((params.star_arg.name.value, "star", None))
        for p in params.kwonly_params:
            fn.params.append((p.name.value, "kwonly", p.annotation.annotation if p.annotation else None))
        if params.star_kwarg is not None:
            fn.params.append((params.star_kwarg.name.value, "starstar", None))
        for p in list(params.posonly_params) + list(params.params) + list(params.kwonly_params):
            if p.default is not None:
                try:
                    fn.defaults[p.name.value] = self.eval(p.default, st)
                except Exception:
                    fn.defaults[p.name.value] = EMPTY

    def _apply_decorator(self, fn: FunctionInfo, dec: cst.Decorator, st: State) -> None:
        expr = dec.decorator
        call_args = None
        if isinstance(expr, cst.Call):
            call_args = expr.args
            expr = expr.func
        try:
            v = self.eval(expr, st)
        except Exception:
            return
        qual = K.canonical(v.attrs["qual"]) if v.kind == "ref" else None
        if qual is None:
            if isinstance(expr, cst.Name):
                fn.decorators.append(expr.value)
            return
        fn.decorators.append(qual)
        if qual in K.TORCH_NO_GRAD:
            fn.grad, fn.grad_node = "off", dec
        elif qual in K.TORCH_INFERENCE:
            fn.grad, fn.grad_node = "inference", dec
        elif qual in K.TORCH_ENABLE_GRAD:
            fn.grad, fn.grad_node = "on", dec
        elif qual == "builtins.staticmethod" or qual == "staticmethod":
            fn.is_static = True
        elif qual == "builtins.classmethod" or qual == "classmethod":
            fn.is_classmethod = True
        elif qual in K.JAX_JIT or qual in K.JAX_GRAD or qual in K.JAX_JACOBIAN:
            fn.jit = {"kind": "grad" if qual in K.JAX_GRAD else "jit", "static": _static_names(fn, call_args)}
        elif qual in ("functools.partial",) and call_args:
            first = call_args[0].value
            try:
                inner = self.eval(first, st)
            except Exception:
                return
            iq = K.canonical(inner.attrs["qual"]) if inner.kind == "ref" else None
            if iq in K.JAX_JIT or iq in K.JAX_GRAD:
                fn.jit = {"kind": "grad" if iq in K.JAX_GRAD else "jit", "static": _static_names(fn, call_args[1:])}

    def _s_classdef(self, node: cst.ClassDef, st: State) -> None:
        info = ClassInfo(node, node.name.value)
        self.classes.append(info)
        for arg in node.bases:
            try:
                b = self.eval(arg.value, st)
            except Exception:
                continue
            if b.kind == "ref":
                q = K.canonical(b.attrs["qual"])
                info.bases.append(q)
                if q in K.MODULE_BASES or q.startswith("torch.nn.") or q.startswith("keras.layers.") or q.startswith("transformers.") and "Model" in q:
                    info.is_module = True
                if q in K.LIGHTNING_BASES:
                    info.is_lightning = True
                    info.is_module = True
                if q.startswith("keras.") or q.startswith("tensorflow."):
                    info.is_keras = info.is_module
                if q in K.AUTOGRAD_FUNCTION_BASES:
                    info.is_autograd_fn = True
                    info.is_module = False
                if q in K.OPTIMIZER_BASES:
                    info.is_optimizer = True
                if q in ("unittest.TestCase",):
                    info.is_test = True
            elif b.kind == "class":
                parent: ClassInfo = b.attrs["cls"]
                info.bases.append(parent.name)
                info.is_module |= parent.is_module
                info.is_lightning |= parent.is_lightning
                info.is_autograd_fn |= parent.is_autograd_fn
                info.is_optimizer |= parent.is_optimizer
                info.is_keras |= parent.is_keras
                for mname, m in parent.methods.items():
                    info.methods.setdefault(mname, m)
        inherited = dict(info.methods)
        info.methods = {}
        body = node.body.body
        class_env = st  # class bodies see enclosing names; methods close over the module
        for stmt in body:
            if isinstance(stmt, cst.FunctionDef):
                fn = self._s_funcdef(stmt, class_env, cls=info)
                info.methods[stmt.name.value] = fn
        for mname, m in inherited.items():
            info.methods.setdefault(mname, m)
        st.env[node.name.value] = Val(kind="class", attrs={"cls": info})

    def _s_if(self, node: cst.If, st: State) -> None:
        test = self.eval(node.test, st)
        const = test.get("const", _NOCONST)
        a = st.fork()
        if const is not False:
            self.exec_block(node.body.body, a)
        else:
            a.dead = True
        b = st.fork()
        if node.orelse is not None and const is not True:
            if isinstance(node.orelse, cst.If):
                self._s_if(node.orelse, b)
            else:
                self.exec_block(node.orelse.body.body, b)
        elif const is True:
            b.dead = True
        st.absorb([a, b])

    def _s_match(self, node: cst.Match, st: State) -> None:
        self.eval(node.subject, st)
        branches = []
        for case in node.cases:
            s = st.fork()
            self.exec_block(case.body.body, s)
            branches.append(s)
        s = st.fork()
        branches.append(s)
        st.absorb(branches)

    def _s_try(self, node, st: State) -> None:
        before = st.fork()
        self.exec_block(node.body.body, st)
        outs = []
        if node.orelse is not None and not st.dead:
            self.exec_block(node.orelse.body.body, st)
        outs.append(st.fork() if not st.dead else st)
        for h in node.handlers:
            s = before.fork()
            s.freed = st.freed | before.freed
            if h.name is not None and isinstance(h.name.name, cst.Name):
                s.env[h.name.name.value] = EMPTY
            self.exec_block(h.body.body, s)
            outs.append(s)
        was_dead = st.dead
        st.dead = False
        st.absorb(outs[1:] if was_dead else outs)
        if node.finalbody is not None:
            dead = st.dead
            st.dead = False
            self.exec_block(node.finalbody.body.body, st)
            st.dead = st.dead or dead

    def _s_with(self, node: cst.With, st: State) -> None:
        saved_ctx = st.ctx
        entered_tapes: list[TapeInfo] = []
        for item in node.items:
            v = self.eval(item.item, st)
            mode = v.get("grad_ctx")
            if mode is not None:
                st.ctx = st.ctx.replace(grad=mode, grad_node=node)
            if v.get("autocast") is not None:
                st.ctx = st.ctx.replace(amp=v.get("autocast"))
            tape = v.get("tape")
            if tape is not None and v.kind == "tape":
                tape.active = True
                tape.with_node = node
                st.ctx = st.ctx.replace(tapes=st.ctx.tapes + (tape,))
                entered_tapes.append(tape)
            if item.asname is not None:
                self.bind(item.asname.name, v, st, node)
                if tape is not None and isinstance(item.asname.name, cst.Name):
                    tape.name = item.asname.name.value
        self.exec_block(node.body.body, st)
        for tape in entered_tapes:
            tape.active = False
        st.ctx = saved_ctx

    # ---------------------------------------------------------------- loops
    def _s_for(self, node: cst.For, st: State) -> None:
        it = self.eval(node.iter, st)
        elem = self.iter_val(it)
        self._loop(node, st, lambda s: self.bind(node.target, elem, s, node), node.body.body, node.orelse)

    def _s_while(self, node: cst.While, st: State) -> None:
        self.eval(node.test, st)
        const = const_of(node.test)
        self._loop(node, st, lambda s: self.eval(node.test, s), node.body.body, node.orelse, always_runs=const is True)

    def _loop(self, node, st: State, head: Callable[[State], Any], body, orelse, always_runs: bool = False) -> None:
        saved_ctx = st.ctx
        unroll = self.LOOP_UNROLL if self._loop_depth < self.MAX_LOOP_NEST_UNROLLED else 1
        self._loop_depth += 1
        outs: list[State] = [] if always_runs else [st.fork()]
        exits: list[State] = []
        cur = st
        try:
            for i in range(unroll):
                s = cur.fork()
                s.ctx = saved_ctx.replace(loops=saved_ctx.loops + ((node, i),))
                st.act.loop_exits.append(exits)
                try:
                    head(s)
                    self.exec_block(body, s)
                finally:
                    st.act.loop_exits.pop()
                # `continue` states rejoin the next iteration; `break` states leave the loop
                conts = [e for e in exits if not e.dead]
                end = s.fork() if not s.dead else s
                if conts:
                    merged = end.fork()  # absorb() sets all of its flow state from the live states
                    merged.absorb(([end] if not end.dead else []) + conts)
                    end = merged
                outs.append(end)
                if end.dead:
                    break
                cur = end
        finally:
            self._loop_depth -= 1
        for o in outs:
            o.ctx = saved_ctx
        for e in exits:
            e.ctx = saved_ctx
        st.absorb(outs + exits)
        st.ctx = saved_ctx
        if orelse is not None and not st.dead:
            self.exec_block(orelse.body.body, st)

    # ================================================================== expressions
    def eval(self, node: cst.BaseExpression | None, st: State) -> Val:
        if node is None:
            return EMPTY
        h = self._expr.get(type(node))
        if h is None:
            return EMPTY
        return h(node, st)

    def _e_number(self, node, st: State) -> Val:
        c = _const(node)
        return Val(kind="number", attrs={"const": c} if is_const(c) else None)

    def _e_string(self, node, st: State) -> Val:
        c = _const(node) if isinstance(node, cst.SimpleString) else _NOCONST
        return Val(kind="str", attrs={"const": c} if is_const(c) else None)

    def _e_fstring(self, node: cst.FormattedString, st: State) -> Val:
        for part in node.parts:
            if isinstance(part, cst.FormattedStringExpression):
                self.eval(part.expression, st)
        return Val(kind="str")

    def _e_await(self, node, st: State) -> Val:
        return self.eval(node.expression, st)

    def _e_yield(self, node: cst.Yield, st: State) -> Val:
        if node.value is not None and not isinstance(node.value, cst.From):
            st.act.yields.append(self.eval(node.value, st))
        elif isinstance(node.value, cst.From):
            st.act.yields.append(self.eval(node.value.item, st))
        return EMPTY

    def _e_walrus(self, node: cst.NamedExpr, st: State) -> Val:
        v = self.eval(node.value, st)
        self.bind(node.target, v, st, node)
        return v

    def _e_starred(self, node, st: State) -> Val:
        return self.eval(node.value, st)

    def _e_ifexp(self, node: cst.IfExp, st: State) -> Val:
        self.eval(node.test, st)
        return join([self.eval(node.body, st), self.eval(node.orelse, st)])

    def _e_boolop(self, node: cst.BooleanOperation, st: State) -> Val:
        return join([self.eval(node.left, st), self.eval(node.right, st)])

    def _e_unary(self, node: cst.UnaryOperation, st: State) -> Val:
        v = self.eval(node.expression, st)
        if isinstance(node.operator, cst.Not):
            return Val(kind="bool")
        if v.kind == "number":
            c = _const(node)
            return Val(kind="number", attrs={"const": c} if is_const(c) else None)
        return v

    def _e_name(self, node: cst.Name, st: State) -> Val:
        return self.lookup(node.value, st)

    def lookup(self, name: str, st: State) -> Val:
        v = st.env.get(name)
        if v is not None:
            return v
        for env in st.act.closure:
            v = env.get(name)
            if v is not None:
                return v
        v = self.genv.get(name)
        if v is not None:
            if self._deps is not None and v.kind in ("function", "class", "jaxfn", "bound"):
                self._depend_on_val(v)
            return v
        if name in ("True", "False", "None"):
            c = {"True": True, "False": False, "None": None}[name]
            return Val(kind="none" if c is None else "bool", attrs={"const": c})
        if name in BUILTIN_NAMES:
            return ref(f"builtins.{name}")
        return EMPTY

    def _depend_on_val(self, v: Val) -> None:
        fn = v.get("fn")
        if fn is not None:
            self.depend(fn.node)
        cls = v.get("cls")
        if cls is not None:
            self.depend(cls.node)
        info = v.get("jaxfn")
        if info is not None and info.get("fn") is not None:
            self.depend(info["fn"].node)

    def _e_attribute(self, node: cst.Attribute, st: State) -> Val:
        attr = node.attr.value
        full = dotted_name(node)
        if full is not None:
            v = st.env.get(full)
            if v is None:
                for env in st.act.closure:
                    v = env.get(full)
                    if v is not None:
                        break
            if v is None and "." in full and full.split(".", 1)[0] not in st.env:
                v = self.genv.get(full)
            if v is not None:
                return v
        base = self.eval(node.value, st)
        out = self.attribute_of(base, attr, node, st)
        if isinstance(node.value, cst.Name) and node.value.value == "self" and st.act.fn is not None and st.act.fn.cls is not None:
            # state held by the object outlives the call (optimizer state, caches)
            if out.kind not in ("function", "bound", "ref", "class") and not out.get("persistent"):
                out = out.with_attrs(persistent=True)
        return out

    def attribute_of(self, base: Val, attr: str, node, st: State) -> Val:
        kind = base.kind
        if kind == "ref":
            return ref(K.canonical(f"{base.attrs['qual']}.{attr}"))
        if kind == "class":
            info: ClassInfo = base.attrs["cls"]
            m = info.find_method(attr)
            if m is not None:
                return Val(kind="function", attrs={"fn": m, "unbound": True})
            if attr == "apply" and info.is_autograd_fn:
                return Val(kind="autograd_apply", attrs={"cls": info})
            return EMPTY
        if attr in K.META_ATTRS:
            return Val(kind="meta")
        if attr == "grad":
            self.emit(UseEvent(node, st.ctx, "grad", base))
            return self._grad_of(base, node)
        if attr == "data":
            c = Cut("data", node, hard=False)
            out = cut(base, c, kind=base.kind, attrs=_keep(base.attrs, ("fw", "dtype", "shape", "numel", "leaf", "grad_of", "persistent")))
            return out.with_attrs(data_of=True, data_base=base)
        if attr in ("T", "mT", "H", "real", "imag"):
            return base
        if kind in ("instance", "module") and base.attrs and "cls" in base.attrs:
            info = base.attrs["cls"]
            m = info.find_method(attr)
            if m is not None:
                return Val(base.live, base.cuts, base.notes, base.graphs, "bound", {"fn": m, "self": base})
            fields = base.get("fields")
            if fields and attr in fields:
                return fields[attr]
            facts = self.class_facts(info)
            if attr in facts:
                return self._fact_view(base, facts[attr])
        if kind == "module":
            if attr in ("trainable_variables", "trainable_weights", "variables", "weights"):
                return Val(base.live, kind="params", attrs={"fw": base.get("fw"), "cls": base.get("cls"), "fields": base.get("fields")})
            if base.get("cls") is not None:
                # not set by __init__ (inherited, set elsewhere): could be anything
                o = Origin("sym", f"{attr}", node, certain=False, framework=base.get("fw") or "torch")
                return Val(frozenset({o}), kind=None, attrs={"fw": base.get("fw")} if base.get("fw") else None)
            return Val(base.live, base.cuts, base.notes, base.graphs, None, {"submodule_of": True, "fw": base.get("fw")} if base.get("fw") else None)
        if kind == "optimizer":
            if attr == "param_groups":
                return Val(frozenset(base.get("opt_params") or ()), kind="container")
            return EMPTY
        if kind in ("number", "str", "bool", "none", "meta", "function", "tape"):
            return EMPTY
        if base is EMPTY:
            return EMPTY
        # unknown object: its attributes derive from it (e.g. `outputs.logits`)
        return Val(base.live, base.cuts, base.notes, base.graphs, None, _keep(base.attrs, ("fw", "sym", "persistent")))

    def _grad_of(self, base: Val, node) -> Val:
        origins = base.live or frozenset(o for o, _ in base.cuts)
        return Val(kind="tensor", attrs={"grad_of": origins or frozenset({node}), "fw": base.get("fw") or "torch", "dtype": base.get("dtype")})

    def _e_subscript(self, node: cst.Subscript, st: State) -> Val:
        base = self.eval(node.value, st)
        idx_vals = []
        for el in node.slice:
            sl = el.slice
            if isinstance(sl, cst.Index):
                idx_vals.append(self.eval(sl.value, st))
            else:
                for part in (sl.lower, sl.upper, sl.step):
                    if part is not None:
                        self.eval(part, st)
        if base.kind == "ref":
            return base  # typing subscripts: Optional[...], Tensor[...]
        items = base.get("items")
        key = _single_index_const(node)
        if items is not None and isinstance(key, int) and -len(items) <= key < len(items):
            return items[key]
        keys = base.get("keys")
        if isinstance(keys, dict) and isinstance(key, str) and key in keys:
            return keys[key]
        if base.kind == "dict":
            # d[k] with k unknown: any of its values (iterating a dict gives keys, indexing values)
            vals = list(keys.values()) if isinstance(keys, dict) and keys else []
            item = join(vals + [Val(base.live, base.cuts, base.notes, base.graphs)]) if vals else Val(base.live, base.cuts, base.notes, base.graphs)
            if base.get("persistent") and not item.get("persistent"):
                item = item.with_attrs(persistent=True)
            return item
        if base.kind in ("container", "list", "tuple", "grad", "params"):
            item = self.iter_val(base)
            if base.get("persistent") and not item.get("persistent"):
                item = item.with_attrs(persistent=True)
            return item
        if base.kind in ("meta", "number", "str"):
            return Val(kind="meta") if base.kind == "meta" else EMPTY
        # tensor indexing: a view of the same history
        attrs = _keep(base.attrs, ("fw", "dtype", "grad_of", "traced", "sym", "persistent", "inference", "saved_output"))
        return Val(base.live, base.cuts, base.notes, base.graphs, base.kind if base.kind == "tensor" else None, attrs)

    def _e_seq(self, node, st: State) -> Val:
        vals = []
        for e in node.elements:
            v = self.eval(e.value, st)
            vals.append(v)
        kind = "tuple" if isinstance(node, cst.Tuple) else "list" if isinstance(node, cst.List) else "container"
        attrs = {"items": tuple(vals)} if not any(isinstance(e, cst.StarredElement) for e in node.elements) else None
        return combine(vals, kind=kind, attrs=attrs)

    def _e_dict(self, node: cst.Dict, st: State) -> Val:
        vals = []
        keys: dict[str, Val] = {}
        for e in node.elements:
            if isinstance(e, cst.DictElement):
                k = const_of(e.key)
                v = self.eval(e.value, st)
                self.eval(e.key, st)
                if isinstance(k, str):
                    keys[k] = v
                vals.append(v)
            else:
                vals.append(self.eval(e.value, st))
        return combine(vals, kind="dict", attrs={"keys": keys} if keys else None)

    def _e_comp(self, node, st: State) -> Val:
        # a comprehension is a loop: run it as iteration 0, and again as iteration 1 when the
        # first pass differentiated or stepped something (a tape used per element)
        n_diff = self._diff_count
        first = self._e_comp_once(node, st, 0)
        if self._diff_count != n_diff:
            return join([first, self._e_comp_once(node, st, 1)])
        return first

    def _e_comp_once(self, node, st: State, iteration: int) -> Val:
        inner = st.fork()
        inner.ctx = st.ctx.replace(loops=st.ctx.loops + ((node, iteration),))
        f = node.for_in
        while f is not None:
            it = self.eval(f.iter, inner)
            self.bind(f.target, self.iter_val(it), inner, node)
            for cond in f.ifs:
                self.eval(cond.test, inner)
            f = f.inner_for_in
        if isinstance(node, cst.DictComp):
            self.eval(node.key, inner)
            elt = self.eval(node.value, inner)
            kind = "dict"
        else:
            elt = self.eval(node.elt, inner)
            kind = "list"
        # events and freed graphs inside the comprehension are real; the bindings are not
        st.freed = inner.freed
        st.used = inner.used
        st.gflag = inner.gflag
        return Val(elt.live, elt.cuts, elt.notes, elt.graphs, kind, {"elem": elt})

    def _e_lambda(self, node: cst.Lambda, st: State) -> Val:
        fn = self._fn_by_node.get(id(node))
        if fn is None:
            closure = (st.env,) + st.act.closure if st.act.fn is not None else ()
            fn = FunctionInfo(node, "<lambda>", "<lambda>", None, closure)
            fn.is_lambda = True
            self._read_params(fn, node.params, st)
            self._fn_by_node[id(node)] = fn
            self.functions.append(fn)
        return Val(kind="function", attrs={"fn": fn})

    def iter_val(self, v: Val) -> Val:
        """The value of one element of iterable `v`."""
        elem = v.get("elem")
        if elem is not None:
            return elem
        items = v.get("items")
        if items is not None:
            return join(items) if items else EMPTY
        keys = v.get("keys")
        if isinstance(keys, dict) and keys and v.kind == "dict":
            return Val(kind="str")
        if v.kind == "params":
            return Val(v.live, kind="tensor", attrs={"leaf": True, "param": True, "fw": v.get("fw") or "torch"})
        if v.kind in ("number", "str", "meta", "ref"):
            return EMPTY
        if v.kind == "tensor":
            return Val(v.live, v.cuts, v.notes, v.graphs, "tensor", _keep(v.attrs, ("fw", "dtype", "traced", "inference", "scalar_elems")))
        return Val(v.live, v.cuts, v.notes, v.graphs, None, _keep(v.attrs, ("fw",)))

    def _e_compare(self, node: cst.Comparison, st: State) -> Val:
        left = self.eval(node.left, st)
        rights = []
        ops = []
        for c in node.comparisons:
            rights.append(self.eval(c.comparator, st))
            ops.append(_CMP.get(type(c.operator), "?"))
        self.emit(CompareEvent(node, st.ctx, left, ops, rights, node.left, [c.comparator for c in node.comparisons]))
        if len(ops) == 1 and ops[0] in ("is", "is not") and rights[0].kind == "none":
            # `h is not None`: decided when h is known to be None or a real object, so that
            # `if h is not None: h = h.detach()` runs exactly on the iterations it does
            known = _none_ness(left)
            if known is not None:
                return Val(kind="bool", attrs={"const": known if ops[0] == "is" else not known})
        vals = [left] + rights
        if any(v.kind == "tensor" or v.get("fw") or v.live for v in vals) and not all(o in ("is", "is not", "in", "not in") for o in ops):
            c = Cut("compare", node, hard=False)
            return cut(combine(vals), c, kind="tensor", attrs={"dtype": "bool", "fw": _fw_of(vals)})
        return Val(kind="bool")

    def _e_binop(self, node: cst.BinaryOperation, st: State) -> Val:
        left = self.eval(node.left, st)
        right = self.eval(node.right, st)
        op = _OPS.get(type(node.operator), "?")
        res = self._arith(node, st, [left, right], op=op)
        bev = BinOpEvent(node, st.ctx, op, left, right, res)
        self.emit(bev)
        if bev.notes:
            res = res.add_notes(bev.notes)
        return res

    def _arith(self, node, st: State, vals: list[Val], op: str) -> Val:
        a, b = vals[0], vals[1]
        if a.kind == "number" and b.kind == "number" and a.is_empty and b.is_empty:
            ca, cb = a.get("const", _NOCONST), b.get("const", _NOCONST)
            c = _fold(op, ca, cb)
            return Val(kind="number", attrs={"const": c} if is_const(c) else None)
        if a.kind in ("list", "tuple") and b.kind in ("list", "tuple") and op == "+":
            return combine(vals, kind=a.kind)
        if a.kind == "str" or b.kind == "str":
            return Val(kind="str")
        saves = op in ("*", "/", "**", "@", "//", "%")
        out = self.op_result(node, st, vals, saves=saves)
        if saves and st.ctx.grad == "on" and isinstance(node, cst.BinaryOperation):
            # mul/matmul/div save an operand when the *other* one needs a gradient; pow saves its base
            for operand, v, other in ((node.left, a, b), (node.right, b, a)):
                needed = bool(other.live) or (op == "**" and operand is node.left)
                if isinstance(operand, cst.Name) and v.graphs and any(o.certain for o in v.live) and needed:
                    st.env[f"{operand.value}.#saved"] = Val(kind="meta", attrs={"by": node})
        attrs = {}
        fw = _fw_of(vals)
        if fw:
            attrs["fw"] = fw
            if fw == "jax":
                attrs["jax_array"] = True  # arithmetic on JAX values yields arrays
        dt = _dtype_of(vals)
        if dt:
            attrs["dtype"] = dt
        shape = _broadcast_shape(vals)
        if shape is not None:
            attrs["shape"] = shape
        n = _numel(vals)
        if n:
            attrs["numel"] = n
        if all(v.get("scalar") or v.kind == "number" for v in vals) and any(v.get("scalar") for v in vals):
            attrs["scalar"] = True
        elif any(v.get("scalar") is False for v in vals):
            attrs["scalar"] = False
        if any(v.get("traced") for v in vals):
            attrs["traced"] = True
        if st.ctx.grad == "inference":
            attrs["inference"] = st.ctx.grad_node or node
        elif any(v.get("inference") for v in vals):
            attrs["inference"] = next(v.get("inference") for v in vals if v.get("inference"))
        if any(v.get("rg") and v.get("leaf") and not v.graphs for v in vals):
            attrs["nonleaf_from"] = node  # `torch.randn(..., requires_grad=True) * 0.01`
        if op == "@":
            shapes = [v.get("shape") for v in vals]
            if all(sh is not None and len(sh) == 1 for sh in shapes):
                attrs["scalar"] = True
            else:
                attrs.pop("scalar", None)
        kind = "tensor" if any(v.kind in ("tensor", "grad") for v in vals) else out.kind
        if kind is None and (fw or any(o.certain for o in out.live)):
            kind = "tensor"
        return Val(out.live, out.cuts, out.notes, out.graphs, kind, attrs or None)

    # ---------------------------------------------------------------- op results
    def op_result(self, node, st: State, vals: Iterable[Val], kind: str | None = None, attrs: dict | None = None, saves: bool = True) -> Val:
        """A differentiable operation on `vals` under the current grad mode. `saves`: the op
        keeps tensors for its backward (mul, sigmoid, linear...); views, casts, +, -, sum and
        mean do not, so walking them twice is harmless and they add no graph node."""
        out = combine(vals, kind=kind, attrs=attrs)
        if st.ctx.grad == "inference" and out.get("inference") is None:
            out = out.with_attrs(inference=st.ctx.grad_node or node)
        if not out.live:
            return out
        if st.ctx.grad != "on" and _is_torch_val(out):
            # under no_grad / inference_mode torch records nothing
            c = Cut("no_grad" if st.ctx.grad == "off" else "inference", st.ctx.grad_node or node, hard=False)
            res = cut(out, c, kind=kind, attrs=attrs)
            if st.ctx.grad == "inference":
                res = res.with_attrs(inference=st.ctx.grad_node or node)
            return res
        if not saves or not any(o.certain for o in out.live):
            # graph nodes matter only where something certainly requires grad
            return out
        g = (node, st.ctx.key)
        return Val(out.live, out.cuts, out.notes, out.graphs | {g}, kind, attrs)

    def inplace_result(self, node, st: State, target: Val, vals: list[Val]) -> Val:
        """A tensor modified in place keeps its identity (leaf-ness, origin); under no_grad
        the update is not recorded, so what was mixed in is cut."""
        if st.ctx.grad == "on" or not _is_torch_val(target):
            out = self.op_result(node, st, [target] + vals)
            attrs = target.attrs
            if attrs and "saved_output" in attrs:
                attrs = {k: v for k, v in attrs.items() if k != "saved_output"}
            return Val(out.live, out.cuts, out.notes, out.graphs, target.kind or "tensor", attrs)
        mixed = combine(vals)
        c = Cut("no_grad" if st.ctx.grad == "off" else "inference", st.ctx.grad_node or node, hard=False)
        mixed = cut(mixed, c)
        return Val(target.live, target.cuts | mixed.cuts, target.notes | mixed.notes, target.graphs, target.kind or "tensor", target.attrs)

    def opt_event(self, node, st: State, kind: str, target: Val) -> None:
        """Record optimizer bookkeeping and update the path's last gradient event."""
        self.emit(OptEvent(node, st.ctx, kind, target, st.gflag))
        if kind == "zero_grad":
            prev = st.gflag[0] if st.gflag else None
            st.gflag = ("zero_after_backward" if prev in ("backward", "backward_scaled") else "zero", node)
        elif kind == "step":
            st.gflag = ("step", node)
        elif kind == "unscale":
            st.gflag = ("unscaled", node)

    # ================================================================== calls
    def _e_call(self, node: cst.Call, st: State) -> Val:
        func_node = node.func
        recv = None
        method = None
        if isinstance(func_node, cst.Attribute):
            method = func_node.attr.value
            full = dotted_name(func_node)
            stored = st.env.get(full) if full else None
            if stored is not None and stored.kind in ("function", "jaxfn", "class", "ref", "bound"):
                func = stored
                recv = None
                method = None if stored.kind != "bound" else method
            else:
                recv = self.eval(func_node.value, st)
                if recv.kind == "ref":
                    func = ref(K.canonical(f"{recv.attrs['qual']}.{method}"))
                    recv = None
                    method = None
                elif recv.kind == "class":
                    func = self.attribute_of(recv, method, func_node, st)
                    recv = None
                    method = None
                else:
                    func = self.attribute_of(recv, method, func_node, st) if recv.kind in ("instance", "module") else EMPTY
        else:
            func = self.eval(func_node, st)
        args: list[Val] = []
        arg_nodes: list[cst.BaseExpression] = []
        kwargs: dict[str, Val] = {}
        kw_nodes: dict[str, cst.BaseExpression] = {}
        star: list[Val] = []
        for a in node.args:
            v = self.eval(a.value, st)
            if a.keyword is not None:
                kwargs[a.keyword.value] = v
                kw_nodes[a.keyword.value] = a.value
            elif a.star == "*":
                star.append(v)
                args.append(self.iter_val(v).with_attrs(starred=True))
                arg_nodes.append(a.value)
            elif a.star == "**":
                star.append(v)
            else:
                args.append(v)
                arg_nodes.append(a.value)
        qual = K.canonical(func.attrs["qual"]) if func.kind == "ref" else None
        self._mark_saved(node, st, arg_nodes, args, qual, method, func)
        ev = CallEvent(node, st.ctx, qual, method, recv, func, args, kwargs, arg_nodes, kw_nodes)
        ev.result = EMPTY
        try:
            result = self.apply_call(ev, st, star)
        except (AnalysisBudgetExceeded, RecursionError):
            raise
        if result.live and st.ctx.grad == "on" and (ev.name in _SAVES_OUTPUT or (func.kind == "module" and (func.get("qual_new") or "").rsplit(".", 1)[-1] in _SAVES_OUTPUT_MODULES)):
            # softmax/sigmoid/tanh/exp/relu keep their *result* for backward: changing it in
            # place afterwards breaks that backward (GL306)
            result = result.with_attrs(saved_output=node)
        ev.result = result
        ev.ctx = st.ctx
        self.emit(ev)
        if ev.notes:
            result = result.add_notes(ev.notes)
        return result

    # Operations that keep an *input* for their backward pass (so changing that input in place
    # afterwards breaks the backward). Ops that save only their output (relu, sigmoid, tanh,
    # exp, softmax), only sizes/indices (sum, mean, cumsum, where, cat, views) are left out.
    _SAVES_INPUT = frozenset({
        "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d",
        "linear", "bilinear", "matmul", "mm", "bmm", "mv", "einsum", "addmm", "baddbmm", "mul",
        "multiply", "div", "divide", "true_divide", "pow", "log", "log1p", "log2", "log10", "sin",
        "cos", "tan", "atan", "atan2", "asin", "acos", "sinh", "cosh", "prod", "norm", "dist",
        "cdist", "batch_norm", "layer_norm", "group_norm", "instance_norm", "std", "var",
        "gelu", "silu", "leaky_relu", "prelu", "softplus", "hardswish", "mish", "erf", "abs",
        "clamp", "clip", "square", "lerp", "addcmul", "addcdiv", "cross_entropy", "nll_loss",
        "mse_loss", "l1_loss", "smooth_l1_loss", "huber_loss", "binary_cross_entropy",
        "binary_cross_entropy_with_logits", "kl_div", "cosine_similarity", "pairwise_distance",
        "grid_sample", "interpolate", "max_pool2d", "max_pool1d", "max_pool3d", "scaled_dot_product_attention",
    })
    _OUTPUT_ONLY_MODULES = frozenset({"ReLU", "Sigmoid", "Tanh", "Softmax", "LogSoftmax", "ELU", "ReLU6", "Hardtanh", "Dropout", "Dropout2d", "Identity", "Flatten", "Unflatten", "AdaptiveAvgPool2d", "AvgPool2d", "Upsample"})

    def _mark_saved(self, node, st: State, arg_nodes, args, qual, method, func) -> None:
        """Remember that a named tensor was handed to an operation that saves it for backward
        (so a later in-place change of it breaks that backward)."""
        if st.ctx.grad != "on":
            return
        if func.kind == "module":
            if func.get("qual_new", "").rsplit(".", 1)[-1] in self._OUTPUT_ONLY_MODULES:
                return
        elif qual is not None or method is not None:
            name = qual.rsplit(".", 1)[-1] if qual else method
            if qual is not None and not qual.startswith("torch."):
                return
            if name not in self._SAVES_INPUT:
                return
        elif not (func.kind is None and any(o.certain for o in func.live)):
            return
        for an, av in zip(arg_nodes, args):
            if isinstance(an, cst.Name) and av.graphs and any(o.certain for o in av.live):
                st.env[f"{an.value}.#saved"] = Val(kind="meta", attrs={"by": node})

    def apply_call(self, ev: CallEvent, st: State, star: list[Val]) -> Val:
        func = ev.func
        if ev.qual is not None:
            return self.call_qual(ev, st, star)
        if func.kind == "module" and ev.recv is not None:
            return self.call_module(func, ev, st)  # `self.encoder(x)`: a submodule call
        if ev.method is not None and ev.recv is not None:
            r = self.call_method(ev, st, star)
            if r is not None:
                return r
        kind = func.kind
        if kind == "function":
            return self.call_function(func.attrs["fn"], ev, st, ev.args, ev.kwargs, self_val=None)
        if kind == "bound":
            return self.call_function(func.attrs["fn"], ev, st, ev.args, ev.kwargs, self_val=func.attrs["self"])
        if kind == "class":
            return self.instantiate(func.attrs["cls"], ev, st)
        if kind == "jaxfn":
            return self.call_jaxfn(func.attrs["jaxfn"], ev, st)
        if kind == "autograd_apply":
            return self.op_result(ev.node, st, ev.args + list(ev.kwargs.values()), kind="tensor", attrs={"fw": "torch"})
        if kind in ("module", "instance"):
            return self.call_module(func, ev, st)
        # unknown callee: the result derives from the callee and the arguments
        vals = [func] + ev.args + list(ev.kwargs.values()) + star
        if ev.recv is not None:
            vals.append(ev.recv)
        tensor_in = any(v.graphs or v.kind == "tensor" for v in vals)
        out = self.op_result(ev.node, st, vals, saves=tensor_in)
        fw = _fw_of(vals)
        if fw and out.live:
            return out.with_attrs(fw=fw)
        return out

    # ---------------------------------------------------------------- inlining
    def call_function(self, fn: FunctionInfo, ev: CallEvent, st: State, args: list[Val], kwargs: dict[str, Val], self_val: Val | None, traced: dict | None = None, params_override: dict | None = None) -> Val:
        depth = st.act.depth + 1
        if fn in self._active:
            # recursion: the recursive call adds nothing the non-recursive paths don't
            return Val(kind=None)
        if depth > self.MAX_DEPTH or self.steps > self.budget * 0.8:
            # not followed any deeper: the result is unknown (not "differentiable in all the
            # arguments", which would invent history where the callee detaches)
            o = Origin("sym", f"{fn.name}()", ev.node, certain=False)
            return Val(frozenset({o}))
        fn.inlined = True
        if self._inlined_now is not None:
            self._inlined_now.add(fn.node)
        self.depend(fn.node)
        if fn.cls is not None:
            self.depend(fn.cls.node)
        env: dict[str, Val] = {}
        params = list(fn.params)
        pos_args = list(args)
        if self_val is not None and params and fn.cls is not None and not fn.is_static:
            env[params[0][0]] = self_val
            params = params[1:]
        elif fn.cls is not None and fn.is_static is False and ev.func.get("unbound") and params:
            # Class.method(obj, ...)
            if pos_args:
                env[params[0][0]] = pos_args.pop(0)
            params = params[1:]
        rest_pos: list[Val] = []
        for name, kind, _ann in params:
            if kind == "pos":
                if pos_args:
                    env[name] = pos_args.pop(0)
                elif name in kwargs:
                    env[name] = kwargs[name]
                elif name in fn.defaults:
                    env[name] = fn.defaults[name]
                else:
                    env[name] = EMPTY
            elif kind == "star":
                rest_pos = pos_args
                pos_args = []
                env[name] = combine(rest_pos, kind="tuple", attrs={"items": tuple(rest_pos)})
            elif kind == "kwonly":
                env[name] = kwargs.get(name, fn.defaults.get(name, EMPTY))
            elif kind == "starstar":
                named = {n for n, _, _ in fn.params}
                extra = {k: v for k, v in kwargs.items() if k not in named}
                env[name] = combine(extra.values(), kind="dict", attrs={"keys": extra})
        if params_override:
            env.update(params_override)
        if self_val is not None and fn.params:
            fields = self_val.get("fields")
            if fields:
                sn = fn.params[0][0]
                for k, v in fields.items():
                    env.setdefault(f"{sn}.{k}", v)
        ctx = st.ctx.replace(fn=fn, calls=st.ctx.calls + (ev.node,))
        if fn.grad:
            ctx = ctx.replace(grad=fn.grad, grad_node=fn.grad_node)
        if traced is not None:
            ctx = ctx.replace(traced=traced)
        act = Activation(fn, fn.closure, depth)
        inner = State(env, st.freed, ctx, act, st.used, st.gflag)
        self._active.append(fn)
        try:
            self._exec_function_body(fn, inner)
        finally:
            self._active.pop()
        st.freed = inner.freed
        st.used = inner.used
        st.gflag = inner.gflag
        if self_val is not None and params_override is None:
            fields = self_val.get("fields")
            self_name = fn.params[0][0] if fn.params else None
            if fields is not None and self_name:
                fields.update(_self_fields(env, self_name))
        # containers and objects passed in may have been mutated (append, attribute stores)
        self._propagate_mutations(fn, ev, st, env)
        ret = self._after_function(fn, inner, "inline", env)
        if act.yields and not act.returns:
            ret = combine(act.yields, kind="list")
        return ret

    def _propagate_mutations(self, fn: FunctionInfo, ev: CallEvent, st: State, env: dict) -> None:
        names = [p[0] for p in fn.params]
        arg_nodes = list(ev.arg_nodes)
        if ev.method is not None and ev.recv is not None and names:
            recv_node = ev.node.func.value if isinstance(ev.node.func, cst.Attribute) else None
            arg_nodes = [recv_node] + arg_nodes
        for pname, anode in zip(names, arg_nodes):
            aname = dotted_name(anode) if anode is not None else None
            if aname is None:
                continue
            prefix = pname + "."
            for k, v in env.items():
                if k.startswith(prefix):
                    st.env[aname + k[len(pname):]] = v
            inner_v = env.get(pname)
            if inner_v is not None and inner_v.kind in ("container", "list", "dict"):
                outer = st.env.get(aname)
                if outer is not None and outer is not inner_v:
                    st.env[aname] = join([outer, inner_v])

    def instantiate(self, info: ClassInfo, ev: CallEvent, st: State) -> Val:
        self.depend(info.node)
        if info.is_optimizer:
            params = ev.arg(0, "params") or EMPTY
            return Val(kind="optimizer", attrs={"opt_params": _param_origins(params), "cls": info})
        inst = self._instance_val(info, ev.node, label=None)
        init = info.find_method("__init__")
        if init is not None:
            # run __init__ with the real arguments: what it stores on self (a model, an
            # optimizer over it, a criterion) is what the other methods will find
            self.call_function(init, ev, st, ev.args, ev.kwargs, self_val=inst)
        return inst

    def _instance_val(self, info: ClassInfo, node, label: str | None) -> Val:
        if info.is_module:
            o = Origin("module", label or "", node, certain=True, framework="tf" if info.is_keras else "torch")
            return Val(frozenset({o}), kind="module", attrs={"cls": info, "fresh_origin": label is None, "fw": "tf" if info.is_keras else "torch", "fields": {}})
        # `fields`: the object's attributes as its methods set them (mutable, like the object)
        return Val(kind="instance", attrs={"cls": info, "fields": {}})

    def call_module(self, mod: Val, ev: CallEvent, st: State) -> Val:
        info: ClassInfo | None = mod.get("cls")
        frozen = mod.get("frozen") or (mod.live and all(o.frozen for o in mod.live))
        # a frozen module contributes no trainable origin to its output
        vals = ([] if frozen else [mod]) + ev.args + list(ev.kwargs.values())
        fw = mod.get("fw") or _fw_of(vals) or "torch"
        if info is not None:
            fwd = info.find_method("forward") or info.find_method("call") or info.find_method("__call__")
            if fwd is not None:
                ret = self.call_function(fwd, ev, st, ev.args, ev.kwargs, self_val=mod)
                if mod.kind == "module":
                    out = self.op_result(ev.node, st, [ret, mod], kind=ret.kind if ret.kind not in (None, "none") else "tensor", attrs=_keep(ret.attrs, ("items", "scalar", "dtype", "shape")))
                    return out.with_attrs(fw=fw)
                return ret
        red = mod.get("reduction")
        attrs = {"fw": fw}
        n = _numel(ev.args)
        if n:
            attrs["numel"] = n  # order of magnitude: layers keep the batch/spatial size
        dt = _dtype_of(ev.args)
        if dt:
            attrs["dtype"] = dt
        if red == "none":
            attrs["scalar"] = False
        elif red in ("sum", "mean"):
            attrs["scalar"] = True
        if mod.get("loss_module"):
            attrs["loss_of"] = mod.get("loss_module")
            if red is None:
                attrs["scalar"] = True
        elif red is None and any(a.get("scalar") is False for a in ev.args):
            attrs["scalar"] = False  # a layer keeps the batch dimension
        inf = next((v.get("inference") for v in ev.args if v.get("inference") is not None), None)
        if inf is not None and st.ctx.grad == "inference":
            attrs["inference"] = inf
        return self.op_result(ev.node, st, vals, kind="tensor", attrs=attrs)

    # ---------------------------------------------------------------- API calls
    def call_qual(self, ev: CallEvent, st: State, star: list[Val]) -> Val:
        q = ev.qual
        node = ev.node
        args = ev.args
        kwargs = ev.kwargs
        allv = args + list(kwargs.values()) + star
        head = q.split(".", 1)[0]
        # ---------------- builtins
        if head == "builtins":
            return self.call_builtin(q[9:], ev, st, allv)
        # ---------------- numpy: leaves the framework
        if head == "numpy":
            attrs = {"fw": "np", "np_func": q}
            if q in ("numpy.array", "numpy.asarray") and ev.arg_nodes:
                dt = _literal_dtype(ev.arg_nodes[0], args[0] if args else EMPTY, "float64")
                if dt:
                    attrs["dtype"] = dt
            return cut(combine(allv), Cut("np_call", node, hard=True), kind="ndarray", attrs=attrs)
        if head == "math":
            return cut(combine(allv), Cut("math_call", node, hard=True), kind="number")
        if head == "torch":
            return self.call_torch(q, ev, st, allv)
        if head in ("tensorflow", "keras"):
            return self.call_tf(q, ev, st, allv)
        if head in ("jax", "flax", "optax", "equinox"):
            if q == "jax.config.update" and args and args[0].get("const") == "jax_enable_x64":
                self.jax_x64 = bool(len(args) > 1 and args[1].get("const"))
            return self.call_jax(q, ev, st, allv)
        if head == "functools" and q == "functools.partial" and args:
            f = args[0]
            if f.kind in ("function", "jaxfn", "ref", "class"):
                return f.with_attrs(partial_args=tuple(args[1:]))
            return f
        if head in ("copy",) and q in ("copy.deepcopy", "copy.copy") and args:
            return args[0]
        # other libraries: derive from the arguments
        out = self.op_result(node, st, allv)
        if head in ("torchvision", "timm", "transformers") and q.split(".")[-1][:1].isupper():
            return self._new_module(node, q, fw="torch")
        if (".from_pretrained" in q or q.endswith("create_model")) and head in ("timm", "transformers"):
            return self._new_module(node, q, fw="torch")
        return out

    def _new_module(self, node, qual: str, fw: str, attrs: dict | None = None) -> Val:
        o = Origin("module", "", node, certain=True, framework=fw)
        a = {"fresh_origin": True, "fw": fw, "qual_new": qual, "created": node}
        if attrs:
            a.update(attrs)
        return Val(frozenset({o}), kind="module", attrs=a)

    def call_builtin(self, name: str, ev: CallEvent, st: State, allv: list[Val]) -> Val:
        node = ev.node
        args = ev.args
        if name in ("float", "int", "bool", "complex"):
            if args:
                return cut(args[0], Cut(name, node, hard=True), kind="number")
            return Val(kind="number")
        if name in ("len", "isinstance", "hasattr", "callable", "id", "type", "hash", "repr", "str", "format", "print"):
            if name in ("len", "id", "hash"):
                return Val(kind="number", attrs={"dtype": "int"})
            return Val(kind="str" if name in ("str", "repr", "format") else "number")
        if name in ("list", "tuple", "sorted", "reversed", "set", "frozenset", "iter"):
            if args:
                a = args[0]
                elem = self.iter_val(a)
                items = a.get("items") if name in ("list", "tuple") else None
                attrs = {"elem": elem}
                if items is not None:
                    attrs["items"] = items
                return Val(a.live, a.cuts, a.notes, a.graphs, "list" if name != "tuple" else "tuple", attrs)
            return Val(kind="list")
        if name == "dict":
            return combine(allv, kind="dict")
        if name == "zip":
            elems = tuple(self.iter_val(a) for a in args)
            return combine(args, kind="list", attrs={"elem": combine(elems, kind="tuple", attrs={"items": elems})})
        if name == "enumerate" and args:
            e = self.iter_val(args[0])
            item = combine([e], kind="tuple", attrs={"items": (Val(kind="number"), e)})
            return combine([args[0]], kind="list", attrs={"elem": item})
        if name == "range":
            return Val(kind="list", attrs={"elem": Val(kind="number", attrs={"dtype": "int"})})
        if name == "next" and args:
            return self.iter_val(args[0])
        if name in ("sum", "max", "min", "abs", "round", "pow", "divmod", "map", "filter", "any", "all"):
            if name in ("any", "all"):
                return Val(kind="bool")
            if name == "round" and args and args[0].live:
                return cut(args[0], Cut("round", node, hard=False), kind=args[0].kind)
            vals = [self.iter_val(args[0])] if name == "sum" and args else allv
            if name in ("max", "min") and len(args) == 1:
                vals = [self.iter_val(args[0])]
            if name in ("map", "filter"):
                return combine(allv, kind="list")
            out = self.op_result(node, st, vals + ([args[1]] if name == "sum" and len(args) > 1 else []))
            kinds = {v.kind for v in vals}
            if "tensor" in kinds or out.live:
                attrs = {"fw": _fw_of(vals)} if _fw_of(vals) else {}
                if name == "sum" and all(v.get("scalar") for v in vals):
                    attrs["scalar"] = True
                return out.with_(kind="tensor", attrs=attrs or None)
            return out.with_(kind="number") if kinds <= {"number", None} and not out.live else out
        if name == "getattr" and len(args) >= 2:
            c = args[1].get("const", _NOCONST)
            if isinstance(c, str):
                return self.attribute_of(args[0], c, node, st)
            return combine([args[0]])
        if name == "super":
            return EMPTY
        if name == "open":
            return Val(kind="instance")
        return self.op_result(node, st, allv)

    # ---------------- torch
    def call_torch(self, q: str, ev: CallEvent, st: State, allv: list[Val]) -> Val:
        node = ev.node
        args = ev.args
        kwargs = ev.kwargs
        last = q.rsplit(".", 1)[-1]
        if q in K.TORCH_NO_GRAD:
            return Val(kind="ctx", attrs={"grad_ctx": "off"})
        if q in K.TORCH_ENABLE_GRAD:
            return Val(kind="ctx", attrs={"grad_ctx": "on"})
        if q in K.TORCH_INFERENCE:
            mode = ev.arg(0, "mode")
            c = mode.get("const", _NOCONST) if mode is not None else True
            return Val(kind="ctx", attrs={"grad_ctx": "on" if c is False else "inference"})
        if q in K.TORCH_SET_GRAD:
            a = ev.arg(0, "mode")
            c = a.get("const", _NOCONST) if a is not None else _NOCONST
            if c is True:
                return Val(kind="ctx", attrs={"grad_ctx": "on"})
            if c is False:
                return Val(kind="ctx", attrs={"grad_ctx": "off"})
            return Val(kind="ctx")
        if q in K.TORCH_AUTOCAST:
            return Val(kind="ctx", attrs={"autocast": ev})
        if q == "torch.set_default_dtype" and args:
            c = args[0].get("qual")
            if c in ("torch.float64", "torch.double"):
                self.default_dtype = "float64"
            elif c in ("torch.float32", "torch.float"):
                self.default_dtype = "float32"
            return EMPTY
        if q in K.TORCH_AUTOGRAD_GRAD:
            return self.autograd_grad(ev, st)
        if q in K.TORCH_AUTOGRAD_BACKWARD:
            target = ev.arg(0, "tensors") or EMPTY
            self.differentiate(ev, st, "backward", target, ev.arg_node(0, "tensors"))
            return Val(kind="none")
        if q in K.TORCH_PARAMETER:
            data = ev.arg(0, "data") or EMPTY
            o = Origin("tensor", "", node, certain=True)
            return Val(frozenset({o}), kind="tensor", attrs={"fw": "torch", "leaf": True, "param": True, "fresh_origin": True, "dtype": data.get("dtype") or self.default_dtype, "shape": data.get("shape"), "created": node})
        if q in K.TORCH_FACTORIES:
            return self.torch_factory(q, ev, st)
        if q.startswith(K.TORCH_OPTIMIZER_PREFIXES) and last[:1].isupper() and not any(p in q for p in K.TORCH_OPTIMIZER_NON_OPT):
            params = ev.arg(0, "params") or EMPTY
            return Val(kind="optimizer", attrs={"opt_params": _param_origins(params), "qual": q})
        if q.startswith("torch.optim.lr_scheduler."):
            return Val(kind="instance")
        if q in K.TORCH_CLIP:
            self.opt_event(node, st, "clip", args[0] if args else EMPTY)
            return Val(kind="tensor", attrs={"fw": "torch"})
        if q in K.TORCH_GRADSCALER:
            return Val(kind="scaler", attrs={"qual": q, "created": node})
        if q in K.TORCH_DETACH_FUNCS and args:
            return cut(args[0], Cut("detach", node, hard=False), kind="tensor", attrs=_keep(args[0].attrs, ("fw", "dtype", "shape")))
        if q.startswith("torch.nn.") and last[:1].isupper() and not q.startswith("torch.nn.functional") and not q.startswith("torch.nn.utils") and not q.startswith("torch.nn.init"):
            attrs = {}
            red = ev.arg(None, "reduction")
            if red is not None and isinstance(red.get("const"), str):
                attrs["reduction"] = red.get("const")
            if last.endswith("Loss"):
                attrs["loss_module"] = last
            return self._new_module(node, q, fw="torch", attrs=attrs)
        if last in K.NONDIFF_FUNCS:
            vals = allv
            return cut(combine(vals), Cut(last, node, hard=False), kind="tensor", attrs={"fw": "torch", "dtype": "int" if last.startswith("arg") else None})
        if q.startswith("torch.utils.data."):
            return Val(kind="instance")
        if q in ("torch.stack", "torch.cat", "torch.concat", "torch.concatenate", "torch.vstack", "torch.hstack"):
            seq = args[0] if args else EMPTY
            elem = self.iter_val(seq)
            vals = [seq, elem] + list(kwargs.values())
            attrs = {"fw": "torch"}
            dt = elem.get("dtype")
            if dt:
                attrs["dtype"] = dt
            return self.op_result(node, st, vals, kind="tensor", attrs=attrs, saves=False)
        if q in ("torch.manual_seed", "torch.cuda.is_available", "torch.device", "torch.cuda.device_count", "torch.save", "torch.load", "torch.get_default_dtype", "torch.is_tensor", "torch.is_grad_enabled", "torch.numel", "torch.Size", "torch.compile", "torch.jit.script", "torch.cuda.synchronize", "torch.cuda.memory_allocated"):
            if q in ("torch.compile", "torch.jit.script") and args:
                return args[0]
            return EMPTY
        if q.startswith("torch.testing.") or q in ("torch.allclose", "torch.equal", "torch.isclose"):
            return Val(kind="bool")
        # generic differentiable torch function
        attrs: dict = {"fw": "torch"}
        dt = _dtype_of(allv)
        if dt:
            attrs["dtype"] = dt
        if last in ("sum", "mean", "norm", "dot", "trace", "logsumexp", "prod", "std", "var", "max", "min", "amax", "amin") and "dim" not in kwargs and len(args) <= 1:
            attrs["scalar"] = True
        elif any(v.get("scalar") is False for v in allv) and last not in _REDUCTIONS:
            attrs["scalar"] = False
        if q.startswith("torch.nn.functional.") and last.endswith(("_loss", "entropy", "loss")) or last in ("mse_loss", "l1_loss", "cross_entropy", "nll_loss", "binary_cross_entropy", "binary_cross_entropy_with_logits", "smooth_l1_loss", "kl_div", "huber_loss"):
            red = kwargs.get("reduction")
            rc = red.get("const") if red is not None else "mean"
            attrs["scalar"] = rc != "none"
            attrs["loss_of"] = last
            if rc:
                attrs["reduction"] = rc
        if st.ctx.grad == "inference":
            attrs["inference"] = st.ctx.grad_node or node
        n = _numel(allv)
        if n and not attrs.get("scalar"):
            attrs["numel"] = n
        tensor_in = any(v.kind in ("tensor", "grad") or v.graphs for v in allv)
        return self.op_result(node, st, allv, kind="tensor", attrs=attrs, saves=tensor_in)

    def torch_factory(self, q: str, ev: CallEvent, st: State) -> Val:
        node = ev.node
        args = ev.args
        kwargs = ev.kwargs
        attrs: dict = {"fw": "torch", "leaf": True, "created": node}
        dtype = kwargs.get("dtype")
        dq = dtype.get("qual") if dtype is not None else None
        if dq:
            attrs["dtype"] = _torch_dtype(dq)
        elif q in K.DEFAULT_INT_FACTORIES:
            attrs["dtype"] = "int"
        elif q in K.TORCH_SHAPE_ONLY and args:
            attrs["dtype"] = args[0].get("dtype")
        elif q in ("torch.tensor", "torch.as_tensor") and args:
            attrs["dtype"] = _literal_dtype(ev.arg_nodes[0], args[0], self.default_dtype)
        elif q in ("torch.arange",) and all(isinstance(a.get("const"), int) for a in args):
            attrs["dtype"] = "int"
        elif q == "torch.DoubleTensor":
            attrs["dtype"] = "float64"
        elif q == "torch.from_numpy":
            attrs["dtype"] = None
        else:
            attrs["dtype"] = self.default_dtype
        shape = _shape_from_args(q, ev)
        if shape is not None:
            attrs["shape"] = shape
            n = 1
            for d in shape:
                n *= d
            attrs["numel"] = n
            attrs["scalar"] = n == 1 and len(shape) == 0
        if q in ("torch.tensor", "torch.scalar_tensor") and args and args[0].kind == "number":
            attrs["scalar"] = True
        if st.ctx.grad == "inference":
            attrs["inference"] = st.ctx.grad_node or node
        rg = kwargs.get("requires_grad")
        base = EMPTY
        if q in K.TORCH_VALUE_COPIES and args:
            data = args[0]
            if data.live:
                base = cut(data, Cut("tensor_ctor", node, hard=True))
            else:
                base = Val(_E, data.cuts, data.notes)
        if rg is not None and rg.get("const") is True:
            o = Origin("tensor", "", node, certain=True)
            attrs["rg"] = True
            attrs["fresh_origin"] = True
            return Val(frozenset({o}), base.cuts, base.notes, _E, "tensor", attrs)
        return Val(_E, base.cuts, base.notes, _E, "tensor", attrs)

    def autograd_grad(self, ev: CallEvent, st: State) -> Val:
        outputs = ev.arg(0, "outputs") or EMPTY
        inputs = ev.arg(1, "inputs") or EMPTY
        create = _truthy(ev.arg(None, "create_graph"))
        retain = _truthy(ev.arg(None, "retain_graph"))
        if retain is False and ev.arg(None, "retain_graph") is None:
            retain = create  # retain_graph defaults to create_graph
        self.differentiate(ev, st, "autograd_grad", outputs, ev.arg_node(0, "outputs"), sources=inputs, source_node=ev.arg_node(1, "inputs"), retain=retain, create_graph=create)
        elem_attrs = {"fw": "torch", "grad_result": ev.node, "created_by_grad": True}
        if create:
            out = combine([outputs, inputs])
            g = (ev.node, st.ctx.key)
            val = Val(out.live, out.cuts, out.notes, out.graphs | {g}, "tensor", elem_attrs)
        else:
            c = Cut("no_create_graph", ev.node, hard=True)
            origins = outputs.live | inputs.live
            in_origins = inputs.live | frozenset(o for item in (inputs.get("items") or ()) for o in item.live)
            # the note follows the gradients as values (it is dropped by .detach(), .sign(),
            # comparisons: a gradient used as data on purpose, as in FGSM)
            note = Note("no_create_graph", ev.node, data=in_origins)
            val = Val(_E, frozenset((o, c) for o in origins), frozenset({note}), _E, "tensor", elem_attrs)
        return Val(val.live, val.cuts, val.notes, val.graphs, "grad", {"elem": val, "grad_result": ev.node})

    def differentiate(self, ev: CallEvent | None, st: State, kind: str, target: Val, target_node, *, sources: Val | None = None, source_node=None, retain: bool | None = False, create_graph: bool | None = False, tape=None, node=None, extra=None) -> DiffEvent:
        node = node if node is not None else ev.node
        hit = target.graphs & st.freed if st.freed else frozenset()
        d = DiffEvent(node, st.ctx, kind, target, target_node, sources=sources, source_node=source_node, retain=retain, create_graph=create_graph, freed_hit=hit, tape=tape, extra=extra)
        self._diff_count += 1
        self.emit(d)
        if kind == "backward":
            st.gflag = ("backward_scaled" if target.get("scaled") is not None else "backward", node)
        if kind in ("backward", "autograd_grad") and retain is False:
            st.freed = st.freed | target.graphs
        return d

    # ---------------- tensorflow / keras
    def call_tf(self, q: str, ev: CallEvent, st: State, allv: list[Val]) -> Val:
        node = ev.node
        args = ev.args
        kwargs = ev.kwargs
        last = q.rsplit(".", 1)[-1]
        if q in K.TF_TAPE:
            p = _truthy(kwargs.get("persistent"))
            w = _truthy(kwargs.get("watch_accessed_variables"))
            if kwargs.get("watch_accessed_variables") is None:
                w = True
            return Val(kind="tape", attrs={"tape": TapeInfo(node, p, w)})
        if q in K.TF_VARIABLE:
            init = ev.arg(0, "initial_value") or EMPTY
            dtype = kwargs.get("dtype")
            dt = _tf_dtype(dtype.get("qual")) if dtype is not None and dtype.get("qual") else None
            if dt is None:
                dt = _literal_dtype(ev.arg_node(0, "initial_value"), init, "float32") if ev.arg_node(0, "initial_value") is not None else init.get("dtype")
            trainable = kwargs.get("trainable")
            o = Origin("tfvar", "", node, certain=True, framework="tf")
            if trainable is not None and trainable.get("const") is False:
                o = Origin("tfvar", "", node, certain=False, framework="tf")
            return Val(frozenset({o}), kind="tensor", attrs={"fw": "tf", "tfvar": True, "dtype": dt, "created": node, "fresh_origin": True, "leaf": True})
        if q in K.TF_STOP_GRADIENT and args:
            return cut(args[0], Cut("detach", node, hard=False), kind="tensor", attrs={"fw": "tf"})
        if q in K.TF_CAST and len(allv) >= 2:
            dt = ev.arg(1, "dtype")
            dq = dt.get("qual") if dt is not None else None
            tdt = _tf_dtype(dq) if dq else None
            x = args[0] if args else EMPTY
            if tdt in ("int", "bool"):
                return cut(x, Cut("int_cast", node, hard=False), kind="tensor", attrs={"fw": "tf", "dtype": tdt})
            return self.op_result(node, st, [x], kind="tensor", attrs={"fw": "tf", "dtype": tdt or x.get("dtype")})
        if q in K.TF_CONST:
            data = ev.arg(0, "value") or EMPTY
            attrs = {"fw": "tf", "tfconst": True, "created": node}
            if data.live:
                return cut(data, Cut("tensor_ctor", node, hard=True), kind="tensor", attrs=attrs)
            return Val(_E, data.cuts, data.notes, _E, "tensor", attrs)
        if (q.startswith("keras.") or q.startswith("tensorflow.keras.")) and last[:1].isupper() and ("layers" in q or "models" in q or last in ("Sequential", "Model")):
            return self._new_module(node, q, fw="tf")
        if q.startswith("keras.optimizers.") and last[:1].isupper():
            return Val(kind="optimizer", attrs={"opt_params": frozenset(), "qual": q, "fw": "tf"})
        if q.startswith("keras.losses.") and last[:1].isupper():
            return Val(kind="instance", attrs={"loss_module": last, "fw": "tf"})
        if last in K.NONDIFF_FUNCS:
            return cut(combine(allv), Cut(last, node, hard=False), kind="tensor", attrs={"fw": "tf"})
        if q.startswith("tensorflow.data."):
            return Val(kind="instance")
        attrs = {"fw": "tf"}
        if all(v.get("tfconst") or v.kind == "number" or not v.live for v in allv) and any(v.get("tfconst") for v in allv):
            attrs["tfconst"] = True
        return self.op_result(node, st, allv, kind="tensor", attrs=attrs)

    # ---------------- jax
    def call_jax(self, q: str, ev: CallEvent, st: State, allv: list[Val]) -> Val:
        node = ev.node
        args = ev.args
        kwargs = ev.kwargs
        last = q.rsplit(".", 1)[-1]
        if q in K.JAX_GRAD or q in K.JAX_JACOBIAN or q in K.JAX_JIT or q in K.JAX_VJP:
            f = args[0] if args else kwargs.get("fun") or EMPTY
            argnums = _argnums(ev)
            has_aux = _truthy(kwargs.get("has_aux"))
            kind = "grad" if (q in K.JAX_GRAD or q in K.JAX_JACOBIAN) else "vjp" if q in K.JAX_VJP else "jit"
            info = {"kind": kind, "qual": q, "fn": f.get("fn"), "inner": f.get("jaxfn"), "node": node, "argnums": argnums, "has_aux": has_aux, "value": q == "jax.value_and_grad", "static": _static_from_call(ev)}
            if kind == "vjp":
                # jax.vjp(f, *primals): f runs now, traced at every primal
                self.call_jaxfn({**info, "kind": "grad", "argnums": tuple(range(len(args) - 1))}, ev, st, args=args[1:])
                return Val(kind="tuple")
            # analyse the transformed function right away (it is traced when called)
            self.trace_jax_function(info, st)
            return Val(kind="jaxfn", attrs={"jaxfn": info})
        if q in K.JAX_STOP_GRADIENT and args:
            return cut(args[0], Cut("detach", node, hard=False), kind="tensor", attrs={"fw": "jax"})
        if q.startswith("jax.numpy.") or q.startswith("jax.nn.") or q.startswith("jax.lax.") or q.startswith("jax.scipy."):
            if last in K.NONDIFF_FUNCS:
                return cut(combine(allv), Cut(last, node, hard=False), kind="tensor", attrs={"fw": "jax"})
            attrs = {"fw": "jax", "jax_array": True}
            if any(v.get("traced") for v in allv):
                attrs["traced"] = True
            dt = _dtype_of(allv)
            if dt:
                attrs["dtype"] = dt
            elif last in ("linspace", "zeros", "ones", "full", "eye", "zeros_like", "ones_like"):
                attrs["dtype"] = "float64" if self.jax_x64 else "float32"
            if last in ("array", "asarray") and args:
                dt = _literal_dtype(ev.arg_nodes[0], args[0], "float64" if self.jax_x64 else "float32")
                if dt:
                    attrs["dtype"] = dt
            elif last == "arange" and args and all(isinstance(a.get("const"), int) or a.get("dtype") == "int" for a in args):
                attrs["dtype"] = "int"
            return self.op_result(node, st, allv, kind="tensor", attrs=attrs)
        if q.startswith("jax.random."):
            return self.op_result(node, st, allv, kind="tensor", attrs={"fw": "jax", "jax_array": True})
        # jax.tree_util & co: containers and functions, not arrays
        return self.op_result(node, st, allv)

    def trace_jax_function(self, info: dict, st: State) -> None:
        """Interpret the function given to jax.grad/jit with traced arguments and, for the
        grad family, report its return value as differentiated."""
        fn: FunctionInfo | None = info.get("fn")
        inner = info.get("inner")
        if fn is None and inner is not None:
            fn = inner.get("fn")
        if fn is None:
            return
        key = (id(fn), info["kind"], id(info["node"]))
        if key in self._jax_analysed:
            return
        self._jax_analysed.add(key)
        env_params = {}
        argnums = info.get("argnums") or (0,)
        static = info.get("static") or set()
        for idx, (name, kind, _a) in enumerate(fn.params):
            if kind not in ("pos", "kwonly"):
                continue
            traced = (idx in argnums) if info["kind"] == "grad" else (idx not in static and name not in static)
            if info["kind"] == "jit" and idx in static:
                traced = False
            if traced:
                o = Origin("jaxarg", name, info["node"], certain=True, framework="jax")
                env_params[name] = Val(frozenset({o}), kind="tensor", attrs={"fw": "jax", "traced": True})
            else:
                env_params[name] = Val(kind=None, attrs={"fw": "jax", "traced": info["kind"] == "jit"} if info["kind"] == "jit" else None)
        fake = CallEvent(info["node"], st.ctx, None, None, None, Val(kind="function", attrs={"fn": fn}), [], {}, [], {})
        traced_ctx = {"kind": info["kind"], "fn": fn, "node": info["node"]}
        ret = self.call_function(fn, fake, st.fork(), [], {}, self_val=None, traced=traced_ctx, params_override=env_params)
        if info["kind"] == "grad":
            target = ret
            items = ret.get("items")
            if info.get("has_aux") and items:
                target = items[0]
            self.differentiate(None, st.fork(), "jax", target, None, node=info["node"], extra={"info": info, "returns": ret, "fn": fn})

    def call_jaxfn(self, info: dict, ev: CallEvent, st: State, args: list[Val] | None = None) -> Val:
        args = ev.args if args is None else args
        kind = info["kind"]
        self.emit(CallEvent(ev.node, st.ctx, "<jaxfn-call>", None, None, Val(kind="jaxfn", attrs={"jaxfn": info}), args, ev.kwargs, ev.arg_nodes, ev.kw_nodes))
        if kind == "grad":
            grads = Val(kind="grad", attrs={"fw": "jax", "grad_result": ev.node})
            if info.get("value"):
                return Val(kind="tuple", attrs={"items": (Val(kind="tensor", attrs={"fw": "jax"}), grads)})
            return grads
        return combine(args, kind="tensor", attrs={"fw": "jax"})

    # ---------------------------------------------------------------- methods
    def call_method(self, ev: CallEvent, st: State, star: list[Val]) -> Val | None:
        m = ev.method
        recv = ev.recv
        node = ev.node
        args = ev.args
        kwargs = ev.kwargs
        kind = recv.kind
        recv_node = node.func.value if isinstance(node.func, cst.Attribute) else None
        recv_name = dotted_name(recv_node)
        if m in _CLIP_METHODS:
            # accelerator.clip_grad_norm_(params, ...): a norm of the gradients, not a graph value
            self.opt_event(node, st, "clip", args[0] if args else EMPTY)
            return Val(kind="tensor", attrs={"fw": "torch"})
        # ---- differentiation
        if m == "backward" and kind not in ("optimizer", "module", "instance", "scaler"):
            retain = _truthy(ev.arg(1, "retain_graph"))
            create = _truthy(ev.arg(2, "create_graph"))
            if ev.arg(1, "retain_graph") is None:
                retain = create
            target = recv
            self.differentiate(ev, st, "backward", target, recv_node, retain=retain, create_graph=create)
            return Val(kind="none")
        if m in K.ACCELERATE_BACKWARD_METHODS and kind in (None, "instance", "module") and args:
            # accelerator.backward(loss) / self.manual_backward(loss) / fabric.backward(loss)
            if recv.get("sym") or kind in ("instance", "module") or recv is EMPTY or recv_name in ("self",):
                self.differentiate(ev, st, "backward", args[0], ev.arg_nodes[0], retain=_truthy(kwargs.get("retain_graph")))
                return Val(kind="none")
        if kind == "tape":
            return self.call_tape_method(ev, st, recv.attrs["tape"], recv_name)
        # ---- optimizers / scalers
        if kind == "optimizer":
            if m == "zero_grad":
                self.opt_event(node, st, "zero_grad", recv)
            elif m == "step":
                for a in args:
                    if a.kind == "function":
                        self.call_function(a.attrs["fn"], ev, st, [], {}, None)
                self.opt_event(node, st, "step", recv)
            elif m in ("minimize",) and args:
                self.opt_event(node, st, "step", recv)
            elif m == "apply_gradients":
                self.opt_event(node, st, "step", recv)
            return EMPTY
        if kind == "scaler":
            if m == "scale" and args:
                return args[0].with_attrs(scaled=recv.get("created"))
            if m == "step" and args:
                self.opt_event(node, st, "step", args[0])
            elif m == "unscale_" and args:
                self.opt_event(node, st, "unscale", args[0])
            return EMPTY
        # ---- modules
        if kind in ("module", "instance") and recv.get("cls") is not None:
            info: ClassInfo = recv.attrs["cls"]
            meth = info.find_method(m)
            if meth is not None:
                return self.call_function(meth, ev, st, args, kwargs, self_val=recv)
        if kind == "module" or (recv.live and any(o.kind == "module" for o in recv.live) and m in _MODULE_METHODS):
            return self.module_method(ev, st, recv, m, recv_name)
        if recv.get("sym") and m in _MODULE_EVIDENCE:
            for o in recv.live:
                if o.kind == "sym":
                    o.certain = True
                    o.kind = "module"
            return self.module_method(ev, st, recv, m, recv_name)
        if recv.get("sym") and m in ("zero_grad",):
            self.opt_event(node, st, "zero_grad", recv)
            return EMPTY
        if kind in ("container", "list", "dict", "grad", "tuple", "params") or (kind is None and m in _CONTAINER_METHODS and not recv.get("fw")):
            r = self.container_method(ev, st, recv, m, recv_name, recv_node)
            if r is not None:
                return r
        if kind in ("number", "str", "bool", "none", "meta"):
            return Val(kind=kind if m not in ("format", "join", "split") else "str")
        # ---- tensors (and unknown receivers)
        return self.tensor_method(ev, st, recv, m, recv_name, recv_node)

    def module_method(self, ev, st, recv: Val, m: str, recv_name) -> Val:
        node = ev.node
        if m in ("parameters", "trainable_variables"):
            return Val(recv.live, kind="params", attrs={"fw": recv.get("fw")})
        if m == "named_parameters":
            p = Val(recv.live, kind="tensor", attrs={"leaf": True, "param": True, "fw": recv.get("fw") or "torch"})
            item = Val(recv.live, kind="tuple", attrs={"items": (Val(kind="str"), p)})
            return Val(recv.live, kind="list", attrs={"elem": item, "fw": recv.get("fw")})
        if m == "zero_grad":
            self.opt_event(node, st, "zero_grad", recv)
            return EMPTY
        if m in ("to", "cuda", "cpu", "train", "eval", "float", "double", "half", "requires_grad_", "apply", "type", "share_memory"):
            if m == "requires_grad_":
                flag = ev.arg(0, "requires_grad")
                _freeze(recv, flag is not None and flag.get("const") is False)
            return recv
        if m in ("predict", "predict_on_batch"):
            return cut(combine([recv] + ev.args), Cut("predict", node, hard=True), kind="ndarray", attrs={"fw": "np"})
        if m == "compile":
            loss = ev.arg(None, "loss")
            if loss is not None:
                self.keras_loss(loss, ev, st)
            return EMPTY
        if m in ("state_dict", "load_state_dict", "named_modules", "modules", "children", "named_children", "register_buffer", "register_parameter", "add_module", "summary", "save", "save_weights", "load_weights", "fit", "evaluate", "build"):
            return EMPTY
        if m in ("forward", "call", "__call__"):
            return self.call_module(recv, ev, st)
        return self.op_result(node, st, [recv] + ev.args + list(ev.kwargs.values()), attrs={"fw": recv.get("fw")} if recv.get("fw") else None)

    def keras_loss(self, loss: Val, ev: CallEvent, st: State) -> None:
        fns = []
        if loss.kind == "function":
            fns.append(loss.attrs["fn"])
        for item in loss.get("items") or ():
            if item.kind == "function":
                fns.append(item.attrs["fn"])
        for v in (loss.get("keys") or {}).values():
            if v.kind == "function":
                fns.append(v.attrs["fn"])
        for fn in fns:
            if len([p for p in fn.params if p[1] == "pos"]) < 2:
                continue
            o = Origin("kerasout", "y_pred", fn.node, certain=True, framework="tf")
            params = {fn.params[0][0]: Val(kind="tensor", attrs={"fw": "tf"}), fn.params[1][0]: Val(frozenset({o}), kind="tensor", attrs={"fw": "tf"})}
            fake = CallEvent(ev.node, st.ctx, None, None, None, Val(kind="function", attrs={"fn": fn}), [], {}, [], {})
            ret = self.call_function(fn, fake, st.fork(), [], {}, None, params_override=params)
            self.differentiate(None, st.fork(), "keras", ret, None, node=fn.node, extra={"fn": fn, "compile": ev.node})

    def call_tape_method(self, ev: CallEvent, st: State, tape: TapeInfo, recv_name) -> Val:
        m = ev.method
        node = ev.node
        if m == "watch" and ev.args:
            x = ev.args[0]
            arg = ev.arg_nodes[0]
            # tape.watch(x) or tape.watch([x, t])
            names = [dotted_name(e.value) for e in arg.elements] if isinstance(arg, (cst.List, cst.Tuple)) else [dotted_name(arg)]
            for org in x.live:
                tape.watched.add(org)
            for xn in names:
                o = Origin("watched", xn or "", node, certain=True, framework="tf")
                tape.watched.add(o)
                if xn is not None:
                    cur = self.lookup(xn, st)
                    st.env[xn] = Val(cur.live | {o}, cur.cuts, cur.notes, cur.graphs, cur.kind or "tensor", {**(cur.attrs or {}), "watched_by": frozenset({id(tape)})})
            return EMPTY
        if m in ("gradient", "jacobian", "batch_jacobian"):
            target = ev.arg(0, "target") or EMPTY
            sources = ev.arg(1, "sources") or EMPTY
            used_before = id(tape) in st.used
            self.differentiate(ev, st, "tape", target, ev.arg_node(0, "target"), sources=sources, source_node=ev.arg_node(1, "sources"), tape=tape, extra={"method": m, "tape_name": recv_name, "tape_used_before": used_before})
            if not tape.persistent:
                st.used = st.used | {id(tape)}
            return Val(kind="grad", attrs={"fw": "tf", "grad_result": node, "elem": Val(kind="tensor", attrs={"fw": "tf", "grad_result": node})})
        if m in ("stop_recording", "reset"):
            return Val(kind="ctx")
        return EMPTY

    def container_method(self, ev, st, recv: Val, m: str, recv_name, recv_node) -> Val | None:
        args = ev.args
        if m in ("append", "add", "extend", "insert", "appendleft", "update", "setdefault"):
            if args:
                value = args[-1] if m != "extend" else self.iter_val(args[0])
                if m == "setdefault":
                    value = args[1] if len(args) > 1 else EMPTY
                self.emit(StoreEvent(ev.node, st.ctx, "append", recv, recv_node, recv_name, value, ev.arg_nodes[-1] if ev.arg_nodes else None))
                if recv_name is not None:
                    attrs = {k: v for k, v in (recv.attrs or {}).items() if k not in ("items", "elem")}
                    attrs["elem"] = join([recv.get("elem") or self.iter_val(recv), value]) if (recv.get("elem") is not None or recv.get("items")) else value
                    st.env[recv_name] = combine([recv, value], kind=recv.kind or "list", attrs=attrs)
                if m == "setdefault":
                    return value
            return Val(kind="none")
        if m in ("pop", "popleft", "get", "values", "copy", "items", "keys"):
            if m == "get":
                key = ev.arg(0)
                keys = recv.get("keys")
                c = key.get("const") if key is not None else None
                if isinstance(keys, dict) and isinstance(c, str) and c in keys:
                    return keys[c]
                default = ev.arg(1)
                return join([self.iter_val(recv)] + ([default] if default is not None else []))
            if m == "items":
                e = self.iter_val(recv) if recv.kind != "dict" else Val(recv.live, recv.cuts, recv.notes, recv.graphs, None)
                return Val(recv.live, recv.cuts, recv.notes, recv.graphs, "list", {"elem": combine([e], kind="tuple", attrs={"items": (Val(kind="str"), e)})})
            if m == "keys":
                return Val(kind="list", attrs={"elem": Val(kind="str")})
            if m == "values":
                e = Val(recv.live, recv.cuts, recv.notes, recv.graphs, None)
                return Val(recv.live, recv.cuts, recv.notes, recv.graphs, "list", {"elem": e})
            if m == "copy":
                return recv
            return self.iter_val(recv)
        if m in ("clear",):
            if recv_name is not None:
                st.env[recv_name] = Val(kind=recv.kind)
            return Val(kind="none")
        if m in ("index", "count"):
            return Val(kind="number")
        return None

    def tensor_method(self, ev, st, recv: Val, m: str, recv_name, recv_node) -> Val:
        node = ev.node
        args = ev.args
        kwargs = ev.kwargs
        fw = recv.get("fw")
        if m == "detach":
            return cut(recv, Cut("detach", node, hard=False), kind="tensor", attrs=_keep(recv.attrs, ("fw", "dtype", "shape", "numel", "grad_of", "scalar")))
        if m == "detach_":
            if recv_name is not None:
                st.env[recv_name] = cut(recv, Cut("detach", node, hard=False), kind="tensor", attrs=recv.attrs)
            return Val(kind="none")
        if m in K.HARD_CUT_METHODS:
            kind = "number" if m == "item" else "ndarray" if m == "numpy" else "list"
            res = cut(recv, Cut(K.HARD_CUT_METHODS[m], node, hard=True), kind=kind, attrs={"fw": "np"} if m == "numpy" else None)
            return res
        if m in K.META_METHODS:
            return Val(kind="meta" if m != "numel" else "number")
        if m == "requires_grad_":
            flag = ev.arg(0, "requires_grad")
            if flag is not None and flag.get("const") is False:
                _freeze(recv, True)
                return recv
            res = self._make_requires_grad(recv, node, recv_name)
            if recv_name is not None:
                st.env[recv_name] = res
            return res
        if m == "retain_grad":
            if recv_name is not None:
                st.env[recv_name] = recv.with_attrs(retains_grad=True)
            return Val(kind="none")
        if m == "register_hook":
            return EMPTY
        if m == "clone":
            res = self.op_result(node, st, [recv], kind="tensor", attrs=_keep(recv.attrs, ("fw", "dtype", "shape", "numel", "scalar", "traced")), saves=False)
            if st.ctx.grad == "inference":
                res = res.with_attrs(inference=st.ctx.grad_node or node)
            return res.without_attrs("grad_of", "leaf")
        if m in K.INT_CAST_METHODS:
            return cut(recv, Cut("int_cast", node, hard=False), kind="tensor", attrs={"fw": fw, "dtype": "int" if m != "bool" else "bool"})
        if m in K.FLOAT_CAST_METHODS:
            res = self.op_result(node, st, [recv], kind="tensor", attrs=_keep(recv.attrs, ("fw", "shape", "numel", "scalar", "grad_of", "traced")), saves=False)
            return res.with_attrs(dtype=K.FLOAT_CAST_METHODS[m], leaf=False if recv.live else recv.get("leaf"), nonleaf_from=node if recv.get("rg") else None)
        if m in K.NONDIFF_FUNCS:
            return cut(recv, Cut(m, node, hard=False), kind="tensor", attrs={"fw": fw, "dtype": "int" if m.startswith("arg") else None})
        if m in ("to", "cuda", "cpu", "type", "contiguous", "pin_memory", "requires_grad"):
            attrs = _keep(recv.attrs, ("fw", "dtype", "shape", "numel", "scalar", "grad_of", "traced", "inference"))
            for a in args + list(kwargs.values()):
                dq = a.get("qual")
                if dq and dq.startswith("torch.") and _torch_dtype(dq):
                    attrs["dtype"] = _torch_dtype(dq)
            if m in ("to", "cuda", "type") and recv.get("rg") and recv.get("leaf"):
                attrs["nonleaf_from"] = node
            if m == "cpu" and recv.get("leaf") and not recv.live:
                attrs["leaf"] = True
            res = self.op_result(node, st, [recv] + args, kind="tensor", attrs=attrs, saves=False)
            return res
        if m.endswith("_") and not m.startswith("_") and m not in ("requires_grad_", "detach_", "zero_grad"):
            # in-place tensor op: mutate the receiver
            via_data = bool(recv.get("data_of"))
            saved = st.env.get(f"{recv_name}.#saved") if recv_name else None
            by = saved.get("by") if saved is not None else recv.get("saved_output")
            self.emit(InplaceEvent(node, st.ctx, recv.get("data_base") if via_data else recv, recv_node, m, via_data, recv_name, by))
            if m == "zero_" and recv.get("grad_of") is not None:
                self.opt_event(node, st, "zero_grad", recv)
            if recv_name is not None and not via_data:
                new = self.inplace_result(node, st, recv, args)
                st.env[recv_name] = new
                return new
            return recv
        if m in ("sum", "mean", "norm", "prod", "max", "min", "amax", "amin", "std", "var", "logsumexp", "all", "any", "nansum", "nanmean", "median"):
            has_dim = bool(args) or "dim" in kwargs or "axis" in kwargs
            attrs = {"fw": fw or "torch" if recv.kind == "tensor" or recv.live else fw}
            dt = recv.get("dtype")
            if dt:
                attrs["dtype"] = dt
            if not has_dim:
                attrs["scalar"] = True
                n = _numel([recv])
                if n:
                    attrs["reduced_from"] = n
            elif m in ("max", "min") and args:
                attrs["scalar"] = None
            if recv.get("grad_of") is not None or recv.get("grad_derived") or recv.get("grad_result") is not None:
                attrs["grad_derived"] = True
            if recv.get("traced"):
                attrs["traced"] = True
            res = self.op_result(node, st, [recv] + args, kind="tensor", attrs=attrs, saves=m not in ("sum", "mean", "nansum"))
            if m in ("max", "min") and has_dim:
                return res.with_(kind="tensor")
            return res
        if m in ("view", "reshape", "flatten", "view_as", "reshape_as", "squeeze", "unsqueeze", "permute", "transpose", "t", "expand", "expand_as", "narrow", "select", "unfold", "chunk", "split", "unbind", "ravel", "__getitem__"):
            attrs = _keep(recv.attrs, ("fw", "dtype", "grad_of", "traced", "inference", "sym"))
            res = self.op_result(node, st, [recv] + args, kind="tensor" if recv.kind in ("tensor", "grad") or fw else None, attrs=attrs or None, saves=False)
            return res
        if m in ("set", "add", "multiply", "get", "min", "max") and recv.get("at_of"):
            return self.op_result(node, st, [recv] + args, kind="tensor", attrs={"fw": "jax"})
        if m == "at" or (recv.kind is None and m == "at"):
            return recv.with_attrs(at_of=True)
        if m == "assign" or m in ("assign_add", "assign_sub"):
            if recv.get("tfvar") or fw == "tf":
                c = Cut("assign", node, hard=True)
                vals = args
                if m != "assign":
                    vals = args
                new_cuts = recv.cuts
                for a in vals:
                    new_cuts = new_cuts | frozenset((o, c) for o in a.live) | a.cuts
                if recv_name is not None:
                    st.env[recv_name] = Val(recv.live, new_cuts, recv.notes, recv.graphs, recv.kind, recv.attrs)
                self.emit(InplaceEvent(node, st.ctx, recv, recv_node, m, False, recv_name))
                return EMPTY
        if m in ("format", "join", "split", "strip", "startswith", "endswith", "lower", "upper", "replace"):
            return Val(kind="str")
        # generic tensor method: derives from the receiver and the arguments
        attrs = {}
        if fw:
            attrs["fw"] = fw
            if fw == "jax" and recv.get("jax_array"):
                attrs["jax_array"] = True
        dt = recv.get("dtype")
        if dt and m not in ("float", "double"):
            attrs["dtype"] = dt
        if recv.get("traced"):
            attrs["traced"] = True
        if st.ctx.grad == "inference":
            attrs["inference"] = st.ctx.grad_node or node
        if recv.get("grad_of") is not None or recv.get("grad_derived") or recv.get("grad_result") is not None:
            attrs["grad_derived"] = True
        n = _numel([recv])
        if n:
            attrs["numel"] = n
        if m not in _REDUCTIONS and (recv.get("scalar") is False or any(a.get("scalar") is False for a in args)):
            attrs["scalar"] = False
        vals = [recv] + args + list(kwargs.values())
        kind = "tensor" if recv.kind in ("tensor", "grad") or fw else None
        # `accelerator.prepare(model)`: no tensor goes in, so nothing is saved for backward
        tensor_in = any(v.graphs or v.kind in ("tensor", "grad") for v in vals)
        return self.op_result(node, st, vals, kind=kind, attrs=attrs or None, saves=tensor_in)

    def _make_requires_grad(self, base: Val, node, name: str | None) -> Val:
        o = Origin("tensor", name or "", node, certain=True, framework=base.get("fw") or "torch", leaf=bool(base.get("leaf", True)) and not base.live)
        attrs = dict(base.attrs or {})
        attrs["rg"] = True
        attrs["rg_set_at"] = node
        attrs.setdefault("fw", "torch")
        # requires_grad_ only works on a leaf: whatever the value was computed from, it now
        # starts a new graph (history and markers of earlier computations do not carry over)
        return Val(base.live | {o}, _E, _E, _E, "tensor", attrs)


# ====================================================================== helpers
_OPS = {
    cst.Add: "+", cst.Subtract: "-", cst.Multiply: "*", cst.Divide: "/", cst.FloorDivide: "//",
    cst.Modulo: "%", cst.Power: "**", cst.MatrixMultiply: "@", cst.LeftShift: "<<",
    cst.RightShift: ">>", cst.BitAnd: "&", cst.BitOr: "|", cst.BitXor: "^",
    cst.AddAssign: "+", cst.SubtractAssign: "-", cst.MultiplyAssign: "*", cst.DivideAssign: "/",
    cst.FloorDivideAssign: "//", cst.ModuloAssign: "%", cst.PowerAssign: "**",
    cst.MatrixMultiplyAssign: "@", cst.LeftShiftAssign: "<<", cst.RightShiftAssign: ">>",
    cst.BitAndAssign: "&", cst.BitOrAssign: "|", cst.BitXorAssign: "^",
}
_CMP = {
    cst.Equal: "==", cst.NotEqual: "!=", cst.LessThan: "<", cst.LessThanEqual: "<=",
    cst.GreaterThan: ">", cst.GreaterThanEqual: ">=", cst.Is: "is", cst.IsNot: "is not",
    cst.In: "in", cst.NotIn: "not in",
}
_MODULE_METHODS = frozenset({"parameters", "named_parameters", "zero_grad", "train", "eval", "to", "cuda", "cpu", "predict", "compile", "state_dict", "load_state_dict", "forward", "trainable_variables", "apply", "modules", "children", "fit", "evaluate", "predict_on_batch"})
_MODULE_EVIDENCE = frozenset({"parameters", "named_parameters", "train", "eval", "state_dict", "load_state_dict", "modules", "children", "named_modules"})
_CONTAINER_METHODS = frozenset({"append", "extend", "insert", "appendleft", "setdefault", "pop", "popleft", "get", "values", "items", "keys", "clear", "update"})


_CLIP_METHODS = frozenset({"clip_grad_norm_", "clip_grad_value_", "clip_master_grads", "clip_grad_norm"})
_REDUCTIONS = frozenset({"sum", "mean", "norm", "dot", "trace", "logsumexp", "prod", "std", "var", "max", "min", "amax", "amin", "median", "nansum", "nanmean", "all", "any", "item", "count_nonzero", "dist", "vdot", "inner"})
_SAVES_OUTPUT = frozenset({"softmax", "log_softmax", "sigmoid", "tanh", "exp", "relu", "elu", "selu", "sqrt", "rsqrt", "reciprocal", "expm1", "celu"})
_SAVES_OUTPUT_MODULES = frozenset({"Softmax", "LogSoftmax", "Sigmoid", "Tanh", "ReLU", "ELU", "SELU", "CELU"})


def _freeze(v: Val, frozen: bool) -> None:
    """requires_grad switched off (or back on) for everything `v` is made of."""
    for o in v.live:
        if o.kind in ("module", "tensor"):
            o.frozen = frozen


def _none_ness(v: Val) -> bool | None:
    """True: certainly None; False: certainly an object; None: unknown."""
    if v.kind == "none":
        return True
    if v is EMPTY or v.kind is None:
        return None
    if v.kind in ("tensor", "tuple", "list", "dict", "module", "instance", "optimizer", "number", "str", "grad", "params", "tape", "function", "class"):
        return False
    return None


def _keep(attrs: dict | None, keys: tuple) -> dict:
    """The subset of `attrs` that survives an operation (always a fresh dict)."""
    if not attrs:
        return {}
    return {k: attrs[k] for k in keys if k in attrs and attrs[k] is not None}


def _fw_of(vals: Iterable[Val]) -> str | None:
    for v in vals:
        fw = v.get("fw")
        if fw and fw != "np":
            return fw
    for o in (o for v in vals for o in v.live):
        if o.kind != "sym":
            return o.framework
    return None


def _is_torch_val(v: Val) -> bool:
    fw = v.get("fw")
    if fw is not None:
        return fw == "torch"
    return any(o.framework == "torch" for o in v.live)


def _dtype_of(vals: Iterable[Val]) -> str | None:
    dts = {v.get("dtype") for v in vals if v.get("dtype")}
    if not dts:
        return None
    for pref in ("float64", "float32", "bfloat16", "float16"):
        if pref in dts:
            return pref
    return next(iter(dts))


def _numel(vals: Iterable[Val]) -> int | None:
    best = None
    for v in vals:
        n = v.get("numel")
        if n is None and v.get("shape") is not None:
            n = 1
            for d in v.get("shape"):
                n *= d
        if n is not None and (best is None or n > best):
            best = n
    return best


def _broadcast_shape(vals: list[Val]) -> tuple | None:
    shapes = [v.get("shape") for v in vals if v.get("shape") is not None]
    if not shapes:
        return None
    return max(shapes, key=lambda s: (len(s), s))


def _fold(op: str, a: Any, b: Any) -> Any:
    if not (isinstance(a, (int, float)) and isinstance(b, (int, float))) or isinstance(a, bool) or isinstance(b, bool):
        return _NOCONST
    try:
        if op == "+":
            return a + b
        if op == "-":
            return a - b
        if op == "*":
            return a * b
        if op == "/":
            return a / b
        if op == "**" and abs(b) < 64:
            return a ** b
        if op == "//":
            return a // b
    except (ArithmeticError, ValueError, OverflowError):
        return _NOCONST
    return _NOCONST


def _truthy(v: Val | None) -> bool | None:
    """True/False for literal flags, None for anything not known statically."""
    if v is None:
        return False
    c = v.get("const", _NOCONST)
    if c is _NOCONST:
        return None
    return bool(c)


def _param_origins(params: Val) -> frozenset:
    origins = set(params.live)
    for item in params.get("items") or ():
        origins |= item.live
        if item.kind == "dict":
            origins |= item.live
    return frozenset(origins)


def _single_index_const(node: cst.Subscript) -> Any:
    if len(node.slice) != 1:
        return None
    sl = node.slice[0].slice
    if isinstance(sl, cst.Index):
        c = _const(sl.value)
        return c if is_const(c) else None
    return None


_TORCH_DTYPES = {
    "torch.float64": "float64", "torch.double": "float64", "torch.float32": "float32",
    "torch.float": "float32", "torch.float16": "float16", "torch.half": "float16",
    "torch.bfloat16": "bfloat16", "torch.int64": "int", "torch.long": "int", "torch.int32": "int",
    "torch.int": "int", "torch.int16": "int", "torch.int8": "int", "torch.uint8": "int",
    "torch.bool": "bool", "torch.complex64": "complex64", "torch.complex128": "complex128",
    "torch.cdouble": "complex128", "torch.cfloat": "complex64",
}


def _torch_dtype(q: str | None) -> str | None:
    return _TORCH_DTYPES.get(q or "")


def _tf_dtype(q: str | None) -> str | None:
    if not q:
        return None
    last = q.rsplit(".", 1)[-1]
    if last.startswith(("int", "uint")):
        return "int"
    if last == "bool":
        return "bool"
    if last in ("float64", "double"):
        return "float64"
    if last in ("float32", "float16", "bfloat16"):
        return last
    return None


def _literal_dtype(node, val: Val, default: str) -> str | None:
    """dtype a tensor gets from a Python literal: ints stay ints, floats become `default`."""
    if node is None:
        return val.get("dtype")
    if val.get("dtype"):
        return val.get("dtype")
    kinds = set()

    def visit(n) -> None:
        if isinstance(n, cst.Integer):
            kinds.add("int")
        elif isinstance(n, cst.Float):
            kinds.add("float")
        elif isinstance(n, cst.Name) and n.value in ("True", "False"):
            kinds.add("bool")
        elif isinstance(n, cst.UnaryOperation):
            visit(n.expression)
        elif isinstance(n, (cst.List, cst.Tuple)):
            for e in n.elements:
                visit(e.value)
        else:
            kinds.add("other")

    visit(node)
    if kinds == {"int"}:
        return "int"
    if kinds == {"bool"}:
        return "bool"
    if "other" in kinds:
        return None
    return default


def _shape_from_args(q: str, ev: CallEvent) -> tuple | None:
    if q not in ("torch.randn", "torch.rand", "torch.zeros", "torch.ones", "torch.empty", "torch.full", "torch.randint", "torch.normal"):
        return None
    nodes = ev.arg_nodes
    if q == "torch.full":
        nodes = nodes[:1]
        if nodes and isinstance(nodes[0], (cst.Tuple, cst.List)):
            nodes = [e.value for e in nodes[0].elements]
    elif q == "torch.randint":
        size = ev.kw_nodes.get("size")
        if size is None and nodes:
            size = nodes[-1]
        nodes = [e.value for e in size.elements] if isinstance(size, (cst.Tuple, cst.List)) else []
    elif len(nodes) == 1 and isinstance(nodes[0], (cst.Tuple, cst.List)):
        nodes = [e.value for e in nodes[0].elements]
    elif "size" in ev.kw_nodes and isinstance(ev.kw_nodes["size"], (cst.Tuple, cst.List)):
        nodes = [e.value for e in ev.kw_nodes["size"].elements]
    dims = []
    for n in nodes:
        c = _const(n)
        if isinstance(c, int) and not isinstance(c, bool):
            dims.append(c)
        elif isinstance(n, cst.BinaryOperation):
            l, r = _const(n.left), _const(n.right)
            v = _fold(_OPS.get(type(n.operator), "?"), l, r)
            if isinstance(v, int):
                dims.append(v)
            else:
                return None
        else:
            return None
    return tuple(dims) if nodes else None


def _argnums(ev: CallEvent) -> tuple:
    a = ev.kw_nodes.get("argnums")
    if a is None:
        return (0,)
    c = _const(a)
    if isinstance(c, int):
        return (c,)
    if isinstance(a, (cst.Tuple, cst.List)):
        out = []
        for e in a.elements:
            c = _const(e.value)
            if isinstance(c, int):
                out.append(c)
        return tuple(out)
    return (0,)


def _static_from_call(ev: CallEvent) -> set:
    out: set = set()
    a = ev.kw_nodes.get("static_argnums")
    if a is not None:
        c = _const(a)
        if isinstance(c, int):
            out.add(c)
        elif isinstance(a, (cst.Tuple, cst.List)):
            for e in a.elements:
                c = _const(e.value)
                if isinstance(c, int):
                    out.add(c)
    n = ev.kw_nodes.get("static_argnames")
    if n is not None:
        c = _const(n)
        if isinstance(c, str):
            out.add(c)
        elif isinstance(n, (cst.Tuple, cst.List)):
            for e in n.elements:
                c = _const(e.value)
                if isinstance(c, str):
                    out.add(c)
    return out


def _static_names(fn: FunctionInfo, call_args) -> set:
    out: set = set()
    if not call_args:
        return out
    names = [p[0] for p in fn.params]
    for a in call_args:
        if a.keyword is None:
            continue
        if a.keyword.value == "static_argnums":
            c = _const(a.value)
            idxs = [c] if isinstance(c, int) else [_const(e.value) for e in a.value.elements] if isinstance(a.value, (cst.Tuple, cst.List)) else []
            for i in idxs:
                if isinstance(i, int) and 0 <= i < len(names):
                    out.add(names[i])
                    out.add(i)
        elif a.keyword.value == "static_argnames":
            c = _const(a.value)
            if isinstance(c, str):
                out.add(c)
            elif isinstance(a.value, (cst.Tuple, cst.List)):
                for e in a.value.elements:
                    c = _const(e.value)
                    if isinstance(c, str):
                        out.add(c)
    return out
