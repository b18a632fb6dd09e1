# source: variant of 2130_jax_jit_warp_boxes_item_assignment.py
# framework: jax
# family: F
# kind: jax-inplace-update
# pitfall: a lax.fori_loop body writes into the carried jnp array with NumPy-style item assignment; JAX arrays are immutable
# expect: line 14 — in-place item assignment into a jax array inside a fori_loop body
# checked: ran, reproduces (TypeError: JAX arrays are immutable and do not support in-place item assignment)
import jax
import jax.numpy as jnp


def cumulative(xs):
    def body(i, out):
        out[i] = out[i - 1] + xs[i]
        return out

    out = jnp.zeros_like(xs).at[0].set(xs[0])
    return jax.lax.fori_loop(1, xs.shape[0], body, out)


jax.jit(cumulative)(jnp.arange(5.0))
