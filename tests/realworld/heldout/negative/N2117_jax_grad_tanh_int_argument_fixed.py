# source: https://github.com/jax-ml/jax/issues/2663
# framework: jax
# kind: jax-grad-int-input
# negative: the accepted fix — pass a float (aval = 2.0)
# mimics: positive/2117_jax_grad_tanh_int_argument.py
# expect: no finding
# checked: ran, gradient 0.0707
import jax.numpy as np
from jax import grad
aval = 2.0
print("aval=" +str(aval))
print("np.tanh(aval)=" + str(np.tanh(aval)))
print(grad(np.tanh)(aval))
