"""JAX (with flax, optax, equinox, haiku): transforms (grad, value_and_grad, jacobians, vjp,
jit, vmap, pmap), traced arguments, `jax.numpy` arrays and their dtypes under `jax_enable_x64`,
`lax.stop_gradient`, and the `.at[...]` update helper.

A function given to a transform is interpreted right away with traced arguments (the grad
family also reports its return value as differentiated); calling the transformed function
emits a TransformedCallEvent."""

from __future__ import annotations

import re

import dataclasses
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import libcst as cst

from .. import facts as F
from .. import kinds as K
from ..events import CallEvent, DiffKind, TransformedCallEvent, Traced

from ..names import literal
from ..queries import dtype_named, dtype_of, first_fact, literal_dtype, truthy
from ..interp.state import JitSpec
from ..values import EMPTY, Cut, Origin, Val, combine, cut
from ..walk import walk
from .arrays import NONDIFF_FUNCS, factory_exact
from .base import Evidence, Framework, Interp, drawn

if TYPE_CHECKING:  # pragma: no cover
    from ..interp.state import FunctionInfo, State

# flax.nnx lifts the transforms to take modules (their nnx.Param leaves are traced): same tracing
JAX_VALUE_AND_GRAD = frozenset({"jax.value_and_grad", "flax.nnx.value_and_grad"})
JAX_GRAD = frozenset({"jax.grad", "flax.nnx.grad"}) | JAX_VALUE_AND_GRAD
JAX_JACOBIAN = frozenset({"jax.jacrev", "jax.jacfwd", "jax.jacobian", "jax.hessian"})
JAX_VJP = frozenset({"jax.vjp", "jax.jvp", "jax.linearize"})
JAX_JIT = frozenset({"jax.jit", "jax.pmap", "jax.vmap", "flax.linen.jit", "equinox.filter_jit", "flax.nnx.jit", "flax.nnx.vmap", "flax.nnx.pmap"})
JAX_STOP_GRADIENT = frozenset({"jax.lax.stop_gradient"})
JAX_TRANSFORMS = JAX_GRAD | JAX_JACOBIAN | JAX_VJP | JAX_JIT
_ARRAY_MODULES = ("jax.numpy.", "jax.nn.", "jax.lax.", "jax.scipy.")
# structured control flow: which arguments are functions JAX traces
_CONTROL_FLOW_BODIES = {"jax.lax.scan": (0,), "jax.lax.fori_loop": (2,), "jax.lax.while_loop": (0, 1), "jax.lax.map": (0,),
                        "jax.lax.cond": (1, 2), "jax.lax.associative_scan": (0,)}
# what the bodies are given, in the order of their parameters
_CONTROL_FLOW_OPERANDS = {"jax.lax.scan": lambda a: a[1:3], "jax.lax.fori_loop": lambda a: [a[0], *a[3:4]],
                          "jax.lax.while_loop": lambda a: a[2:3], "jax.lax.map": lambda a: a[1:2],
                          "jax.lax.cond": lambda a: a[3:], "jax.lax.associative_scan": lambda a: a[1:2]}
# functional updates: `x.at[i].set(v)` and the old `jax.ops.index_update(x, i, v)` return the
# updated array and leave `x` as it was
AT_UPDATES = frozenset({"set", "add", "multiply", "mul", "divide", "power", "min", "max", "apply", "subtract"})
INDEX_UPDATES = frozenset({"index_update", "index_add", "index_mul", "index_min", "index_max"})
# jax.numpy functions that answer with a Python object (a dtype, a bool, an int), never staged
_STATIC_RESULTS = frozenset({
    "issubdtype", "isdtype", "result_type", "promote_types", "can_cast", "dtype", "finfo", "iinfo", "ndim", "shape",
    "size", "isscalar", "iscomplexobj", "isrealobj", "array_equal", "get_printoptions",
})
_PYTREE_FUNCS = frozenset({"pmean", "psum", "pmax", "pmin", "all_gather", "ppermute", "psum_scatter", "stop_gradient", "all_to_all"})
_FLOAT_FACTORIES = ("linspace", "zeros", "ones", "full", "eye", "zeros_like", "ones_like")


