"""NumPy: every call leaves the framework (a hard cut: no gradient flows through it)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import facts as F
from .. import kinds as K

from ..queries import dtype_named, literal_dtype
from ..values import EMPTY, Cut, Val, combine, cut
from .arrays import factory_exact
from .base import Framework, Interp

if TYPE_CHECKING:  # pragma: no cover
    from ..events import CallEvent
    from ..interp.state import State


# NumPy functions that call the array's own method when given a non-NumPy array
DEFER_TO_METHOD = frozenset({
    "sum", "mean", "max", "min", "amax", "amin", "std", "var", "prod", "argmax", "argmin", "round", "around", "cumsum",
    "cumprod", "any", "all", "reshape", "transpose", "squeeze",
})


class NumPy(Framework):
    name = "numpy"
    tag = "np"
    heads = ("numpy",)

    def call_other(self, it: Interp, q: str, ev: "CallEvent", st: "State", allv: list[Val]) -> Val | None:
        args = ev.args
        first = args[0] if args else None
        if first is not None and q.rsplit(".", 1)[-1] in DEFER_TO_METHOD and first.get(F.FW) == "jax":
            # `np.mean(tracer)` calls `tracer.mean(...)`: NumPy's reductions and shape functions
            # defer to the argument's own method (fromnumeric's _wrapfunc/_wrapreduction), so on
            # a JAX array they run in JAX and a tracer stays a tracer (measured, jax 0.10)
            kept = {k: first.get(k) for k in (F.FW, F.JAX_ARRAY, F.TRACED, F.STAGED) if first.get(k) is not None}
            return it.op_result(ev.node, st, allv, kind=K.TENSOR, attrs=kept)
        attrs: dict = {F.FW: "np", F.NP_FUNC: q}
        if q in ("numpy.array", "numpy.asarray") and ev.arg_nodes:
            dt = literal_dtype(ev.arg_nodes[0], args[0] if args else EMPTY, "float64")
            if dt:
                attrs[F.DTYPE] = dt
        elif q == "numpy.arange" and args and all(isinstance(a.get(F.CONST), int) and not isinstance(a.get(F.CONST), bool) for a in args):
            attrs[F.DTYPE] = "int"  # `np.arange(4)`: int64
        named = dtype_named(ev.kwargs.get("dtype"))
        if named:
            attrs[F.DTYPE] = named  # an explicit dtype decides (`np.zeros(3, dtype=np.int32)`)
        exact = factory_exact(q.rsplit(".", 1)[-1], ev.arg_nodes, ev.kw_nodes, ev.node)
        if exact is not None:
            attrs[F.EXACT] = exact
        return cut(combine(allv), Cut("np_call", ev.node, hard=True), kind=K.NDARRAY, attrs=attrs)


NUMPY = NumPy()
