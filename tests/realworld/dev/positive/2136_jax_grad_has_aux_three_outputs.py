# source: https://github.com/jax-ml/jax/issues/5776
# framework: jax
# family: F
# kind: jax-has-aux
# pitfall: grad(..., has_aux=True) is given a function that returns three values instead of a (value, aux) pair, so unpacking fails with an unhelpful error
# expect: line 9 — has_aux=True requires the function to return exactly (scalar, aux); this lambda returns a 3-tuple
# checked: ran, reproduces (TypeError: expected function with aux output to return a two-element tuple)
import jax
jax.grad(lambda x: (1, 2, 3), has_aux=True)(1.)
