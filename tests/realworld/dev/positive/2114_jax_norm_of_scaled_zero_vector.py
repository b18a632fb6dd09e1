# source: https://github.com/jax-ml/jax/issues/26248
# framework: jax
# family: E
# kind: nan-grad-singular-point
# pitfall: jnp.linalg.norm(a * x) is differentiated with respect to the scale a while x is the zero vector (the diagonal of a Matern kernel), giving nan instead of |a|'s derivative times norm(x) = 0
# expect: line 12 — norm of a product that is the zero vector, differentiated with respect to a
# checked: ran, reproduces (gradient nan)
import jax
from jax import numpy as jnp

def func1(a, x):
    return jnp.linalg.norm(a * x)

a = 1.3
x = jnp.zeros(2)

print(f"{func1.__name__}({a}, {x}) = {func1(a, x)}")
print(f"jax.grad({func1.__name__})({a}, {x}) = {jax.grad(func1)(a, x)}")
