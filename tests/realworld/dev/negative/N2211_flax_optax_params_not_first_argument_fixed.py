# source: https://github.com/google-deepmind/optax/issues/366
# framework: jax
# kind: jax-grad-wrong-argnums
# negative: the reporter's working variant — the parameters are the loss's first argument, which value_and_grad differentiates by default
# mimics: positive/2211_flax_optax_params_not_first_argument.py
# expect: no finding
# checked: ran, no error
import flax.linen as nn
import jax
import jax.numpy as jnp
import optax
import numpy as np

class Model(nn.Module):
    @nn.compact
    def __call__(self, x):
        x = nn.Dense(64)(x)
        x = nn.tanh(x)
        x = nn.Dense(64)(x)
        x = nn.tanh(x)
        x = nn.Dense(1)(x)
        return x

x = jnp.zeros((1024, 64))
y = jnp.zeros((1024,))

key = jax.random.PRNGKey(0)
example_input = np.zeros((1, 64))
model = Model()
critic_parameters = model.init(key, x)
model.apply = jax.jit(model.apply)
model_optimizer = optax.adam(learning_rate=0.04, eps=1e-5)
model_optimizer_state = model_optimizer.init(critic_parameters)


@jax.jit
def update_works(
    x, y,
    critic_parameters,
    model_optimizer_state, key
):
    def model_loss(critic_parameters, x, y):
        newvalue = model.apply(critic_parameters, x)
        v_loss = 0.5 * ((newvalue.squeeze() - y.squeeze()) ** 2).mean()
        return v_loss
    loss, grads = jax.value_and_grad(model_loss)(critic_parameters, x, y)
    updates, model_optimizer_state = model_optimizer.update(grads, model_optimizer_state)
    critic_parameters = optax.apply_updates(critic_parameters, updates)
    return loss, critic_parameters, model_optimizer_state


update_works(x, y, critic_parameters, model_optimizer_state, key)
