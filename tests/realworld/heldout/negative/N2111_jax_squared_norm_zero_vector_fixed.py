# source: https://github.com/jax-ml/jax/issues/4177
# framework: jax
# kind: nan-grad-singular-point
# negative: the accepted fix — use the sum of squares (sum_of_squares in the same report)
# mimics: positive/2111_jax_squared_norm_zero_vector.py
# expect: no finding
# checked: ran, gradient [0 0]
import jax.numpy as np
from jax import grad


vec = np.zeros(2)

def sum_of_squares(x):
    return np.sum(x ** 2)

gradient_sum = grad(sum_of_squares)

print(sum_of_squares(vec))
print(gradient_sum(vec))
