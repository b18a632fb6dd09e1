# source: https://github.com/jax-ml/jax/issues/15798
# framework: jax
# family: E
# kind: nan-grad-singular-point
# pitfall: the loss is arccos of the Bhattacharyya coefficient; when the two distributions coincide the coefficient is 1 and arccos' derivative is infinite, so the gradient is nan exactly when training converges
# expect: line 14 — arccos of an inner product that reaches 1 at the optimum
# checked: ran, reproduces (nan gradient when the distributions coincide)
import jax
import jax.numpy as jnp
from jax import random

def foo_loss(p,q):
    """Uses arccos also was tested with jax.lax.acos"""
    return jnp.arccos(jnp.vdot(jnp.sqrt(p),jnp.sqrt(q)))

model=jax.nn.softmax

def model_cost(q_logit,p_logit):
    q=model(q_logit)
    p=model(p_logit)
    return foo_loss(p,q)

def model_score(q_logit,p_logit):
    return jax.grad(model_cost)(q_logit,p_logit)

#Example
p_logit=random.normal(random.PRNGKey(0),(4,))
q_logit=random.normal(random.PRNGKey(1),(4,))

print("Diferent vals:",model_cost(q_logit,p_logit),model_score(q_logit,p_logit))
print("Same  vals (after optimization):",model_cost(p_logit,p_logit),model_score(p_logit,p_logit))
