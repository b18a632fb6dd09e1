# source: variant of 2034_tf1_wgan_gp_slopes_sqrt.py
# framework: tf
# family: E
# kind: nan-grad-singular-point
# pitfall: the WGAN-GP slope is tf.math.reduce_euclidean_norm of the critic's input gradient; its gradient is g/||g||, NaN when the critic gradient is exactly 0, so the critic update becomes NaN
# expect: line 23 — tf.math.reduce_euclidean_norm of the critic gradient without an epsilon
# checked: ran, reproduces (with a zero critic gradient, the penalty's gradient w.r.t. the critic kernel is NaN)
import tensorflow as tf


class WGANGP(tf.keras.Model):
    def __init__(self, critic):
        super().__init__()
        self.critic = critic

    def penalty(self, real, fake):
        alpha = tf.random.uniform([tf.shape(real)[0], 1], 0.0, 1.0)
        mixed = alpha * real + (1.0 - alpha) * fake
        with tf.GradientTape() as gp_tape:
            gp_tape.watch(mixed)
            score = self.critic(mixed, training=True)
        grads = gp_tape.gradient(score, mixed)
        slopes = tf.math.reduce_euclidean_norm(grads, axis=1)
        return tf.reduce_mean((slopes - 1.0) ** 2)


critic = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(1, kernel_initializer="zeros")])
gan = WGANGP(critic)
with tf.GradientTape() as tape:
    gp = gan.penalty(tf.random.normal((8, 4)), tf.random.normal((8, 4)))
print(tape.gradient(gp, critic.trainable_variables)[0].numpy().ravel())  # nan
