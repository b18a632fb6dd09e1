# source: https://github.com/jax-ml/jax/issues/2783
# framework: jax
# family: A
# kind: jax-tracer-conversion
# pitfall: float(x) on the traced input inside a differentiated function raises (and, if it were allowed, would silently stop the gradient)
# expect: line 11 — float() of the traced argument inside the function given to grad
# checked: parse only (jax.api was removed; the thread used jax 0.1.x)
from jax import api

def func(x):
   return x if float(x) >= 0. else -x
print(api.grad(func)(3.))
