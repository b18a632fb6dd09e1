"""Meta-learning wrappers (learn2learn, higher): they wrap a module and return a module.

`l2l.algorithms.MAML(model, lr=...)` is a module over the model's parameters; `maml.clone()`
returns a module that shares them through the graph (a fresh one each call); `learner.adapt(loss)`
updates the clone in place (it differentiates `loss` inside, with `create_graph` unless
`first_order`). `higher.innerloop_ctx(model, opt)` yields a functional module and a
differentiable optimizer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import facts as F
from .. import kinds as K
from ..values import Origin, Val
from .base import Framework, Interp, method_returns_nothing

if TYPE_CHECKING:  # pragma: no cover
    from ..events import CallEvent
    from ..interp.state import State


def _wrapper(it: Interp, ev: "CallEvent", st: "State", allv: list[Val]) -> Val | None:
    mods = [v for v in ev.args[:1] + [ev.kwargs[k] for k in ("model", "module") if k in ev.kwargs] if v.kind == K.MODULE]
    if mods:
        return Val(frozenset().union(*(m.live for m in mods)), kind=K.MODULE, attrs={F.FW: "torch", F.WRAPS: True})
    if ".models." in (ev.qual or ""):
        # `l2l.vision.models.OmniglotFC(...)`: a model of the library's own, with parameters
        o = Origin(K.ORIGIN_MODULE, "", ev.node, certain=True)
        return Val(frozenset({o}), kind=K.MODULE, attrs={F.FW: "torch", F.FRESH_ORIGIN: True})
    return Val(kind=K.MODULE, attrs={F.FW: "torch", F.WRAPS: True})


def _clone(it: Interp, ev: "CallEvent", st: "State", recv: Val, recv_name: str | None) -> Val:
    """`maml.clone()`: a module over the same parameters (no graph node: nothing is saved yet)."""
    return Val(recv.live, kind=K.MODULE, attrs={F.FW: recv.get(F.FW) or "torch", F.WRAPS: True})


class Learn2Learn(Framework):
    name = "learn2learn"
    tag = "torch"
    heads = ("learn2learn", "higher")
    module_methods = {"clone": _clone, "adapt": method_returns_nothing}

    def call_other(self, it: Interp, q: str, ev: "CallEvent", st: "State", allv: list[Val]) -> Val | None:
        last = q.rsplit(".", 1)[-1]
        if last[:1].isupper() or last in ("innerloop_ctx", "monkeypatch", "clone_module", "update_module"):
            return _wrapper(it, ev, st, allv)
        return None


LEARN2LEARN = Learn2Learn()
