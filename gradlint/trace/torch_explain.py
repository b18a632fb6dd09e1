"""Autograd errors traced to their cause, for the torch probe (imports torch: runs only in the
traced process). A backward that raises a freed-graph, an in-place or a no-graph error is
reported on the line that caused it (and on the backward), from what torch_probe recorded:
the backward passes and the nodes they walked, the in-place operations, the cuts.
"""

from __future__ import annotations

import re

from .sites import short
from .torch_graph import entry_site, is_freed, node_meta, params_of
from .torch_records import CUT_CODES, CUT_WORDS, BRec, Modules, TorchState, cut_advice


def explain_backward_error(st: TorchState, modules: Modules, exc: BaseException, rec: BRec, nodes) -> None:
    """`exc`, raised by a backward, is one autograd error gradlint can trace to its cause: report
    the cause (and the backward) and mark the exception explained."""
    msg = str(exc)
    explained = False
    if "backward through the graph a second time" in msg:
        explained = _freed(st, rec, nodes)
    elif "modified by an inplace operation" in msg:
        explained = _inplace(st, rec, msg)
    elif "does not require grad and does not have a grad_fn" in msg:
        explained = _no_graph(st, modules, rec)
    if explained:
        try:
            exc._gradlint_explained = True  # type: ignore[attr-defined]
        except AttributeError:  # pragma: no cover
            pass


def _freed(st: TorchState, rec: BRec, nodes) -> bool:
    """A freed graph ("Trying to backward through the graph a second time"): the backward that
    freed the shared part, or the value carried in from an earlier iteration."""
    freed = [n for n in nodes if is_freed(n)]
    if not freed:
        return False
    # which earlier backward walked (and freed) them
    prev, node = None, None
    for b in reversed(st.backwards):
        if b is rec or b.retain:
            continue
        hits = [n for n in freed if id(n) in b.walked]
        hit = next((n for n in hits if node_meta(n) is not None), hits[0] if hits else None)
        if hit is not None:
            prev, node = b, hit
            break
    meta = node_meta(node if node is not None else freed[0])
    bounds = st.boundaries()
    if prev is not None and meta is not None and \
            st.iteration_of(meta[1], bounds) < st.iteration_of(rec.opseq, bounds) and prev.site == rec.site:
        # a value of an earlier iteration carried into this one: where does it enter?
        entry = entry_site(nodes, prev.opseq)
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


def _inplace(st: TorchState, rec: BRec, msg: str) -> bool:
    """A saved tensor changed ("modified by an inplace operation"): the recorded in-place
    operation that bumped its version."""
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


def _no_graph(st: TorchState, modules: Modules, rec: BRec) -> bool:
    """A loss without a graph ("does not require grad"): the recorded cut that left it so."""
    opt_ids = {id(p) for o in st.opts.values() if o.ref() is not None for p in params_of(o.ref())}
    if not opt_ids:
        opt_ids = {id(p) for m in list(modules.all) for p in m.parameters(recurse=False)}
    cut = st.find_cut(opt_ids, prefer_gen=rec.gen)
    if cut is None:
        return False
    code = CUT_CODES[cut.kind]
    st.s.report(
        code, cut.site,
        f"{CUT_WORDS[cut.kind]} here takes the value out of the autograd graph, so the loss differentiated at "
        f"{short(rec.site)} has no graph at all: backward() raises \"element 0 of tensors does not require grad\"; "
        + cut_advice(cut.kind),
        [(rec.site, "the backward that raised")],
    )
    st.s.report(code, rec.site,
                f"the loss differentiated here has no graph: {CUT_WORDS[cut.kind]} at {short(cut.site)} cut it",
                [(cut.site, "the cut")])
    return True