@dataclass(frozen=True)
class JaxTransform:
    """A function transformed by JAX: `jax.grad(f, argnums=1)` (or `@jax.grad`)."""

    kind: str  # grad (grad, value_and_grad, jacobians) | vjp | jit (jit, vmap, pmap)
    fn: Any  # the FunctionInfo transformed (None: not a function of the file)
    node: cst.CSTNode = field(repr=False)  # the transform call (or the decorated def)
    argnums: tuple = (0,)
    has_aux: bool | None = False
    value: bool = False  # value_and_grad: calls return (value, gradients)
    qual: str | None = None  # the transform (None: a decorator)
    inner: "JaxTransform | None" = None  # jax.jit(jax.grad(f)): the transform inside
    static: Any = field(default=None)  # static_argnums/static_argnames (a set)
    # functools.partial(f, a, k=v) given to the transform: the leading positional parameters
    # and the keywords it binds are closed over, not traced (argnums count after them)
    bound: tuple = (0, frozenset())
    # `jax.jit(self.step)`: a bound method; its receiver is the first bound parameter
    receiver: Any = field(default=None)
    # leading arguments of the transformed callable its function does not take: flax's
    # `jax.jit(model.apply)` is given (variables, x), `__call__` takes x
    skip: int = 0


def transformed_function(fn: "FunctionInfo", node: cst.CSTNode) -> Val:
    """The value of a function defined with `@jax.grad`: calling it returns gradients."""
    return Val(kind=K.JAXFN, attrs={F.JAXFN: JaxTransform("grad", fn, node)})


def _transform(it: Interp, ev: CallEvent, st: "State", allv: list[Val]) -> Val:
    q = ev.qual
    args = ev.args
    kwargs = ev.kwargs
    f = args[0] if args else kwargs.get("fun") or EMPTY
    kind = "grad" if (q in JAX_GRAD or q in JAX_JACOBIAN) else "vjp" if q in JAX_VJP else "jit"
    bound = _partial_bound(ev.arg_nodes[0] if ev.arg_nodes else None)
    if bound == (0, frozenset()) and (f.get(F.PARTIAL_ARGS) or f.get(F.PARTIAL_KEYWORDS)):
        # a partial made earlier (`step = functools.partial(train_step, model, cfg)`)
        bound = (len(f.get(F.PARTIAL_ARGS) or ()), frozenset(f.get(F.PARTIAL_KEYWORDS) or ()))
    receiver = None
    if f.kind == K.BOUND and f.get(F.SELF) is not None:
        # JAX sees the method without `self`: argnums and static_argnums count after it
        bound = (bound[0] + 1, bound[1])
        receiver = f.get(F.SELF)
    info = JaxTransform(kind, f.get(F.FN), ev.node, _argnums(ev), truthy(kwargs.get("has_aux")), q in JAX_VALUE_AND_GRAD, q,
                        f.get(F.JAXFN), _static_from_call(ev), bound, receiver, f.get(F.SKIP_ARGS) or 0)
    if kind == "vjp":
        # jax.vjp(f, *primals): f runs now, traced at every primal
        call_transformed(it, dataclasses.replace(info, kind="grad", argnums=tuple(range(len(args) - 1))), ev, st, args=args[1:])
        return Val(kind=K.TUPLE)
    # analyse the transformed function right away (it is traced when called)
    trace(it, info, st)
    return Val(kind=K.JAXFN, attrs={F.JAXFN: info})


def _staged(st: "State", node: cst.CSTNode, allv: list[Val]) -> Any:
    """The STAGED fact of a jax.numpy/lax result, None outside jit. Under jit every such
    operation is staged (omnistaging): even `jnp.array(n)` of a static argument is a tracer
    there. The fact holds the operation that made a tracer from static values
    (`jnp.minimum(n_aval, n)`): that is what to change; one computed from a staged value keeps
    its origin."""
    traced = st.ctx.traced
    if traced is None or traced.kind != "jit":
        return None
    inherited = first_fact(allv, F.STAGED)
    from_args = any(o.kind == K.ORIGIN_JAXARG for v in allv for o in v.live)
    return inherited if inherited is not None else (True if from_args else node)


