# source: variant of 2034_tf1_wgan_gp_slopes_sqrt.py
# framework: tf
# family: E
# kind: nan-grad-singular-point
# pitfall: the gradient-penalty flattens the critic gradient with tf.reshape and then takes tf.sqrt(tf.reduce_sum(tf.square(...), axis=1)); when the critic gradient is 0 the second-order gradient of sqrt is infinite and the critic update is NaN
# expect: line 19 — tf.sqrt of the squared-gradient sum without an epsilon
# checked: ran, reproduces (with a zero critic gradient, the penalty's gradient w.r.t. the critic kernel is NaN)
import tensorflow as tf


def gradient_penalty(critic, real, fake, lambda_gp=10.0):
    eps = tf.random.uniform([tf.shape(real)[0], 1, 1, 1], 0.0, 1.0)
    x_hat = eps * real + (1.0 - eps) * fake
    with tf.GradientTape() as t:
        t.watch(x_hat)
        d_hat = critic(x_hat)
    grad = t.gradient(d_hat, x_hat)
    grad = tf.reshape(grad, [tf.shape(grad)[0], -1])
    slope = tf.sqrt(tf.reduce_sum(tf.square(grad), axis=1))
    return lambda_gp * tf.reduce_mean(tf.square(slope - 1.0))


critic = tf.keras.Sequential([tf.keras.Input((8, 8, 1)), tf.keras.layers.Flatten(),
                              tf.keras.layers.Dense(1, kernel_initializer="zeros")])
with tf.GradientTape() as tape:
    gp = gradient_penalty(critic, tf.random.normal((2, 8, 8, 1)), tf.random.normal((2, 8, 8, 1)))
print(tape.gradient(gp, critic.trainable_variables)[0].numpy()[:3].ravel())  # [nan nan nan]
