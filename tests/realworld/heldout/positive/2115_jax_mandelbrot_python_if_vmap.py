# source: https://github.com/jax-ml/jax/issues/24740
# framework: jax
# family: A
# kind: jax-concretization
# pitfall: a Python if on jnp.abs(z) > 2.0 inside a function transformed by vmap needs a concrete bool from a batched tracer (TracerBoolConversionError)
# expect: line 15 — Python if on a traced comparison inside the vmapped function
# checked: ran, reproduces (TracerBoolConversionError)
import jax
from jax import numpy as jnp
from jax import jit,vmap
def mandle_brot(c,max_iter):
    z= jnp.array([0.0+0.0j])
    for i in range(max_iter):
        z=z*z+c
        if(jnp.abs(z)>2.0):
            return jnp.array([i])
    return jnp.array([max_iter])
z = jnp.complex64(-0.75 + 0.1j)
mandle_brot(z,100)
Z= jnp.array([z,z,z,z])
mandle_brot_vmap = vmap(mandle_brot,in_axes=(0,None))
mandle_brot_vmap(Z,10) # error from this part
