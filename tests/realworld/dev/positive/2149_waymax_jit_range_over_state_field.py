# source: https://github.com/waymo-research/waymax/issues/14
# framework: jax
# family: A
# kind: jax-concretization
# pitfall: the benchmark suggested in the thread jits a function that loops with range(state.remaining_timesteps); the state is a jit argument, so remaining_timesteps is a traced int32 and range raises TracerIntegerConversionError (as a later commenter reports)
# expect: line 24 — range() over a field of the traced state pytree inside @jax.jit
# checked: parse only (needs waymax and the Waymo Open Motion dataset); the same pattern is checked in 2148
import dataclasses
import time

import jax
from waymax import config as _config
from waymax import dataloader
from waymax import datatypes

config = dataclasses.replace(_config.WOD_1_1_0_VALIDATION, max_num_objects=32)
data_iter = dataloader.simulator_state_generator(config=config)

scenario = next(data_iter)
start_time = time.time()

@jax.jit
def benchmark(state):
  for _ in range(state.remaining_timesteps):
        state = datatypes.update_state_by_log(state, num_steps=1)
  return state

while scenario:
    state = scenario
    state = benchmark(state)
    print("remaining_timesteps: ", scenario.remaining_timesteps)
    scenario = next(data_iter)
    end_time = time.time()
    print("time cost: ", end_time - start_time)
    start_time = end_time