def holds_tracer(v: Val | None, jit: bool) -> bool:
    """Whether value `v` holds a tracer of the transformed function's arguments. Under `jit`
    every operation on a tracer gives a tracer, gradient or not (`jnp.ceil(t)`, `t // 2`,
    `stop_gradient(t)`: they reach `v` as cuts); under `grad` alone only a value that still
    carries the gradient is read here (the conversions are judged where they reach the output).
    A dict is not an array: NumPy wraps it as one object and never reads the tracers in it."""
    if v is None or v.kind == "dict":
        return False
    if any(o.kind == K.ORIGIN_JAXARG for o in v.live):
        return True
    # a Python number or a NumPy array made from a tracer (`int(t)`, `t.item()`, `np.asarray(t)`)
    # is the consequence of a conversion GL121 reports: tracing already stopped there
    if not jit or v.kind in (K.NUMBER, K.NDARRAY):
        return False
    # a jnp/lax result inside jit is staged even from constants (`jnp.array(n) > 1` of a static n)
    return bool(v.get(F.STAGED)) or any(o.kind == K.ORIGIN_JAXARG for o, _ in v.cuts)


def _stop_gradient(it: Interp, ev: CallEvent, st: "State", allv: list[Val]) -> Val | None:
    if not ev.args:
        return None
    return cut(ev.args[0], Cut("detach", ev.node, hard=False), kind=K.TENSOR, attrs={F.FW: "jax"})


def trace(it: Interp, info: JaxTransform, st: "State") -> Val:
    """Interpret the function given to jax.grad/jit with traced arguments and, for the
    grad family, report its return value as differentiated. Returns what it returned (EMPTY
    when not interpreted now)."""
    fn = info.fn
    inner = info.inner
    if fn is None and inner is not None:
        fn = inner.fn
    if fn is None:
        return EMPTY
    # jax.grad applied inside a jitted function (a train step's loss_fn) traces abstractly:
    # concrete values are out of reach there as under jit itself
    outer = st.ctx.traced
    tkind = "jit" if outer is not None and outer.kind == "jit" else info.kind
    # a lax body is traced again inside each transform of the function around it: under
    # jit(grad(f)) its closures are other tracers than under grad(f)
    key = (id(fn), info.kind, id(info.node), tkind, id(outer.node) if outer is not None and info.qual in _CONTROL_FLOW_BODIES else None)
    if key in it._jax_analysed:
        return EMPTY
    it._jax_analysed.add(key)
    env_params = {}
    called = _called_names(fn.node)
    argnums = info.argnums or (0,)
    static = info.static or set()
    n_bound, kw_bound = info.bound
    # which traced arguments reverse-mode differentiation flows back to: those of grad (not
    # jacfwd, forward mode), of jit(grad(f)) the inner grad's, and a lax body inherits the
    # function it is traced in
    reverse_at = argnums if info.kind == "grad" and info.qual != "jax.jacfwd" else (
        (inner.argnums or (0,)) if inner is not None and inner.kind == "grad" and inner.qual != "jax.jacfwd" else ())
    reverse: set = set(outer.reverse) if outer is not None and info.qual in _CONTROL_FLOW_BODIES else set()
    for i, (name, kind, _a) in enumerate(fn.params):
        if kind not in ("pos", "kwonly"):
            continue
        if i < n_bound or name in kw_bound:
            # given by functools.partial, or the receiver of a bound method: a closed-over value
            env_params[name] = info.receiver if i == 0 and info.receiver is not None else Val(kind=None)
            continue
        idx = i - n_bound + info.skip
        traced = (idx in argnums) if info.kind == "grad" else (idx not in static and name not in static and UNKNOWN_STATIC not in static)
        if info.kind == "jit" and idx in static:
            traced = False
        if traced:
            o = Origin(K.ORIGIN_JAXARG, name, info.node, certain=True, framework="jax")
            if idx in reverse_at:
                reverse.add(o)
            # a traced argument the function calls is a module whose leaves are traced
            # (flax.nnx.grad(loss_fn)(model), equinox): its output is computed from them
            vkind = K.MODULE if name in called else K.TENSOR
            env_params[name] = Val(frozenset({o}), kind=vkind, attrs={F.FW: "jax", F.TRACED: True})
        else:
            env_params[name] = Val(kind=None, attrs={F.FW: "jax", F.TRACED: info.kind == "jit"} if info.kind == "jit" else None)
    fake = CallEvent(info.node, st.ctx, None, None, None, Val(kind=K.FUNCTION, attrs={F.FN: fn}), [], {}, [], {})
    ret = it.call_function(fn, fake, st.fork(), [], {}, self_val=None, traced=Traced(tkind, fn, info.node, frozenset(reverse)),
                           params_override=env_params)
    if info.kind == "grad":
        target = ret
        items = ret.get(F.ITEMS)
        if info.has_aux and items:
            target = items[0]
        it.differentiate(None, st.fork(), DiffKind.JAX, target, None, node=info.node, transform=info, returns=ret, fn=fn)
    return ret


