# source: variant of 2034_tf1_wgan_gp_slopes_sqrt.py
# framework: tf
# kind: nan-grad-singular-point
# negative: the accepted fix — an epsilon inside the sqrt of the squared-gradient sum
# mimics: positive/2034_v1_tf2_tape_gp.py
# expect: no finding
# checked: ran (finite penalty gradient with a zero critic gradient)
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
        norm = tf.sqrt(tf.reduce_sum(tf.square(grads), axis=[1]) + 1e-12)
        return tf.reduce_mean((norm - 1.0) ** 2)


critic = keras.Sequential([keras.Input((4,)), keras.layers.Dense(1, kernel_initializer="zeros")])
gan = WGANGP(critic)
with tf.GradientTape() as tape:
    gp = gan.gradient_penalty(tf.random.normal((8, 4)), tf.random.normal((8, 4)))
print(tape.gradient(gp, critic.trainable_variables)[0].numpy().ravel())
