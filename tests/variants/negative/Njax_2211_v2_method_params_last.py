# source: variant of 2211_flax_optax_params_not_first_argument.py
# framework: jax
# kind: jax-grad-wrong-argnums
# negative: the bug repaired (was: in a trainer class, self.loss(x, y, params) has the parameters last; jax.value_and_grad(self.loss) differentiates x)
# mimics: positive/2211_v2_method_params_last.py
# expect: no finding
# checked: ran, no error (fixed twin)
import jax
import jax.numpy as jnp
import flax.linen as nn
import optax


class Critic(nn.Module):
    @nn.compact
    def __call__(self, x):
        x = nn.tanh(nn.Dense(32)(x))
        return nn.Dense(1)(x)


class Agent:
    def __init__(self, key, obs):
        self.model = Critic()
        self.params = self.model.init(key, obs)
        self.tx = optax.adam(1e-3)
        self.opt_state = self.tx.init(self.params)

    def loss(self, x, y, params):
        v = self.model.apply(params, x)
        return 0.5 * ((v.squeeze() - y) ** 2).mean()

    def update(self, x, y):
        loss, grads = jax.value_and_grad(self.loss, argnums=2)(x, y, self.params)
        updates, self.opt_state = self.tx.update(grads, self.opt_state)
        self.params = optax.apply_updates(self.params, updates)
        return loss


obs = jnp.zeros((16, 4))
Agent(jax.random.PRNGKey(0), obs).update(obs, jnp.zeros(16))
