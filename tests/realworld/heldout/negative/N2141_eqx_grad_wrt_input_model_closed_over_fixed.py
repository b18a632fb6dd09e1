# source: https://github.com/patrick-kidger/equinox/issues/458
# framework: jax
# kind: jax-params-closed-over
# negative: the accepted fix — pass the model as the first argument of the loss and differentiate it (eqx.filter_grad(loss)(model, x)), then apply the updates
# mimics: positive/2141_eqx_grad_wrt_input_model_closed_over.py
# expect: no finding
# checked: ran, no error
import equinox as eqx
import jax
import optax
import jax.numpy as jnp

model = eqx.nn.Linear(1, 1, key=jax.random.PRNGKey(1))

optim = optax.adam(learning_rate=0.1)
optim_state = optim.init(eqx.filter(model, eqx.is_array))
def loss(model, x):
    return jnp.mean(model(x))

grads = eqx.filter_grad(loss)(model, jnp.zeros((1)))

updates, opt_state = optim.update(updates=grads, state=optim_state)
model = eqx.apply_updates(model, updates)
