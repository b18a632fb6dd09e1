# source: https://github.com/jax-ml/jax/issues/2287
# framework: jax
# family: F
# kind: jax-inplace-update
# pitfall: jax.ops.index_update returns a new array and leaves its argument untouched; the result is thrown away in the loop, so tab_x and tab_v stay all zeros
# expect: line 26 — the updated array returned by jax.ops.index_update is discarded (JAX arrays are immutable; the result must be assigned back)
# checked: parse only (jax.ops.index_update was removed in jax 0.4; the .at[i].set equivalent ran and shows the array unchanged when the result is discarded)
import jax
import jax.numpy as np

dt=1e-3
N=100
x0 = 1.5
v0 = 0


tab_x = np.zeros(N)
tab_v = np.zeros(N)
tab_t = np.arange(N)*dt
c=4*np.pi**2
x = x0
v = v0
for i in range(N):
  x = x+v*dt
  v = v-c*np.sin(x)*dt
  jax.ops.index_update(tab_x, i, x)
  jax.ops.index_update(tab_v, i, v)
