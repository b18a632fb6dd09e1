# source: https://github.com/jax-ml/jax/issues/1406
# framework: jax
# family: A
# kind: jax-concretization
# pitfall: the jitted function loops with Python's range(num) over its argument; under jit num is a tracer, and range needs a concrete integer (TracerIntegerConversionError; the documented fixes are static_argnums or lax.fori_loop)
# expect: line 12 — range() over a traced argument inside jax.jit
# checked: ran, reproduces (TracerIntegerConversionError)
from jax import jit


def foo(num):
    for _ in range(num):
        pass

jit(foo)(0)
