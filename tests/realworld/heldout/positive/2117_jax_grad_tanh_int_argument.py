# source: https://github.com/jax-ml/jax/issues/2663
# framework: jax
# family: F
# kind: jax-grad-int-input
# pitfall: jax.grad is called with the Python int 2; reverse-mode differentiation requires float inputs and raises "Primal inputs to reverse-mode differentiation must be of float or complex type"
# expect: line 15 — grad evaluated at an integer argument
# checked: ran, reproduces (grad requires real- or complex-valued inputs)
import jax.numpy as np
from jax import grad
aval =2
print("aval=" +str(aval))
print("np.tanh(aval)=" + str(np.tanh(aval)))

try:
    grad(np.tanh)(aval)
except TypeError as e:
    print(e)
    print ("sadness - grad(np.tanh)(aval) failed ")
