# source: variant of 2211_flax_optax_params_not_first_argument.py
# framework: jax
# family: F
# kind: jax-grad-wrong-argnums
# pitfall: argnums=1 is given, but the parameters are argument 2 of model_loss (x, y, params); the gradient is taken with respect to y
# expect: line 28 — value_and_grad with argnums pointing at y, not at the parameters
# checked: ran, reproduces (TypeError: unsupported operand type(s) for *: 'float' and 'dict' in optax update)
import jax
import jax.numpy as jnp
import optax


def mlp(params, x):
    h = jnp.tanh(x @ params["w1"])
    return h @ params["w2"]


def model_loss(x, y, params):
    pred = mlp(params, x)
    return jnp.mean((pred.squeeze() - y) ** 2)


optimizer = optax.adam(0.04)


@jax.jit
def update(x, y, params, opt_state):
    loss, grads = jax.value_and_grad(model_loss, argnums=1)(x, y, params)
    updates, opt_state = optimizer.update(grads, opt_state)
    params = optax.apply_updates(params, updates)
    return loss, params, opt_state


params = {"w1": jnp.ones((4, 8)), "w2": jnp.ones((8, 1))}
update(jnp.ones((16, 4)), jnp.zeros(16), params, optimizer.init(params))
