# source: https://github.com/jax-ml/jax/issues/4177
# framework: jax
# family: E
# kind: nan-grad-singular-point
# pitfall: the squared norm is written as np.linalg.norm(x) ** 2; the norm's derivative x / ||x|| is 0/0 at the zero vector, so the gradient is nan even though the squared norm is smooth
# expect: line 15 — linalg.norm(x) ** 2 differentiated at the zero vector gives nan
# checked: ran, reproduces (gradient [nan nan])
import jax.numpy as np
from jax import grad


vec = np.zeros(2)

def squared_2_norm(x):
    return np.linalg.norm(x) ** 2

gradient_norm = grad(squared_2_norm)

print(squared_2_norm(vec))
print(gradient_norm(vec))
