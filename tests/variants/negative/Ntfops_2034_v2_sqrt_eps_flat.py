# source: variant of 2034_tf1_wgan_gp_slopes_sqrt.py
# framework: tf
# kind: nan-grad-singular-point
# negative: tf.norm replaced by sqrt(sum(g**2) + eps) on the flattened critic gradient
# mimics: positive/2034_v2_tf_norm.py
# expect: no finding
# checked: ran (finite penalty gradient with a zero critic gradient)
import tensorflow as tf


def gradient_penalty(critic, real, fake, lambda_gp=10.0):
    eps = tf.random.uniform([tf.shape(real)[0], 1, 1, 1], 0.0, 1.0)
    x_hat = eps * real + (1.0 - eps) * fake
    with tf.GradientTape() as t:
        t.watch(x_hat)
        d_hat = critic(x_hat)
    grad = t.gradient(d_hat, x_hat)
    grad = tf.reshape(grad, [tf.shape(grad)[0], -1])
    slope = tf.sqrt(tf.reduce_sum(grad ** 2, axis=1) + 1e-10)
    return lambda_gp * tf.reduce_mean(tf.square(slope - 1.0))


critic = tf.keras.Sequential([tf.keras.Input((8, 8, 1)), tf.keras.layers.Flatten(),
                              tf.keras.layers.Dense(1, kernel_initializer="zeros")])
with tf.GradientTape() as tape:
    gp = gradient_penalty(critic, tf.random.normal((2, 8, 8, 1)), tf.random.normal((2, 8, 8, 1)))
print(tape.gradient(gp, critic.trainable_variables)[0].numpy()[:3].ravel())
