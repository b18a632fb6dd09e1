# source: https://github.com/jax-ml/jax/issues/5208
# framework: jax
# family: A
# kind: jax-concretization
# pitfall: the number of grid points is computed with jnp.maximum/jnp.abs inside a jitted function, so it is a tracer and jnp.linspace raises ConcretizationTypeError
# expect: line 17 — jnp.linspace needs a concrete num, but num_steps comes from jnp operations staged by jit
# checked: ran, reproduces (ConcretizationTypeError in grid2)
import jax
import jax.numpy as jnp


@jax.jit
def grid2():
    print('re-compiling ...')
    t0, tf, dt = 0., 1., 1e-1
    num_steps = jnp.maximum(jnp.abs((tf - t0)/dt), 1)
    ts = jnp.linspace(t0, tf, num_steps + 1)
    return ts

print(grid2())
