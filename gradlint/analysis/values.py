"""Abstract values: what the data-flow interpreter knows about a Python value.

A value carries
- `live`: the *origins* (things that receive gradients: modules, parameters, tensors with
  requires_grad, tf.Variables, jax-differentiated arguments) it depends on through
  differentiable operations;
- `cuts`: (origin, cut) pairs: origins it depends on only through an operation that stops
  gradients (`.numpy()`, `float()`, `.detach()`, `no_grad`, `argmax`, ...);
- `notes`: markers that rules attach to risky operations so they can tell, later, whether the
  result of that operation reaches something that is differentiated;
- `graphs`: the autograd graph nodes in its history (per loop iteration and call site), used to
  tell when a backward pass walks through buffers an earlier one freed;
- a `kind` (`facts.Kind`) and `attrs`: its facts (dtype, shape, scalar-ness, which optimizer,
  ...), each declared in facts.py with its join and the operations it survives.

Values are immutable; `join` merges the values of alternative paths (branches, iterations).
"""

from __future__ import annotations

import itertools
from typing import Any, Iterable

import libcst as cst

from . import kinds as K
from .facts import ANY_FACTS, ELEM as _ELEM, EVERY_FACTS, ITEMS as _ITEMS, KIND_DEFINING, NOT_FOLLOWED, PER_ELEMENT_FACTS, QUAL, TRI_FACTS, UNION_FACTS, join_tri
from .kinds import Kind, OriginKind

# Creation order: origins, cuts and notes live in frozensets, whose iteration order depends on
# object ids; rules sort by `seq` so that what they report does not vary between runs.
_seq = itertools.count()

# ----------------------------------------------------------------------------------- origins


class Origin:
    """Something a gradient can flow into. Compared by identity (one object per creation)."""

    __slots__ = ("kind", "label", "node", "certain", "framework", "leaf", "seq", "frozen", "weak")

    def __init__(
        self,
        kind: OriginKind,
        label: str,
        node: cst.CSTNode | None,
        *,
        certain: bool = True,
        framework: str = "torch",
        leaf: bool = True,
    ) -> None:
        self.kind = kind
        self.label = label
        self.node = node
        self.certain = certain
        self.framework = framework
        self.leaf = leaf
        self.seq = next(_seq)
        self.frozen = False  # requires_grad switched off (module.requires_grad_(False), ...)
        # a module proven only by being called (`schedule(progress)` could be a schedule): enough
        # to follow a loss, not to promise an error about a graph it built
        self.weak = False

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        return f"<{self.kind}:{self.label}{'' if self.certain else '?'}>"


class Cut:
    """An operation that stops gradients. `hard` cuts are never intended on a loss path."""

    __slots__ = ("kind", "node", "hard", "seq", "then", "detached", "converted")

    def __init__(self, kind: str, node: cst.CSTNode, hard: bool, then: cst.CSTNode | None = None) -> None:
        self.kind = kind
        self.node = node
        self.hard = hard
        self.seq = next(_seq)
        self.then = then  # a REWRAP cut: where the detached value was made to require grad
        # a detach / `.data` cut: the graph nodes of the value it detached; a hard cut over
        # one (`x.detach().cpu().numpy()`): those of every detach it converts (see `cut`)
        self.detached: frozenset = _EMPTY_SET
        # a hard cut: the graph nodes of the value it converted (directly or through a detach),
        # which tell one forward pass from another (a target from a separate evaluation)
        self.converted: frozenset = _EMPTY_SET

    def __repr__(self) -> str:  # pragma: no cover
        return f"<cut {self.kind}>"


class Note:
    """A marker a rule attaches to a value. `through_cuts`: it survives gradient-stopping ops.
    `of_receiver`: put on an in-place method's call, it holds for the receiver it changed
    (`x.nan_to_num_()` as a statement: what is said of its result is said of `x`)."""

    __slots__ = ("kind", "node", "data", "through_cuts", "of_receiver", "seq")

    def __init__(self, kind: str, node: cst.CSTNode, data: Any = None, through_cuts: bool = False, of_receiver: bool = False) -> None:
        self.kind = kind
        self.node = node
        self.data = data
        self.through_cuts = through_cuts
        self.of_receiver = of_receiver
        self.seq = next(_seq)

    def __repr__(self) -> str:  # pragma: no cover
        return f"<note {self.kind}>"


