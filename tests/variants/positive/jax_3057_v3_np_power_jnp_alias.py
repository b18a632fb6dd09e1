# source: variant of 3057_jax_grad_numpy_power_mean_loss.py
# framework: jax
# family: A
# kind: jax-tracer-conversion
# pitfall: the loss mixes jnp and onp (classic NumPy): onp.power on the traced prediction inside the function passed to jax.grad
# expect: line 15 — onp.power (NumPy) applied to the traced prediction inside the differentiated loss
# checked: ran, reproduces (TracerArrayConversionError)
import numpy as onp
import jax.numpy as np
from jax import grad, jit


def mse(params, x, y):
    pred = params['w'] * x + params['b']
    return np.mean(onp.power(pred - y, 2))


x = onp.linspace(0, 1, 100)
y = 2 * x + 3 + onp.random.randn(100)
df = jit(grad(mse))
df({'w': 2.4, 'b': 10.}, x, y)
