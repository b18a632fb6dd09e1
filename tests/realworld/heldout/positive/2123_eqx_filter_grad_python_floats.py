# source: https://github.com/patrick-kidger/equinox/issues/189
# framework: jax
# family: F
# kind: eqx-filter-nonarray-leaf
# pitfall: eqx.filter_grad only differentiates floating-point JAX arrays; parameters held as Python floats (or a list of floats) are treated as static and their gradient is None
# expect: line 17 — eqx.filter_grad applied to a function of Python floats returns None gradients
# checked: ran, reproduces (gradients [None, None, None])
import equinox as eqx
import jax
import jax.numpy as jnp


@jax.grad
def jax_grad(x):
    return sum(x)**2

@eqx.filter_grad
def eqx_grad(x):
    return sum(x)**2

jax_grad([1.,2.,3.]), eqx_grad([1.,2.,3.])
