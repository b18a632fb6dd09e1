# source: variant of 2034_tf1_wgan_gp_slopes_sqrt.py
# framework: tf
# family: E
# kind: nan-grad-singular-point
# pitfall: a Keras 3 WGAN-GP (JAX backend) takes ops.norm of the critic's input gradient as the slope; the norm's gradient g/||g|| is NaN where the critic gradient is exactly 0, so the critic update becomes NaN
# expect: line 28 — ops.norm(grads, axis=-1) of the critic gradient without an epsilon
# checked: ran with KERAS_BACKEND=jax, reproduces (penalty gradient w.r.t. the critic kernel is NaN for a zero critic)
import os

os.environ["KERAS_BACKEND"] = "jax"
import jax
import jax.numpy as jnp
import keras
from keras import ops

critic = keras.Sequential([keras.Input((4,)), keras.layers.Dense(1, kernel_initializer="zeros")])


def gradient_penalty(params, real, fake):
    alpha = 0.5
    mixed = alpha * real + (1.0 - alpha) * fake

    def score(x):
        out, _ = critic.stateless_call(params, [], x)
        return ops.sum(out)

    grads = jax.grad(score)(mixed)
    slopes = ops.norm(grads, axis=-1)
    return ops.mean(ops.square(slopes - 1.0))


params = [v.value for v in critic.trainable_variables]
print(jax.grad(gradient_penalty)(params, jnp.ones((8, 4)), jnp.zeros((8, 4)))[0].ravel())  # nan
