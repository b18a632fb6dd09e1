# source: variant of 2149_waymax_jit_range_over_state_field.py
# framework: jax
# family: A
# kind: jax-concretization
# pitfall: range(int(state["t"])) — int() of a field of the traced state dict inside a jitted function
# expect: line 15 — range(int(...)) over a field of the traced state dict
# checked: ran, reproduces (ConcretizationTypeError)
import jax
import jax.numpy as jnp


@jax.jit
def advance(state):
    x = state["x"]
    for _ in range(int(state["t"])):
        x = jnp.tanh(x)
    return {"x": x, "t": state["t"]}


advance({"x": jnp.ones(3), "t": jnp.array(4)})
