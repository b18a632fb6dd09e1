# source: https://openillumi.com/?p=109328
# framework: jax
# family: A
# kind: jax-tracer-conversion
# pitfall: NEGATIVE: the accepted fix: the loss written with jax.numpy (data still made with NumPy)
# expect: no finding
# checked: not run (TF/JAX not installed); the answer replaces np.power/np.mean with jnp.power/jnp.mean
import numpy as np
import jax.numpy as jnp
from jax import grad

x = np.linspace(0,1,100)
y = 2 * x + 3 + np.random.randn(100)


def f(params, x, y):
    return jnp.mean(jnp.power((params['w'] * x + params['b'])-y , 2))


params = {'w': 2.4, 'b': 10.}
df = grad(f)
df(params, x, y)