def call_transformed(it: Interp, info: JaxTransform, ev: CallEvent, st: "State", args: list[Val] | None = None) -> Val:
    """A call of a transformed function: grad returns gradients, jit/vmap what f returns."""
    args = ev.args if args is None else args
    kind = info.kind
    it.emit(TransformedCallEvent(ev.node, st.ctx, info, args, ev.kwargs, ev.arg_nodes, ev.kw_nodes))
    # inside a jitted function everything a transformed call returns is a tracer
    outer = st.ctx.traced
    staged = {F.STAGED: True} if outer is not None and outer.kind == "jit" else {}
    if kind == "grad":
        grads = Val(kind=K.GRAD, attrs={F.FW: "jax", F.GRAD_RESULT: ev.node, **staged})
        if info.value:
            # value_and_grad: the value is f(args), computed from them (a tracer of theirs)
            value = combine(args, kind=K.TENSOR, attrs={F.FW: "jax", **staged})
            return Val(kind=K.TUPLE, attrs={F.ITEMS: (value, grads)})
        return grads
    return combine(args, kind=K.TENSOR, attrs={F.FW: "jax", **staged})


def _call_jaxfn(it: Interp, func: Val, ev: CallEvent, st: "State") -> Val:
    return call_transformed(it, func.attrs[F.JAXFN], ev, st)


def _jit_decorator(it: Interp, fn: "FunctionInfo", qual: str, dec, call_args, st: "State") -> None:
    fn.jit = JitSpec("grad" if qual in JAX_GRAD else "jit", _static_names(fn, call_args, qual) | _defaults_never_passed(it, fn, qual))


def _partial_decorator(it: Interp, fn: "FunctionInfo", qual: str, dec, call_args, st: "State") -> None:
    """`@functools.partial(jax.jit, static_argnums=...)`."""
    if not call_args:
        return
    try:
        iq = it.qual_of(call_args[0].value, st)
    except Exception:
        return
    if iq in JAX_JIT or iq in JAX_GRAD:
        fn.jit = JitSpec("grad" if iq in JAX_GRAD else "jit", _static_names(fn, call_args[1:], iq) | _defaults_never_passed(it, fn, iq))


