# source: synthetic
# family: F
# pitfall: inside a jitted gradient function the first (BOS) position of a mask is zeroed with mask[:, 0] = 0.0
# expect: line 15 — item assignment on a JAX array is not supported (immutable arrays): TypeError at trace time; use mask.at[:, 0].set(0.0)

import jax
import jax.numpy as jnp


def masked_lm_loss(params, tokens, targets):
    logits = params["emb"][tokens] @ params["out"]
    logp = jax.nn.log_softmax(logits)
    nll = -jnp.take_along_axis(logp, targets[..., None], axis=-1)[..., 0]
    mask = jnp.ones_like(nll)
    mask[:, 0] = 0.0
    return jnp.sum(nll * mask) / jnp.sum(mask)


grad_fn = jax.jit(jax.grad(masked_lm_loss))
key = jax.random.PRNGKey(0)
params = {"emb": jax.random.normal(key, (100, 16)), "out": jax.random.normal(key, (16, 100))}
tokens = jax.random.randint(key, (4, 12), 0, 100)
grads = grad_fn(params, tokens, jnp.roll(tokens, -1, axis=1))
