# source: variant of 2138_jax_index_update_result_discarded.py
# framework: jax
# family: F
# kind: jax-inplace-update
# pitfall: x.at[i].set(v) returns a new array and leaves x untouched; the result is thrown away in the loop, so tab_x stays all zeros
# expect: line 20 — the updated array returned by .at[i].set is discarded
# checked: ran, reproduces (tab_x is still all zeros after the loop)
import jax.numpy as jnp

dt = 1e-3
N = 100
c = 4 * jnp.pi ** 2

tab_x = jnp.zeros(N)
tab_v = jnp.zeros(N)
x, v = 1.5, 0.0
for i in range(N):
    x = x + v * dt
    v = v - c * jnp.sin(x) * dt
    tab_x.at[i].set(x)
    tab_v.at[i].set(v)
print(tab_x.sum())