def _defaults_never_passed(it: Interp, fn: "FunctionInfo", qual: str | None) -> set:
    """The parameters with a default of a function decorated with jax.jit that no call in the
    module passes: jit traces only the arguments it is given, so a default stays the Python value
    it is (`def pgd(x, maxiter=10)` called as `pgd(x)`: `range(maxiter)` is range(10)).

    Proven only when every use of the function's name in the module is a call (none passes it
    to another function, stores or returns it) and at least one call is seen (a function no code
    of the module calls may be called with it from elsewhere); a call that passes `*args` or
    `**kwargs` may pass anything."""
    node = fn.node
    if qual not in JAX_JIT or not isinstance(node, cst.FunctionDef):
        return set()
    p = node.params
    positional = [*p.posonly_params, *p.params]
    defaulted = {q.name.value for q in (*positional, *p.kwonly_params) if q.default is not None}
    if not defaulted:
        return set()
    name = fn.name
    # `self.step(x)`: the receiver is the first parameter of a method
    offset = 1 if fn.cls is not None and not fn.is_static and not fn.is_classmethod else 0
    allowed: set[int] = set()  # Name nodes that are the function's own name, a call's callee or a keyword
    passed: set[str] = set()
    calls = 0
    seen_def = False
    for stmt in it.body:
        for n in walk(stmt, code_only=True):
            if n is node:
                seen_def = True
                allowed.add(id(node.name))
            elif isinstance(n, (cst.FunctionDef, cst.ClassDef)):
                allowed.add(id(n.name))
            elif isinstance(n, cst.Param):
                allowed.add(id(n.name))
            elif isinstance(n, cst.Arg) and n.keyword is not None:
                allowed.add(id(n.keyword))
            elif isinstance(n, cst.Call):
                f = n.func
                callee = f if isinstance(f, cst.Name) else f.attr if isinstance(f, cst.Attribute) else None
                if callee is None or callee.value != name:
                    continue
                allowed.add(id(callee))
                calls += 1
                shift = offset if isinstance(f, cst.Attribute) else 0
                npos = 0
                for a in n.args:
                    if a.star:
                        return set()
                    if a.keyword is not None:
                        passed.add(a.keyword.value)
                    else:
                        npos += 1
                passed.update(q.name.value for q in positional[:npos + shift])
            elif isinstance(n, cst.Name) and n.value == name and id(n) not in allowed:
                return set()  # `jax.vmap(step)`, `fns = [step]`: called where this module does not see
    if not seen_def or not calls:
        return set()
    return defaulted - passed


_FULL_REDUCTIONS = frozenset({"mean", "sum", "max", "min", "prod", "logsumexp", "norm", "nansum", "nanmean"})
# Euclidean norms whose gradient at the zero vector is NaN (x / ||x|| = 0/0; jax#4177, jax#26248)
NAN_AT_ZERO_NORMS = frozenset({"jax.numpy.linalg.norm", "jax.numpy.linalg.vector_norm", "optax.global_norm"})
# a standard deviation is the square root of a variance: its gradient is NaN where the values are
# all equal (measured, jax 0.10; torch's std gives 0 there)
NAN_AT_ZERO_STDS = frozenset({"jax.numpy.std", "jax.numpy.nanstd"})


