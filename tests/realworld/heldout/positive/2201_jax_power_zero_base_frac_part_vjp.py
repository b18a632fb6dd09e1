# source: https://github.com/jax-ml/jax/issues/12409
# framework: jax
# family: E
# kind: nan-grad-singular-point
# pitfall: jnp.power(value - jnp.floor(value), 0) at an integer value is 0 ** 0; its derivative 0 * base ** -1 is 0 * inf, so the VJP is NaN (the maintainer: NaN is the mathematically expected result)
# expect: line 13 — power of a base that is exactly 0 at integer inputs (value - floor(value)), differentiated by jax.vjp
# checked: ran on jax 0.10.2: no longer reproduces there (the gradient is 0; jax special-cases an integer exponent of 0 now); the thread reports [nan] on jax 0.3.17
import jax
import jax.numpy as jnp


def fun(value):
    result = jnp.power(value - jnp.floor(value), jnp.array([0]))
    return result


vjp_value, vjp_grad = jax.vjp(fun, jnp.array([1.]))
print(vjp_value, vjp_grad(jnp.ones(vjp_value.shape))[0])
