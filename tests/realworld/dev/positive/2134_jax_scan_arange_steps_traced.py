# source: https://github.com/jax-ml/jax/issues/5017
# framework: jax
# family: A
# kind: jax-concretization
# pitfall: the fixed-step ODE solver computes the step count with jnp.array(...).astype(int) and passes jnp.arange(steps) to lax.scan; under jit the count is a tracer, so jnp.arange raises ConcretizationTypeError
# expect: line 24 — jnp.arange(steps) with steps computed by jnp inside the jitted function
# checked: ran, reproduces (works eagerly, ConcretizationTypeError under jax.jit(sim_function))
import jax
import jax.numpy as jnp
from jax.lax import scan
import numpy as np


def jaxfixedsolve(rhs, t_span, y0, max_dt):

    delta_t = t_span[1] - t_span[0]
    steps = jnp.array(delta_t // max_dt).astype(int)
    h = delta_t / steps

    def scan_func(carry, step):
        eval_time = t_span[0] + (h * step)
        return (carry + rhs(eval_time, carry)*h, None)

    yf = scan(scan_func, y0, jnp.arange(steps))[0]
    return yf


def sim_function(coeff):

    def rhs(t, y):
        return coeff * y

    return jaxfixedsolve(rhs, t_span=[0, 0.5], y0=jnp.array(1., dtype=float), max_dt = 0.1)


jax.jit(sim_function)(1.0)
