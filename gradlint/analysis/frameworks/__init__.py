"""The registry of framework overlays: one module per library, one line each below.

Everything that depends on which libraries gradlint knows reads this registry: the
interpreter's dispatch (`by_head`, the merged method and decorator tables), the canonical
names (`canonical`), `framework_of`, and the cheap first pass (`EVIDENCE`). Adding a library
is one module in this package and one line in `FRAMEWORKS`.
"""

from __future__ import annotations

from typing import Iterable, Mapping

from ..kinds import Kind
from . import accelerate, jax, learn2learn, lightning, models, numpy, python, tensorflow, torch
from .arrays import FLOAT_CAST_METHODS, HARD_CUT_METHODS, INT_CAST_METHODS, META_ATTRS, META_METHODS, NONDIFF_FUNCS, REDUCTIONS
from .base import DecoratorHandler, Evidence, Framework, KindCall, MethodHandler, OptimizerMethod

FRAMEWORKS: tuple[Framework, ...] = (
    python.PYTHON,
    numpy.NUMPY,
    torch.TORCH,
    models.TORCHVISION,
    models.TIMM,
    models.TRANSFORMERS,
    lightning.LIGHTNING,
    accelerate.ACCELERATE,
    learn2learn.LEARN2LEARN,
    tensorflow.TENSORFLOW,
    jax.JAX,
)

# The array-method ladder (recv.m(...) on a tensor or an unknown receiver): each overlay's part
# in this order, then the generic rule. PyTorch's names come first: they are the vocabulary
# all the frameworks share (arrays.py); JAX's `.at[...]` and TensorFlow's `assign` come after
# (a JAX `x.at[i].max(v)` is a reduction's name, and was always read as one).
TENSOR_METHOD_CHAIN: tuple[Framework, ...] = (torch.TORCH, jax.JAX, tensorflow.TENSORFLOW, python.PYTHON)


def _merge(tables: Iterable[tuple[Framework, Mapping]], what: str) -> dict:
    out: dict = {}
    owner: dict = {}
    for fw, table in tables:
        for k, v in table.items():
            if k in out:
                raise ValueError(f"{what} {k!r} is declared by both {owner[k].name} and {fw.name}")
            out[k] = v
            owner[k] = fw
    return out


_BY_HEAD: dict[str, Framework] = _merge(((fw, {h: fw for h in fw.heads}) for fw in FRAMEWORKS), "module head")
_ALIASES: dict[str, list[tuple[str, str]]] = {}
for _fw in FRAMEWORKS:
    for _prefix, _repl in _fw.aliases.items():
        _ALIASES.setdefault(_prefix.split(".", 1)[0], []).append((_prefix, _repl))

DECORATORS: dict[str, DecoratorHandler] = _merge(((fw, fw.decorators) for fw in FRAMEWORKS), "decorator")
MODULE_METHODS: dict[str, MethodHandler] = _merge(((fw, fw.module_methods) for fw in FRAMEWORKS), "module method")
OPTIMIZER_METHODS: dict[str, OptimizerMethod] = _merge(((fw, fw.optimizer_methods) for fw in FRAMEWORKS), "optimizer method")
RECEIVER_METHODS: dict[Kind, MethodHandler] = _merge(((fw, fw.receiver_methods) for fw in FRAMEWORKS), "methods of the kind")
CALLABLE_KINDS: dict[Kind, KindCall] = _merge(((fw, fw.callable_kinds) for fw in FRAMEWORKS), "calls of the kind")
ANNOTATIONS: dict[str, str] = _merge(((fw, fw.annotations) for fw in FRAMEWORKS), "annotation")
MODULE_LIKE_METHODS = frozenset().union(*(fw.module_like_methods for fw in FRAMEWORKS))
MODULE_EVIDENCE = frozenset().union(*(fw.module_evidence for fw in FRAMEWORKS))
CLIP_METHODS = frozenset().union(*(fw.clip_methods for fw in FRAMEWORKS))
BACKWARD_METHODS = frozenset().union(*(fw.backward_methods for fw in FRAMEWORKS))
INSTANCE_CALL_METHODS = frozenset().union(*(fw.instance_call_methods for fw in FRAMEWORKS))


def _evidence() -> Evidence:
    def uniq(items: Iterable) -> tuple:
        return tuple(dict.fromkeys(items))

    return Evidence(
        words=uniq(w for fw in FRAMEWORKS for w in fw.evidence.words),
        literals=uniq(x for fw in FRAMEWORKS for x in fw.evidence.literals),
        bare_calls=uniq(x for fw in FRAMEWORKS for x in fw.evidence.bare_calls),
        patterns=uniq(x for fw in FRAMEWORKS for x in fw.evidence.patterns),
    )


EVIDENCE = _evidence()


def by_head(head: str) -> Framework | None:
    """The overlay of a qualified name's first component (`torch` for `torch.nn.Linear`)."""
    return _BY_HEAD.get(head)


_CANON: dict[str, str] = {}


def canonical(qual: str) -> str:
    """The name under which the API is known (`tensorflow.keras.layers.Dense` ->
    `keras.layers.Dense`), from the overlays' aliases."""
    c = _CANON.get(qual)
    if c is not None:
        return c
    c = qual
    for prefix, repl in _ALIASES.get(qual.split(".", 1)[0], ()):
        if qual == prefix or qual.startswith(prefix + "."):
            c = repl + qual[len(prefix) :]
            break
    if len(_CANON) < 100_000:
        _CANON[qual] = c
    return c


def framework_of(qual: str | None) -> str | None:
    """The framework tag (torch | tf | jax | np) of a library name, None for anything else."""
    if not qual:
        return None
    fw = _BY_HEAD.get(qual.split(".", 1)[0])
    return fw.tag if fw is not None else None


def class_roles(qual: str) -> frozenset[str]:
    fw = _BY_HEAD.get(qual.split(".", 1)[0])
    return fw.class_roles(qual) if fw is not None else frozenset()


def decorator(qual: str) -> DecoratorHandler | None:
    return DECORATORS.get(qual)


def annotation_role(qual: str | None) -> str | None:
    return ANNOTATIONS.get(qual) if qual else None


__all__ = [
    "FRAMEWORKS", "TENSOR_METHOD_CHAIN", "EVIDENCE", "DECORATORS", "MODULE_METHODS", "OPTIMIZER_METHODS", "MODULE_LIKE_METHODS",
    "MODULE_EVIDENCE", "CLIP_METHODS", "BACKWARD_METHODS", "INSTANCE_CALL_METHODS", "Framework", "Evidence", "by_head", "canonical", "framework_of",
    "class_roles", "decorator", "annotation_role", "RECEIVER_METHODS", "CALLABLE_KINDS", "ANNOTATIONS", "NONDIFF_FUNCS", "INT_CAST_METHODS",
    "FLOAT_CAST_METHODS", "META_METHODS", "META_ATTRS", "HARD_CUT_METHODS", "REDUCTIONS",
]
