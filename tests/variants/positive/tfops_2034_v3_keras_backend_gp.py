# source: variant of 2034_tf1_wgan_gp_slopes_sqrt.py
# framework: tf
# family: E
# kind: nan-grad-singular-point
# pitfall: the Keras-backend gradient-penalty loss (the improved-WGAN example style) takes K.sqrt of the sum of squared gradients; when the critic gradient is 0 the second-order gradient of sqrt is infinite and the critic update is NaN
# expect: line 16 — K.sqrt(gradients_sqr_sum) without an epsilon
# checked: ran, reproduces (with a zero critic gradient, the penalty's gradient w.r.t. the critic kernel is NaN)
import numpy as np
import tensorflow as tf
from tensorflow.keras import backend as K


def gradient_penalty_loss(gradients, gradient_penalty_weight=10.0):
    gradients_sqr = K.square(gradients)
    gradients_sqr_sum = K.sum(gradients_sqr, axis=np.arange(1, len(gradients_sqr.shape)))
    gradient_l2_norm = K.sqrt(gradients_sqr_sum)
    gradient_penalty = gradient_penalty_weight * K.square(1 - gradient_l2_norm)
    return K.mean(gradient_penalty)


critic = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(1, kernel_initializer="zeros")])
avg = tf.random.normal((8, 4))
with tf.GradientTape() as outer:
    with tf.GradientTape() as inner:
        inner.watch(avg)
        out = critic(avg)
    g = inner.gradient(out, avg)
    loss = gradient_penalty_loss(g)
print(outer.gradient(loss, critic.trainable_variables)[0].numpy().ravel())  # nan