class Jax(Framework):
    name = "jax"
    tag = "jax"
    heads = ("jax", "flax", "optax", "equinox", "haiku")
    aliases = {"jax.experimental.stax": "jax.example_libraries.stax"}
    evidence = Evidence(
        # vmap/pmap trace the function they map as jit does: a Python `if` on a tracer fails
        # there too (GL121), differentiated or not
        words=("grad", "jit", "vjp", "jac", "hessian", "at[", "index_", "vmap", "pmap", "lax."),
        # lax.scan/fori_loop/while_loop/cond trace their bodies under jit or not
        literals=("value_and_grad", "jax.grad", "vjp(", "jacrev", "jacfwd", "hessian(", "jax.jit", "@jit", "nnx.grad(", "nnx.jit",
                  "jax.vmap", "jax.pmap", "lax.scan(", "lax.fori_loop(", "lax.while_loop(", "lax.cond(", "lax.map("),
        bare_calls=("grad", "jit", "vmap", "pmap"),
        # a functional update whose result is thrown away (a statement of its own) is wrong
        # whether or not anything is differentiated (GL508)
        patterns=(("at[", re.compile(r"^[ \t]*[\w.]+\.at\[[^\n]*\]\s*\.\s*(?:set|add|multiply|mul|divide|power|min|max|apply|subtract)\s*\(", re.M)),
                  ("index_", re.compile(r"^[ \t]*(?:jax\.ops\.|ops\.)?index_(?:update|add|mul|min|max)\s*\(", re.M))),
    )
    members = {
        **{q: _transform for q in JAX_TRANSFORMS},
        **{q: _stop_gradient for q in JAX_STOP_GRADIENT},
    }
    decorators = {
        **{q: _jit_decorator for q in JAX_JIT | JAX_GRAD | JAX_JACOBIAN},
        # only `functools.partial(jax.jit, ...)` changes what a decorated function is
        "functools.partial": _partial_decorator,
    }
    callable_kinds = {K.JAXFN: _call_jaxfn}

    def class_roles(self, qual: str) -> frozenset[str]:
        return frozenset({"module"}) if qual in ("flax.linen.Module", "equinox.Module") else frozenset()

    def call(self, it: Interp, q: str, ev: CallEvent, st: "State", allv: list[Val]) -> Val | None:
        args = ev.args
        if q == "jax.config.update" and args and args[0].get(F.CONST) == "jax_enable_x64":
            it.jax_x64 = bool(len(args) > 1 and args[1].get(F.CONST))
        return super().call(it, q, ev, st, allv)

    def call_other(self, it: Interp, q: str, ev: CallEvent, st: "State", allv: list[Val]) -> Val:
        node = ev.node
        args = ev.args
        last = q.rsplit(".", 1)[-1]
        if last in _PYTREE_FUNCS and args and args[0].kind in (K.DICT, K.LIST, K.TUPLE, K.CONTAINER):
            # collectives and stop_gradient map over a pytree: a dict of arrays stays a dict
            return it.op_result(node, st, allv, kind=args[0].kind, attrs={F.FW: "jax", **({F.KEYS: args[0].get(F.KEYS)} if args[0].get(F.KEYS) else {})})
        bodies = _CONTROL_FLOW_BODIES.get(q)
        if bodies is not None:
            # `lax.scan(step, init, xs)`, `fori_loop(lo, hi, body, x)`: JAX traces the body
            # abstractly, under jit or not, with tracers for every argument (a carry converted
            # by float(), stored into by item assignment, fails there)
            given = _CONTROL_FLOW_OPERANDS[q](args)
            # an operand that is an object of a class (a flax struct of state with static
            # fields, `pytree_node=False`) is not taken for one traced array
            static = {k for k, v in enumerate(given) if v.kind in (K.INSTANCE, K.MODULE, K.DICT) or v.get(F.CLS) is not None}
            classes = {c.name for c in it.classes}
            for i in bodies:
                body = args[i] if i < len(args) else EMPTY
                if body.kind == K.FUNCTION and body.get(F.FN) is not None and not body.get(F.PARTIAL_ARGS):
                    fn = body.attrs[F.FN]
                    # (`def body(state: SamplingState)`: annotated with a class of the file, likewise)
                    own = {k for k, (_n, _kind, ann) in enumerate(fn.params) if isinstance(ann, cst.Name) and ann.value in classes}
                    ret = trace(it, JaxTransform("jit", fn, node, (), False, False, q, None, static | own), st)
                    # what the body computes from the values it closes over (a rollout's parameters)
                    # is in the loop's result; the body's own traced parameters stay inside it
                    outer = frozenset(o for o in ret.live if not (o.kind == K.ORIGIN_JAXARG and o.node is node))
                    if outer:
                        allv = [*allv, Val(outer, kind=K.TENSOR, attrs={F.FW: "jax"})]
        if q.startswith(_ARRAY_MODULES):
            if last in _STATIC_RESULTS:
                # a Python object computed from the array's type: `jnp.shape(x)[0]` is an int even
                # under jit (shapes are static), never a tracer
                return Val(kind=K.TUPLE if last == "shape" else K.NUMBER if last in ("ndim", "size") else K.META)
            staged = _staged(st, node, allv)
            if last in NONDIFF_FUNCS:
                # `jnp.ceil(T / dt)` of a static T inside jit is a tracer all the same
                return cut(combine(allv), Cut(last, node, hard=False), kind=K.TENSOR,
                           attrs={F.FW: "jax", **({F.STAGED: staged} if staged is not None else {})})
            attrs = {F.FW: "jax", F.JAX_ARRAY: True}
            if any(v.get(F.TRACED) for v in allv):
                attrs[F.TRACED] = True
            if staged is not None:
                attrs[F.STAGED] = staged
            dt = dtype_of(allv)
            if dt:
                attrs[F.DTYPE] = dt
            elif last in _FLOAT_FACTORIES:
                attrs[F.DTYPE] = "float64" if it.jax_x64 else "float32"
            if last in ("array", "asarray") and args:
                dt = literal_dtype(ev.arg_nodes[0], args[0], "float64" if it.jax_x64 else "float32")
                if dt:
                    attrs[F.DTYPE] = dt
            elif last == "arange" and args and all(isinstance(a.get(F.CONST), int) or a.get(F.DTYPE) == "int" for a in args):
                attrs[F.DTYPE] = "int"
            # an explicit dtype decides (`jnp.array([1, 1], dtype=jnp.float64)` is a float array;
            # float64 is float32 unless x64 is enabled)
            named = dtype_named(ev.kwargs.get("dtype") or (args[1] if last in ("array", "asarray") and len(args) > 1 else None))
            if named:
                attrs[F.DTYPE] = "float32" if named == "float64" and not it.jax_x64 else named
            exact = factory_exact(last, ev.arg_nodes, ev.kw_nodes, node)
            if exact is None and last in ("array", "asarray") and args:
                exact = args[0].get(F.EXACT)  # `jnp.array(np_zeros)`: the same data
            if exact is not None:
                attrs[F.EXACT] = exact
            if last in _FULL_REDUCTIONS and len(args) == 1 and "axis" not in ev.kwargs:
                attrs[F.SCALAR] = True  # `jnp.mean(x)`: over every axis, a 0-dim array
            return it.op_result(node, st, allv, kind=K.TENSOR, attrs=attrs)
        if q == "jax.random.categorical":
            # drawn indices: integers without a gradient (the logits may even be -inf)
            return drawn(allv, node, {F.FW: "jax", F.JAX_ARRAY: True})
        if q.startswith("jax.random."):
            return it.op_result(node, st, allv, kind=K.TENSOR, attrs={F.FW: "jax", F.JAX_ARRAY: True})
        # jax.tree_util & co: containers and functions, not arrays
        return it.op_result(node, st, allv)

    def tensor_method(self, it: Interp, ev: CallEvent, st: "State", recv: Val, m: str, recv_name, recv_node) -> Val | None:
        # `x.at[i].set(v)`: a functional update (a new array), not an in-place write
        if (m in AT_UPDATES or m == "get") and recv.get(F.AT_OF):
            return it.op_result(ev.node, st, [recv] + ev.args, kind=K.TENSOR, attrs={F.FW: "jax"})
        if m == "at":
            return recv.with_fact(F.AT_OF, True)
        return None


