# source: https://github.com/jax-ml/jax/issues/669
# framework: jax
# family: E
# kind: nan-grad-singular-point
# pitfall: the loss sums the eigenvectors of a nearly identity matrix; the eigh gradient's 1/(lambda_i - lambda_j) factors blow up for eigenvalues 1e-8 apart, giving huge or nan gradients
# expect: line 13 — eigenvectors of a (near-)degenerate matrix on the loss path
# checked: ran, reproduces (nan gradient for the near-degenerate matrix)
import numpy as onp
import jax.numpy as np
from jax import grad

def test(x):
    val, vec = np.linalg.eigh(x)
    return np.real(np.sum(vec))

grad_test = grad(test)

onp.random.seed(42)
x = onp.diag(
    onp.ones(3, dtype=onp.double) +
    onp.random.normal(0, 1e-6, size=3)
)

x2 = onp.diag(
    onp.ones(3, dtype=onp.double) +
    onp.random.normal(0, 1e-8, size=3)
)

print(grad_test(x))
print(grad_test(x2))
