"""TensorFlow instrumentation for `gradlint trace` (runs only in the traced process, once the
program imports tensorflow; eager mode only).

- `GradientTape.gradient` is wrapped: sources whose gradient comes back None are reported at
  the call — GL111 at a `.numpy()` taken while that tape was recording (the value left
  TensorFlow), GL113 when the source is an unwatched constant, GL605 otherwise.
- `optimizer.apply_gradients` counts as an optimizer step (the trace stops after `--steps`).
- code that `tf.function` (or `model.fit`) turns into a graph is not observed: it runs once while
  the graph is built, from a file autograph generated.
- reusing a non-persistent tape raises; the probe turns that into GL114 at the user's line.
"""

from __future__ import annotations

import sys

from . import sites
from .state import EXPLAINERS, Session, current


GRAPH_NOTE = ("TensorFlow training steps compiled by tf.function or run by model.fit are not observed "
              "(only eager code is); trace an eager version of the step to check it")


class _TapeState:
    def __init__(self) -> None:
        self.recording: list = []  # tapes inside their `with` block
        self.numpy_calls: dict[int, list] = {}  # id(tape) -> sites of .numpy() while it recorded
        self.steps = 0


_S = _TapeState()


def _session() -> Session | None:
    s = current()
    return None if s is None or s.passive else s


def install() -> None:
    import tensorflow as tf

    tape_cls = tf.GradientTape
    orig_enter, orig_exit, orig_gradient = tape_cls.__enter__, tape_cls.__exit__, tape_cls.gradient

    def enter(self):
        out = orig_enter(self)
        _S.recording.append(self)
        return out

    def exit_(self, *exc):
        if self in _S.recording:
            _S.recording.remove(self)
        return orig_exit(self, *exc)

    def gradient(self, target, sources, *a, **k):
        result = orig_gradient(self, target, sources, *a, **k)
        s = _session()
        if s is not None and tf.executing_eagerly():
            _check_none(s, self, sources, result)
        return result

    tape_cls.__enter__, tape_cls.__exit__, tape_cls.gradient = enter, exit_, gradient
    try:
        from tensorflow.python.framework import ops

        eager = ops._EagerTensorBase
        orig_numpy = eager.numpy

        def numpy(self):
            s = _session()
            if s is not None and _S.recording:
                site = sites.user_site(s.is_user, start=sys._getframe(1))
                for tape in _S.recording:
                    _S.numpy_calls.setdefault(id(tape), []).append(site)
            return orig_numpy(self)

        eager.numpy = numpy
    except (ImportError, AttributeError):  # a TensorFlow without this private class
        pass
    # Inside tf.function (and model.fit) this code runs once, while TensorFlow builds a graph
    # from source that autograph rewrote into a generated file: no user line to report at, and no
    # step to count. Only eager code is observed (docs/trace.md, "Limits").
    _patch_optimizer(tf)
    if explain not in EXPLAINERS:
        EXPLAINERS.append(explain)
    s = current()
    if s is not None and "tensorflow" not in s.frameworks:
        s.frameworks.append("tensorflow")


def _patch_optimizer(tf) -> None:
    try:
        base = tf.keras.optimizers.Optimizer
    except AttributeError:
        return
    orig = base.apply_gradients

    def apply_gradients(self, *a, **k):
        s = _session()
        if s is not None and not tf.executing_eagerly() and GRAPH_NOTE not in s.notes:
            s.notes.append(GRAPH_NOTE)
        if s is not None and tf.executing_eagerly():
            _S.steps += 1
            if _S.steps > s.steps:
                s.step_budget_reached()
            else:
                s.steps_done = _S.steps
        return orig(self, *a, **k)

    base.apply_gradients = apply_gradients


def _flat(x) -> list:
    if isinstance(x, (list, tuple)):
        return [y for item in x for y in _flat(item)]
    if isinstance(x, dict):
        return [y for item in x.values() for y in _flat(item)]
    return [x]


def _check_none(s: Session, tape, sources, result) -> None:
    srcs, res = _flat(sources), _flat(result)
    missing = [src for src, g in zip(srcs, res) if g is None]
    if not missing:
        return
    site = sites.user_site(s.is_user, start=sys._getframe(2))
    names = ", ".join(f"`{_name(m)}`" for m in missing[:3])
    cuts = [c for c in _S.numpy_calls.pop(id(tape), []) if c is not None]
    if cuts:
        s.report("GL111", cuts[0],
                 f"`.numpy()` here, while the GradientTape records, takes the value out of TensorFlow: "
                 f"`tape.gradient` at {sites.short(site)} returns None for {names}; keep the computation in "
                 f"TensorFlow operations", [(site, "the gradient that is None")])
        return
    if any(type(m).__name__ != "ResourceVariable" and not hasattr(m, "assign") for m in missing):
        s.report("GL113", site, f"`tape.gradient` returns None for {names}: a tensor (not a tf.Variable) that the "
                 f"tape does not watch; call `tape.watch(...)` on it inside the tape, or make it a tf.Variable")
        return
    s.report("GL605", site, f"`tape.gradient` returns None for {names}: the target does not depend on them "
             f"through operations the tape recorded; `apply_gradients` will skip them")


def _name(value) -> str:
    """A variable's name as the user wrote it: TensorFlow 2 appends the output index (`w:0`)."""
    name = getattr(value, "name", None)
    if not isinstance(name, str) or not name:
        return type(value).__name__
    return name[:-2] if name.endswith(":0") else name


def explain(session: Session, exc: BaseException) -> bool:
    if "non-persistent GradientTape can only be used to compute one set of gradients" not in str(exc):
        return False
    site = sites.traceback_site(session.is_user, exc.__traceback__)
    if site is None:
        return False
    session.report("GL114", site,
                   "a non-persistent GradientTape is asked for a second gradient here: TensorFlow raises; create "
                   "the tape with `persistent=True` (and `del tape` after use), or compute both gradients in one call")
    return True
