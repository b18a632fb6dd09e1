# source: https://github.com/google-deepmind/dm-haiku/issues/442
# framework: jax
# family: B
# kind: nondiff-op-on-loss-path
# pitfall: The loss is computed from `jnp.argmax` of the MLP logits; argmax is piecewise constant (integer output), so jax.grad returns all-zero gradients for every haiku parameter ("Zero Gradients after argmax").
# expect: line 55 — `jnp.argmax(logits, axis=-1)` on the model output inside the loss
# checked: not run (JAX not installed). PARTIAL: the stored copy of the issue is cut after `k2 = jax.random.PRNGKey(1)`; everything below the RECONSTRUCTED marker is rebuilt from the issue title/description ("zero gradients after using argmax in a loss function") and is NOT the user's verbatim code
import haiku as hk
import jax.numpy as jnp
import jax.random
import optax
import chex

hidden_dim = 64
input_shape = 12
num_classes = 2

class MLP(hk.Module):
    def __init__(self, name=None):
        super().__init__(name=name)


        xavier_constant_1 = jnp.sqrt(6/(input_shape + 256))
        xavier_constant_2 = jnp.sqrt(6/(256 + 256))
        xavier_constant_3 = jnp.sqrt(6/(1 + 256))
        self.seq = hk.Sequential([
            hk.Linear(hidden_dim, w_init=hk.initializers.RandomUniform(-xavier_constant_1, xavier_constant_1), b_init=hk.initializers.Constant(0.)),
            hk.Linear(hidden_dim, w_init=hk.initializers.RandomUniform(-xavier_constant_2, xavier_constant_2), b_init=hk.initializers.Constant(0.)),
            hk.Linear(num_classes, w_init=hk.initializers.RandomUniform(-xavier_constant_3, xavier_constant_3), b_init=hk.initializers.Constant(0.))
        ])

    def __call__(self, x: chex.Array):
        out = x.reshape((x.shape[0], -1))
        return self.seq(out)


def train_simulated():
    def mlp_fn(x):
        mlp = MLP('test_mlp')
        return mlp(x)
    mlp = hk.transform(mlp_fn)
    init, apply = hk.without_apply_rng(mlp)

    k1 = jax.random.PRNGKey(0)
    k2 = jax.random.PRNGKey(1)
    # ---- RECONSTRUCTED below this line (issue text truncated in the stored copy) ----
    x = jax.random.normal(k1, (32, input_shape))
    y = jax.random.randint(k2, (32,), 0, num_classes)
    params = init(k1, x)
    optimizer = optax.adam(1e-3)
    opt_state = optimizer.init(params)

    def loss_fn(params, x, y):
        logits = apply(params, x)
        preds = jnp.argmax(logits, axis=-1)
        return jnp.mean((preds - y) ** 2)

    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    print(grads)  # all zeros
    updates, opt_state = optimizer.update(grads, opt_state)
    params = optax.apply_updates(params, updates)


if __name__ == "__main__":
    train_simulated()
