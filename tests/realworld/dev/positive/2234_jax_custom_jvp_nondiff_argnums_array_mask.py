# source: https://github.com/jax-ml/jax/issues/20889
# framework: jax
# family: F
# kind: jax-tracer-leak
# pitfall: the array-valued mask is declared a nondiff_argnum of the custom_jvp; inside lax.scan under jax.grad the mask is a tracer, and a tracer in nondiff_argnums escapes its trace ("encountered an unexpected tracer"); the maintainer: don't use nondiff_argnums for array-valued arguments
# expect: line 19 — custom_jvp with nondiff_argnums naming an array argument, later called with a traced value under scan/grad
# checked: ran, reproduces (UnexpectedTracerError under jax.grad)
import jax
from jax import numpy as jnp

def func_fwd(arr, mask):
  return arr * mask

def func_jvp(mask, primals, tangents):
  def f(arr):
    return arr * mask
  return jax.jvp(f, primals, tangents)

func = jax.custom_jvp(func_fwd, nondiff_argnums=(1,))
func.defjvp(func_jvp)

def step(carry, _):
  return (func(*carry), carry[1]), None

def loss(x, mask):
  carry, _ = jax.lax.scan(step, (x, mask), [None] * 2, length = 2)
  return carry[0].sum()

x = jnp.ones(10)
mask = jnp.zeros(10, dtype=bool)


gradients = jax.grad(loss)(x, mask)
