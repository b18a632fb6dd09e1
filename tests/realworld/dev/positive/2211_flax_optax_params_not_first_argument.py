# source: https://github.com/google-deepmind/optax/issues/366
# framework: jax
# family: F
# kind: jax-grad-wrong-argnums
# pitfall: the loss takes the network parameters as its last argument, but jax.value_and_grad differentiates argument 0 (x) by default, so the "grads" are the gradient with respect to the inputs and optax's update fails (TypeError: unsupported operand type(s) for *: 'float' and 'FrozenDict')
# expect: line 46 — value_and_grad(model_loss) with the parameters not in position 0 and no argnums
# checked: ran, reproduces (TypeError in model_optimizer.update); the failing update function is not shown in the thread's excerpt and is reconstructed from its title and the working update_works shown there
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
def update_doesnt_work(
    x, y,
    critic_parameters,
    model_optimizer_state, key
):
    def model_loss(x, y, critic_parameters):
        newvalue = model.apply(critic_parameters, x)
        v_loss = 0.5 * ((newvalue.squeeze() - y.squeeze()) ** 2).mean()
        return v_loss
    loss, grads = jax.value_and_grad(model_loss)(x, y, critic_parameters)
    updates, model_optimizer_state = model_optimizer.update(grads, model_optimizer_state)
    critic_parameters = optax.apply_updates(critic_parameters, updates)
    return loss, critic_parameters, model_optimizer_state


update_doesnt_work(x, y, critic_parameters, model_optimizer_state, key)
