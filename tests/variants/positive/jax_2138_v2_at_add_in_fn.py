# source: variant of 2138_jax_index_update_result_discarded.py
# framework: jax
# family: F
# kind: jax-inplace-update
# pitfall: inside a jitted function, counts.at[idx].add(1) is written as a statement; the new array is discarded and counts is returned unchanged
# expect: line 16 — the updated array returned by .at[].add is discarded
# checked: ran, reproduces (the returned histogram is all zeros)
import jax
import jax.numpy as jnp


@jax.jit
def histogram(labels, num_classes=4):
    counts = jnp.zeros(4)
    for k in range(labels.shape[0]):
        counts.at[labels[k]].add(1.0)
    return counts


print(histogram(jnp.array([0, 1, 1, 3])))
