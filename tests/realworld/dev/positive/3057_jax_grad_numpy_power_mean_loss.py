# source: https://openillumi.com/?p=109328
# framework: jax
# family: A
# kind: jax-tracer-conversion
# pitfall: the MSE loss differentiated by jax.grad is written with NumPy's np.mean/np.power; params['w'] is a tracer, and NumPy converts it with __array__
# expect: line 16 — NumPy (not jax.numpy) functions applied to traced parameters inside the function passed to jax.grad
# checked: not run (TF/JAX not installed); the page (relaying a Stack Overflow question) shows `jax._src.errors.TracerArrayConversionError: The numpy.ndarray conversion method __array__() was called on the JAX Tracer object Traced<ConcreteArray...`
import numpy as np
from jax import grad

x = np.linspace(0,1,100)
y = 2 * x + 3 + np.random.randn(100)


def f(params, x, y):
    return np.mean(np.power((params['w'] * x + params['b'])-y , 2))


params = {'w': 2.4, 'b': 10.}
df = grad(f)
df(params, x, y)
