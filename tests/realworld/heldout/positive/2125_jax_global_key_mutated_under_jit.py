# source: https://github.com/jax-ml/jax/pull/4312
# framework: jax
# family: F
# kind: jax-tracer-leak
# pitfall: a jitted init function splits a global PRNG key and writes it back with `global key`; under jit the assignment stores a tracer in global state, so randomness repeats and the next use raises UnexpectedTracerError
# expect: line 15 — the traced split result is written to a global variable inside a jitted function
# checked: ran, reproduces (UnexpectedTracerError)
from jax import jit
from jax import random

key = random.PRNGKey(0)

def init():
  global key
  key, subkey = random.split(key)
  return random.normal(subkey, ())

print(init())  # -1.2515389
print(init())  # -0.58665067

init = jit(init)
print(init())  # 0.48648298
print(init())  # 0.48648298  !!

print(key)
random.normal(key, ())
