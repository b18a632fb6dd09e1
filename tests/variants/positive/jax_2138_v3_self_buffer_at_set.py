# source: variant of 2138_jax_index_update_result_discarded.py
# framework: jax
# family: F
# kind: jax-inplace-update
# pitfall: a replay buffer writes with self.obs.at[self.ptr].set(obs) as a statement; the new array is discarded, so the buffer stays empty
# expect: line 18 — the updated array returned by .at[].set is discarded (self.obs is not reassigned)
# checked: ran, reproduces (buffer.obs is still all zeros after adding)
import jax.numpy as jnp


class ReplayBuffer:
    def __init__(self, capacity, obs_dim):
        self.obs = jnp.zeros((capacity, obs_dim))
        self.ptr = 0
        self.capacity = capacity

    def add(self, obs):
        self.obs.at[self.ptr].set(obs)
        self.ptr = (self.ptr + 1) % self.capacity


buf = ReplayBuffer(8, 3)
buf.add(jnp.ones(3))
print(buf.obs.sum())
