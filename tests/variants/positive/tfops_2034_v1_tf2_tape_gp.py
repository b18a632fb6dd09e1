# source: variant of 2034_tf1_wgan_gp_slopes_sqrt.py
# framework: tf
# family: E
# kind: nan-grad-singular-point
# pitfall: the TF2 WGAN-GP train step takes tf.sqrt of the summed squared critic gradients; when that sum is 0 (a dead critic at the interpolate) the gradient of sqrt is infinite and the critic's update is NaN
# expect: line 26 — tf.sqrt(tf.reduce_sum(tf.square(grads), ...)) without an epsilon
# checked: ran, reproduces (with a critic whose input gradient is 0 at the interpolates, the penalty's gradient w.r.t. the critic kernel is NaN)
import numpy as np
import tensorflow as tf
from tensorflow import keras


class WGANGP(keras.Model):
    def __init__(self, critic, gp_weight=10.0):
        super().__init__()
        self.critic = critic
        self.gp_weight = gp_weight

    def gradient_penalty(self, real, fake):
        alpha = tf.random.uniform([tf.shape(real)[0], 1], 0.0, 1.0)
        interpolated = real + alpha * (fake - real)
        with tf.GradientTape() as gp_tape:
            gp_tape.watch(interpolated)
            pred = self.critic(interpolated, training=True)
        grads = gp_tape.gradient(pred, [interpolated])[0]
        norm = tf.sqrt(tf.reduce_sum(tf.square(grads), axis=[1]))
        return tf.reduce_mean((norm - 1.0) ** 2)


critic = keras.Sequential([keras.Input((4,)), keras.layers.Dense(1, kernel_initializer="zeros")])
gan = WGANGP(critic)
real = tf.random.normal((8, 4))
fake = tf.random.normal((8, 4))
with tf.GradientTape() as tape:
    gp = gan.gradient_penalty(real, fake)
print(tape.gradient(gp, critic.trainable_variables)[0].numpy().ravel())  # [nan nan nan nan]
