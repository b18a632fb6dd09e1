# source: https://github.com/google-research/scenic/issues/919
# framework: jax
# family: E
# kind: nan-grad-singular-point
# pitfall: the epsilon meant to guard the division ended up inside the keepdims argument (keepdims=True + epsilon), so the features are divided by the bare jnp.linalg.norm; an all-zero feature row gives 0/0 and a NaN gradient
# expect: line 13 — division by jnp.linalg.norm with the epsilon misplaced into keepdims (no guard against a zero norm)
# checked: ran, reproduces (NaN value and gradient for a zero row); the issue quotes the line, the NCR loss around it is reduced to an L2-normalised similarity. The fix proposed in the issue, norm + epsilon, still gives a NaN gradient for an exact zero row on jax 0.10.2 (the derivative of the norm itself is 0/0 there), so no negative is written
import jax
import jax.numpy as jnp


def l2_normalize(tensor, axis=-1, epsilon=1e-12):
  return tensor / jnp.linalg.norm(tensor, axis=axis, keepdims=True + epsilon)


def similarity_loss(features):
  normalized = l2_normalize(features)
  return jnp.sum(normalized @ normalized.T)


features = jnp.array([[1.0, 2.0], [0.0, 0.0]])
print(jax.grad(similarity_loss)(features))