# A graph node: (creation site, context key). The context key tells loop iterations and
# inlined call sites apart, so that the same line run twice makes two different nodes.
GNode = tuple

_EMPTY_SET: frozenset = frozenset()


class Val:
    __slots__ = ("live", "cuts", "notes", "graphs", "kind", "attrs")

    def __init__(
        self,
        live: frozenset = _EMPTY_SET,
        cuts: frozenset = _EMPTY_SET,
        notes: frozenset = _EMPTY_SET,
        graphs: frozenset = _EMPTY_SET,
        kind: Kind | None = None,
        attrs: dict | None = None,
    ) -> None:
        self.live = live
        self.cuts = cuts
        self.notes = notes
        self.graphs = graphs
        self.kind = kind
        self.attrs = attrs

    # ------------------------------------------------------------------ queries
    def get(self, key: str, default: Any = None) -> Any:
        a = self.attrs
        if a is None:
            return default
        return a.get(key, default)

    @property
    def is_empty(self) -> bool:
        return not (self.live or self.cuts or self.notes or self.graphs)

    def certain_live(self) -> frozenset:
        return frozenset(o for o in self.live if o.certain)

    def sorted_notes(self, kind: str | None = None) -> list:
        return sorted((n for n in self.notes if kind is None or n.kind == kind), key=lambda n: n.seq)

    def sorted_cuts(self) -> list:
        return sorted(self.cuts, key=lambda oc: (oc[0].seq, oc[1].seq))

    def __repr__(self) -> str:  # pragma: no cover
        return (
            f"Val(kind={self.kind}, live={set(self.live) or ''}, cuts={len(self.cuts)}, "
            f"notes={set(self.notes) or ''}, graphs={len(self.graphs)}, attrs={self.attrs})"
        )

    # ------------------------------------------------------------------ builders
    def with_(self, **changes: Any) -> "Val":
        v = Val(self.live, self.cuts, self.notes, self.graphs, self.kind, self.attrs)
        for k, val in changes.items():
            setattr(v, k, val)
        return v

    def with_fact(self, name: str, value: Any) -> "Val":
        """This value with one fact set (`v.with_fact(F.PERSISTENT, True)`)."""
        merged = dict(self.attrs) if self.attrs else {}
        merged[name] = value
        return Val(self.live, self.cuts, self.notes, self.graphs, self.kind, merged)

    def with_facts(self, facts: dict) -> "Val":
        merged = dict(self.attrs) if self.attrs else {}
        merged.update(facts)
        return Val(self.live, self.cuts, self.notes, self.graphs, self.kind, merged)

    def without_facts(self, *keys: str) -> "Val":
        if not self.attrs or not any(k in self.attrs for k in keys):
            return self
        merged = {k: v for k, v in self.attrs.items() if k not in keys}
        return Val(self.live, self.cuts, self.notes, self.graphs, self.kind, merged or None)

    def add_notes(self, notes: Iterable[Note]) -> "Val":
        notes = frozenset(notes)
        if not notes:
            return self
        return Val(self.live, self.cuts, self.notes | notes, self.graphs, self.kind, self.attrs)


EMPTY = Val()


def ref(qual: str) -> Val:
    """A reference to a module, class or function known by its qualified name."""
    return Val(kind=K.REF, attrs={QUAL: qual})


