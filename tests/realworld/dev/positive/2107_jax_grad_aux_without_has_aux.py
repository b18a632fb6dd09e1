# source: https://github.com/jax-ml/jax/issues/6213
# framework: jax
# family: F
# kind: jax-has-aux
# pitfall: the differentiated function returns (loss, aux) but jax.grad is called without has_aux=True, so grad sees a tuple output and raises "Gradient only defined for scalar-output functions"
# expect: line 20 — jax.grad of a function returning a pair, without has_aux=True
# checked: ran, reproduces (TypeError: Gradient only defined for scalar-output functions)
import jax
import jax.numpy as jnp

def sum_squared_error(x, y):
  return jnp.sum((x-y)**2)

x = jnp.asarray([1.0, 2.0, 3.0, 4.0])
y = jnp.asarray([1.1, 2.1, 3.1, 4.1])

def squared_error_with_aux(x, y):
  return sum_squared_error(x, y), x-y

jax.grad(squared_error_with_aux)(x, y)
