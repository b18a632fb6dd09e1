# source: https://github.com/jax-ml/jax/issues/2287
# framework: jax
# kind: jax-inplace-update
# negative: the accepted fix — assign the returned array back (written with the current .at[i].set API that replaced jax.ops.index_update)
# mimics: positive/2138_jax_index_update_result_discarded.py
# expect: no finding
# checked: ran, no error (tab_x filled)
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
  tab_x = tab_x.at[i].set(x)
  tab_v = tab_v.at[i].set(v)
