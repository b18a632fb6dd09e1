# source: https://github.com/jax-ml/jax/issues/11606
# framework: jax
# family: E
# kind: nondiff-op-on-loss-path
# pitfall: the agent-based model's output is a sum of jax.random.bernoulli draws whose probability is the parameter; a Bernoulli sample is piecewise constant in p, so jax.grad of the loss with respect to params is always 0 and gradient descent never moves
# expect: line 15 — jax.random.bernoulli sample of the differentiated parameter on the path to the loss
# checked: ran, reproduces (grads is 0.0 every step)
import jax.numpy as jnp
import jax
from jax import random
key = random.PRNGKey(0)

def abm_native(n_agents = 100, expected_degree_sequence = None, params=.5, gamma=.2):

    new_inf = jax.random.bernoulli(key,p=jnp.repeat(params,n_agents))
    return (jnp.sum(1.0*new_inf))


x = abm_native(n_agents=100,expected_degree_sequence=None)
print (x)

def forward(params):
    x = abm_native(n_agents=100,expected_degree_sequence=None,params=params)
    return (x)


def loss_fn(params, x):
    err = forward(params) - x
    return jnp.mean(jnp.square(err))  # m

from jax import grad, jit, vmap

grad_fn = jax.grad(loss_fn)


def update(params, grads):
    return jax.tree_map(lambda p, g: p - 0.005 * g, params, grads)

params = .3
# the main training loop
for _ in range(100):
    loss = loss_fn(params, x)
    print("loss",loss)

    grads = grad_fn(params,x)
    params = update(params, grads)
    print ("params",params)
    print ("grads",grads)