# flax.linen entry points: `model.apply(variables, *args)` and `model.init(rngs, *args)` run the
# module's `__call__(*args)` (-> how many leading arguments are not its own)
_FLAX_ENTRIES = {"apply": 1, "init": 1, "init_with_output": 1}


def flax_entry(info, method: str, kwargs: dict | None = None) -> "tuple[Any, int] | None":
    """(`__call__`, arguments to skip) when `method` of an instance of the file's flax module
    class `info` is one of flax's entry points (and not the class's own method); None when
    another method is named (`method=...`) or the class is not a flax module."""
    if info.framework != "jax" or method not in _FLAX_ENTRIES or info.find_method(method) is not None:
        return None
    if kwargs and "method" in kwargs:
        return None
    call = info.find_method("__call__")
    return (call, _FLAX_ENTRIES[method]) if call is not None else None


def _partial_bound(node) -> tuple:
    """(leading positional parameters, keyword names) that `functools.partial(f, ...)` binds."""
    if not isinstance(node, cst.Call) or not node.args:
        return (0, frozenset())
    f = node.func
    last = f.attr.value if isinstance(f, cst.Attribute) else f.value if isinstance(f, cst.Name) else None
    if last != "partial":
        return (0, frozenset())
    rest = node.args[1:]
    if any(a.star for a in rest):
        return (0, frozenset())
    return (sum(1 for a in rest if a.keyword is None), frozenset(a.keyword.value for a in rest if a.keyword is not None))


def _called_names(fn_node) -> set[str]:
    """Names the function calls directly (`model(x)`), not inside nested functions."""
    out: set[str] = set()
    if isinstance(fn_node, cst.CSTNode):
        for node in walk(fn_node, lambda n: not isinstance(n, cst.FunctionDef) or n is fn_node, code_only=True):
            if isinstance(node, cst.Call) and isinstance(node.func, cst.Name):
                out.add(node.func.value)
    return out


