# source: https://github.com/jax-ml/jax/issues/3761
# framework: jax
# family: A
# kind: jax-concretization
# pitfall: the lax.cond predicate is built with Python's `and` on two traced comparisons, which calls bool() on a tracer inside jit
# expect: line 25 — Python `and` between traced comparisons in a jitted function
# checked: ran, reproduces (TracerBoolConversionError)
import jax
from jax import jit

@jit
def true_fn(x):
    return x - 5000.0

@jit
def false_fn(x):
    return x + 100.0

@jit
def cond_test_1(x, y):
    return jax.lax.cond(x < 0, true_fn, false_fn, x)

@jit
def cond_test_2(x, y):
    return jax.lax.cond(x < 0 and y < 0, true_fn, false_fn, x)

cond_test_1(0.3, 0.1)
cond_test_2(0.3, 0.1)
