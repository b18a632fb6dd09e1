"""NumPy: every call leaves the framework (a hard cut: no gradient flows through it)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import facts as F
from .. import kinds as K

from ..queries import literal_dtype
from ..values import EMPTY, Cut, Val, combine, cut
from .arrays import factory_exact
from .base import Framework, Interp

if TYPE_CHECKING:  # pragma: no cover
    from ..events import CallEvent
    from ..interp.state import State


class NumPy(Framework):
    name = "numpy"
    tag = "np"
    heads = ("numpy",)

    def call_other(self, it: Interp, q: str, ev: "CallEvent", st: "State", allv: list[Val]) -> Val | None:
        args = ev.args
        attrs: dict = {F.FW: "np", F.NP_FUNC: q}
        if q in ("numpy.array", "numpy.asarray") and ev.arg_nodes:
            dt = literal_dtype(ev.arg_nodes[0], args[0] if args else EMPTY, "float64")
            if dt:
                attrs[F.DTYPE] = dt
        exact = factory_exact(q.rsplit(".", 1)[-1], ev.arg_nodes, ev.kw_nodes, ev.node)
        if exact is not None:
            attrs[F.EXACT] = exact
        return cut(combine(allv), Cut("np_call", ev.node, hard=True), kind=K.NDARRAY, attrs=attrs)


NUMPY = NumPy()
