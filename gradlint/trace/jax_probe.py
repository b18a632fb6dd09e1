"""JAX instrumentation for `gradlint trace` (runs only in the traced process, once the program
imports jax). JAX itself refuses to turn a tracer into a concrete value (`float(x)`,
`np.asarray(x)`, `int(x)`, `if x:` inside `jax.grad`/`jit`): the probe turns those errors into
GL121 at the user's line, the same code as the static rule."""

from __future__ import annotations

from . import sites
from .state import EXPLAINERS, Session, current

TRACER_ERRORS = ("ConcretizationTypeError", "TracerArrayConversionError", "TracerIntegerConversionError",
                 "TracerBoolConversionError", "NonConcreteBooleanIndexError")


def explain(session: Session, exc: BaseException) -> bool:
    if type(exc).__name__ not in TRACER_ERRORS or not type(exc).__module__.startswith("jax"):
        return False
    site = sites.traceback_site(session.is_user, exc.__traceback__)
    if site is None:
        return False
    what = {"TracerArrayConversionError": "converted to a NumPy array",
            "TracerIntegerConversionError": "converted to a Python int",
            "TracerBoolConversionError": "used as a Python bool"}.get(type(exc).__name__, "given a concrete value")
    session.report(
        "GL121", site,
        f"a traced value is {what} here, inside a function that jax.grad/jit traces: JAX raises "
        f"{type(exc).__name__}; keep it a JAX array (`jnp` operations, `jnp.where` instead of `if`, "
        f"`jax.lax.cond`), or mark the argument static",
    )
    return True


def install() -> None:
    if explain not in EXPLAINERS:
        EXPLAINERS.append(explain)
    s = current()
    if s is not None and "jax" not in s.frameworks:
        s.frameworks.append("jax")