def join(values: Iterable[Val]) -> Val:
    """The value of one of several alternatives (branches, loop iterations, container items)."""
    vals = [v for v in values if v is not None]
    if not vals:
        return EMPTY
    first = vals[0]
    if len(vals) == 1:
        return first
    live = first.live
    cuts = first.cuts
    notes = first.notes
    graphs = first.graphs
    kind = first.kind
    attrs = first.attrs
    for v in vals[1:]:
        if v is first:
            continue
        if v.live is not live:
            live = live | v.live
        if v.cuts is not cuts:
            cuts = cuts | v.cuts
        if v.notes is not notes:
            notes = notes | v.notes
        if v.graphs is not graphs:
            graphs = graphs | v.graphs
        if kind != v.kind:
            kind = None
        elif kind == "ref" and attrs and v.attrs and attrs.get("qual") != v.attrs.get("qual"):
            # `Tensor = torch.cuda.FloatTensor if cuda else torch.Tensor`: alternative library
            # objects (the same API on two devices, two optimizer classes); the first describes
            # what the code calls well enough, and it is a library object, not an unknown value
            v = Val(v.live, v.cuts, v.notes, v.graphs, v.kind, attrs)
        attrs = _join_attrs(attrs, v.attrs)
    key = KIND_DEFINING.get(kind)
    if key is not None and (attrs is None or key not in attrs):
        kind = None  # e.g. two different functions: neither can be called precisely
    return Val(live, cuts, notes, graphs, kind, attrs)


# facts kept where only one path has them (sets merged; may-facts)
_ONE_SIDED = UNION_FACTS | ANY_FACTS


def _join_attrs(a: dict | None, b: dict | None) -> dict | None:
    """The facts of two paths where they meet, each by its declared join (facts.Join)."""
    if a is b:
        return a
    if not a or not b:
        # Keep only the one-sided facts (union and may-facts) of whichever side has them.
        src = a or b
        if not src:
            return None
        kept = {k: v for k, v in src.items() if k in _ONE_SIDED}
        return kept or None
    out = {}
    for k, va in a.items():
        if k in b:
            vb = b[k]
            if va is vb or va == vb:
                out[k] = va
            elif k in UNION_FACTS:
                out[k] = va | vb
            elif k in ANY_FACTS or k in EVERY_FACTS:
                out[k] = va
            elif k in TRI_FACTS:
                tri = join_tri(va, vb)
                if tri is not None:
                    out[k] = tri
            elif k in PER_ELEMENT_FACTS:
                if isinstance(va, Val) and isinstance(vb, Val):
                    out[k] = join([va, vb])
                elif isinstance(va, tuple) and isinstance(vb, tuple) and len(va) == len(vb):
                    out[k] = tuple(x if x is y else join([x, y]) for x, y in zip(va, vb))
                elif isinstance(va, tuple) and isinstance(vb, tuple) and all(x is y for x, y in zip(va, vb)):
                    # one list extends the other (`layers = []`, then `layers += [conv, relu]` on
                    # each pass of a loop): where it has elements, they are the longer one's
                    out[k] = va if len(va) > len(vb) else vb
        elif k in _ONE_SIDED:
            out[k] = va
    for k, vb in b.items():
        if k in _ONE_SIDED and k not in a:
            out[k] = vb
    # an empty container (`buffer = []`, a loop that may run zero times) met with one that holds
    # elements: its elements are those of the other side
    for x, y in ((a, b), (b, a)):
        if x.get(_ELEM) is not None and y.get(_ITEMS) == () and _ELEM not in y:
            out[_ELEM] = x[_ELEM]
    if _ITEMS not in out and _ELEM not in out and all(_ITEMS in x or _ELEM in x for x in (a, b)):
        # lists of different lengths (`layers += [...]` in a loop that may run zero times), or
        # one whose elements are known one by one and one known by what an element is: what one
        # element is, is any of them
        elems = [e for x in (a, b) for e in (*(x.get(_ITEMS) or ()), x.get(_ELEM)) if isinstance(e, Val)]
        if elems:
            out[_ELEM] = join(elems)
    return out or None


def combine(values: Iterable[Val], kind: Kind | None = None, attrs: dict | None = None) -> Val:
    """The value computed from several inputs by a differentiable operation (no new node)."""
    live = cuts = notes = graphs = _EMPTY_SET
    for v in values:
        if v is EMPTY or v is None:
            continue
        if v.live:
            live = live | v.live
        if v.cuts:
            cuts = cuts | v.cuts
        if v.notes:
            notes = notes | v.notes
        if v.graphs:
            graphs = graphs | v.graphs
    return Val(live, cuts, notes, graphs, kind, attrs)


