# source: variant of 2202_optax_value_and_grad_wrt_y_true_params_global.py
# framework: jax
# family: F
# kind: jax-params-closed-over
# pitfall: the closure loss_fn(p) ignores its argument p and uses the enclosing params, so jax.grad returns all-zero gradients and the model never trains
# expect: line 25 — value_and_grad of a loss that reads the closed-over params instead of its argument
# checked: ran, reproduces (grads are all zeros; params unchanged after the step)
import jax
import jax.numpy as jnp
import optax

optimizer = optax.sgd(0.1)


def predict(params, x):
    return x @ params["w"] + params["b"]


@jax.jit
def train_step(params, opt_state, x, y):
    def loss_fn(p):
        pred = predict(params, x)
        return jnp.mean((pred - y) ** 2)

    loss, grads = jax.value_and_grad(loss_fn)(params)
    updates, opt_state = optimizer.update(grads, opt_state)
    return optax.apply_updates(params, updates), opt_state, loss


params = {"w": jnp.zeros(3), "b": jnp.float32(0.0)}
new_params, _, _ = train_step(params, optimizer.init(params), jnp.ones((8, 3)), jnp.ones(8))
print(new_params)