def _argnums(ev: CallEvent) -> tuple:
    a = ev.kw_nodes.get("argnums")
    if a is None:
        return (0,)
    c = literal(a)
    if isinstance(c, int):
        return (c,)
    if isinstance(a, (cst.Tuple, cst.List)):
        out = []
        for e in a.elements:
            c = literal(e.value)
            if isinstance(c, int):
                out.append(c)
        return tuple(out)
    return (0,)


# In a transform's `static` set: which parameters are static is not known (`static_argnums=
# STATIC`, an `in_axes` computed at run time). No parameter is then believed to be traced.
UNKNOWN_STATIC = "*"
_MAPPING = frozenset({"jax.vmap", "jax.pmap", "flax.nnx.vmap", "flax.nnx.pmap"})


def _static_spec(kw: dict, qual: str | None, in_axes=None) -> tuple[set, set, bool]:
    """What a transform's keywords keep untraced: (positions, names, unknown). `static_argnums`
    / `static_broadcasted_argnums` / `static_argnames`, and for vmap/pmap the `in_axes` entries
    that are not an axis (None, an axis tree: not proven traced); `unknown` when one of them
    is not literal (then no parameter is believed traced)."""
    positions: set = set()
    names: set = set()
    unknown = False
    for key in ("static_argnums", "static_broadcasted_argnums"):
        a = kw.get(key)
        if a is None:
            continue
        c = literal(a)
        if isinstance(c, int):
            positions.add(c)
        elif isinstance(a, (cst.Tuple, cst.List)):
            for e in a.elements:
                c = literal(e.value)
                if isinstance(c, int):
                    positions.add(c)
                else:
                    unknown = True
        else:
            unknown = True
    if qual in _MAPPING:
        a = kw.get("in_axes", in_axes)
        if a is not None and not isinstance(literal(a), int):
            if isinstance(a, (cst.Tuple, cst.List)):
                positions.update(i for i, e in enumerate(a.elements) if not isinstance(literal(e.value), int))
            else:
                unknown = True
    n = kw.get("static_argnames")
    if n is not None:
        c = literal(n)
        if isinstance(c, str):
            names.add(c)
        elif isinstance(n, (cst.Tuple, cst.List)):
            for e in n.elements:
                c = literal(e.value)
                if isinstance(c, str):
                    names.add(c)
                else:
                    unknown = True
        else:
            unknown = True
    return positions, names, unknown


# equinox's filter_jit/filter_vmap trace the array leaves of their arguments only: a Python
# number or tuple passed to one (`data_shape`, `dt0`) is static, and a parameter of unknown
# type is not proven traced
_FILTERED = frozenset({"equinox.filter_jit", "equinox.filter_vmap", "equinox.filter_pmap"})


def _static_from_call(ev: CallEvent) -> set:
    """`jax.jit(f, static_argnums=...)`: positions and names, UNKNOWN_STATIC when not literal."""
    if ev.qual in _FILTERED:
        return {UNKNOWN_STATIC}
    in_axes = ev.arg_nodes[1] if ev.qual == "jax.vmap" and len(ev.arg_nodes) > 1 else None
    positions, names, unknown = _static_spec(ev.kw_nodes, ev.qual, in_axes)
    return positions | names | ({UNKNOWN_STATIC} if unknown else set())


def _static_names(fn: "FunctionInfo", call_args, qual: str | None = None) -> set:
    """The same for a decorator (`@partial(jax.jit, static_argnums=1)`), as the parameters'
    names and positions; not literal: every parameter."""
    params = [p[0] for p in fn.params]
    kw = {a.keyword.value: a.value for a in call_args or () if a.keyword is not None}
    positions, names, unknown = _static_spec(kw, qual)
    if unknown or qual in _FILTERED:
        return set(params) | set(range(len(params)))
    out: set = set(names)
    for i in positions:
        if 0 <= i < len(params):
            out.add(params[i])
            out.add(i)
    return out


JAX = Jax()