def cut(v: Val, c: Cut, kind: Kind | None = None, attrs: dict | None = None) -> Val:
    """`v` passed through a gradient-stopping operation.

    A hard cut (a conversion out of the framework) is also recorded for origins that were
    already cut (`x.detach().numpy()`), so the conversion is what gets reported."""
    cuts = v.cuts
    if v.live:
        cuts = cuts | frozenset((o, c) for o in v.live)
        if c.kind in ("detach", "data"):
            c.detached = c.detached | v.graphs
        elif c.hard:
            c.converted = c.converted | v.graphs
    if c.hard and v.cuts:
        # `x.detach().numpy()`: the conversion is what matters. Not `acc.item()` after an
        # argmax/comparison: that value never had a gradient to lose.
        # An origin detached after its last conversion is converted again: `out.detach().numpy()`
        # of an output whose input was itself a converted value (an action from a replay buffer)
        detached_at: dict = {}
        for o, prev in v.cuts:
            if prev.kind in ("detach", "data") and prev.seq > detached_at.get(o, -1):
                detached_at[o] = prev.seq
        already = {o for o, prev in v.cuts if prev.kind not in ("detach", "data", OPAQUE, REWRAP) and prev.seq > detached_at.get(o, -1)}
        cuts = cuts | frozenset((o, c) for o, prev in v.cuts if o not in already)
        for _, prev in v.cuts:
            if prev.kind in ("detach", "data"):
                c.detached = c.detached | prev.detached
                c.converted = c.converted | prev.detached
    notes = v.notes
    if notes:
        notes = frozenset(n for n in notes if n.through_cuts)
    return Val(_EMPTY_SET, cuts, notes, _EMPTY_SET, kind, attrs)


# The cut kind of an operation the analysis cannot see into (see `opaque`).
OPAQUE = "opaque"
# `x.detach()` / `x.data` whose result was then made a new leaf (`.requires_grad_()`,
# `.requires_grad = True`, `Variable(x.data, requires_grad=True)`): the cut is deliberate as a
# new leaf's start, and a bug only where what it detached was being trained (GL103 decides)
REWRAP = "rewrap"


def not_followed(name: str, node: cst.CSTNode) -> Val:
    """The result of a call of the code's own function `name` that the analysis does not follow
    (too deep, or left out by the first pass): unknown, maybe computed from anything."""
    return Val(frozenset({Origin(K.ORIGIN_SYM, f"{name}()", node, certain=False)}), attrs={NOT_FOLLOWED: True})


def opaque(values: Iterable[Val], node: cst.CSTNode, kind: Kind | None = None, attrs: dict | None = None) -> Val:
    """The result of a call the analysis cannot see into (a function of another library, a
    method of an object it knows nothing about): unknown is unknown (issue 13). It is not "a
    value with the history of its arguments" (`ada_augment.tune(pred)` is a Python float made
    under no_grad), so it carries no origin and no graph node; but it may depend on them, so the
    origins of its inputs are kept as `opaque` cuts: a rule that claims "nothing reaches this
    origin" sees the maybe-path, and a conversion before the call (`f(x.numpy())`) stays visible."""
    combined = combine(values)
    cuts = combined.cuts
    if combined.live:
        c = Cut(OPAQUE, node, hard=False)
        cuts = cuts | frozenset((o, c) for o in combined.live)
    return Val(_EMPTY_SET, cuts, combined.notes, _EMPTY_SET, kind, attrs)


def extended_list(old: Val, added: Val) -> dict:
    """The facts of a list after `old += added`: its items then the added ones, or (either
    unknown) what one element is; the list's other facts stay."""
    attrs = {k: v for k, v in (old.attrs or {}).items() if k not in (_ITEMS, _ELEM)}
    ia, ib = old.get(_ITEMS), added.get(_ITEMS)
    if isinstance(ia, tuple) and isinstance(ib, tuple):
        attrs[_ITEMS] = ia + ib
    else:
        elems = [*(ia or ()), *(ib or ()), *(e for e in (old.get(_ELEM), added.get(_ELEM)) if e is not None)]
        if elems:
            attrs[_ELEM] = join(elems)
    return attrs
