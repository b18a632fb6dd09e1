# source: variant of 2130_jax_jit_warp_boxes_item_assignment.py
# framework: jax
# kind: jax-inplace-update
# negative: the bug repaired (was: a lax.fori_loop body writes into the carried jnp array with NumPy-style item assignment; JAX arrays are immutable)
# mimics: positive/2130_v1_fori_body_setitem.py
# expect: no finding
# checked: ran, no error (fixed twin)
import jax
import jax.numpy as jnp


def cumulative(xs):
    def body(i, out):
        out = out.at[i].set(out[i - 1] + xs[i])
        return out

    out = jnp.zeros_like(xs).at[0].set(xs[0])
    return jax.lax.fori_loop(1, xs.shape[0], body, out)


jax.jit(cumulative)(jnp.arange(5.0))
