# source: https://github.com/jax-ml/jax/issues/6213
# framework: jax
# kind: jax-has-aux
# negative: the accepted fix — jax.grad(squared_error_with_aux, has_aux=True)
# mimics: positive/2107_jax_grad_aux_without_has_aux.py
# expect: no finding
# checked: ran, no error
import jax
import jax.numpy as jnp

def sum_squared_error(x, y):
  return jnp.sum((x-y)**2)

x = jnp.asarray([1.0, 2.0, 3.0, 4.0])
y = jnp.asarray([1.1, 2.1, 3.1, 4.1])

def squared_error_with_aux(x, y):
  return sum_squared_error(x, y), x-y

jax.grad(squared_error_with_aux, has_aux=True)(x, y)
