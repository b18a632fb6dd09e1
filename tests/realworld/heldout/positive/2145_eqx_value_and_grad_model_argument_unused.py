# source: https://github.com/patrick-kidger/equinox/issues/442
# framework: jax
# family: B
# kind: jax-params-closed-over
# pitfall: grad_loss takes model as its differentiated first argument but never uses it: calc_prob reads the model from the enclosing scope, so the loss does not depend on the argument and every gradient is zero
# expect: line 25 — the loss calls calc_prob without the model argument; the model being differentiated is not used (calc_prob uses the global model)
# checked: parse only (the thread shows grad_loss only; calc_prob is reconstructed from the reporter's reply that it lacked a model argument)
import equinox as eqx
import jax
import jax.numpy as jnp


def calc_prob(ti, yi):
    # uses the global `model`, not an argument (the reporter: "I should have added argument for model")
    return jnp.mean(jax.vmap(model)(yi))


@eqx.filter_value_and_grad
def grad_loss(model, ti, yi):
    # yi : (batch_num, L=length * length_size, data size)
    # ti : (L,)
    # approximate the probability

    # Sample M
    p_pred = jax.vmap(calc_prob, in_axes=(None,0))(ti,yi) # along batch_num
    return jnp.sum( p_pred ) # negative log likelihood
