# source: https://github.com/jax-ml/jax/issues/5798
# framework: jax
# family: E
# kind: where-nan-gradient
# pitfall: np.where selects x below 1 but the sqrt branch is still differentiated at 0, so grad(f)(0.0) is nan
# expect: line 11 — the untaken sqrt branch of where produces an infinite derivative at 0 that turns the gradient into nan
# checked: ran, reproduces (grad at 0.0 is nan)
import jax.numpy as np
from jax import grad

f = lambda x: np.where(x<1., x, np.sqrt(x))
df = grad(f)
df(1e-9)  # evaluates to 1, as expected
df(0.0)   # evaluates to nan, presumably because the second case of the where is nan in that case
