# source: variant of 2138_jax_index_update_result_discarded.py
# framework: jax
# kind: jax-inplace-update
# negative: the bug repaired (was: x.at[i].set(v) returns a new array and leaves x untouched; the result is thrown away in the loop, so tab_x stays all zeros)
# mimics: positive/2138_v1_at_set_discarded.py
# expect: no finding
# checked: ran, no error (fixed twin)
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
    tab_x = tab_x.at[i].set(x)
    tab_v = tab_v.at[i].set(v)
print(tab_x.sum())
