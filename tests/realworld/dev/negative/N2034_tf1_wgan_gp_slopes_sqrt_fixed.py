# source: https://github.com/tdeboissiere/DeepLearningImplementations/issues/68
# framework: tf
# kind: nan-grad-singular-point
# negative: the accepted fix — tf.sqrt(1e-8 + tf.reduce_sum(...))
# mimics: positive/2034_tf1_wgan_gp_slopes_sqrt.py
# expect: no finding
# checked: parse only (TF1 API)
import tensorflow as tf


def gradient_penalty(D, X_real, X_fake, batch_size, red_idx, lambda_gp=10.0):
    epsilon = tf.random_uniform(shape=[batch_size, 1, 1, 1], minval=0., maxval=1.)
    X_hat = X_real + epsilon * (X_fake - X_real)
    D_X_hat = D(X_hat, reuse=True)
    grad_D_X_hat = tf.gradients(D_X_hat, [X_hat])[0]
    slopes = tf.sqrt( 1e-8 + tf.reduce_sum(tf.square(grad_D_X_hat), reduction_indices=red_idx))
    gradient_penalty = tf.reduce_mean((slopes - 1.) ** 2)
    return lambda_gp * gradient_penalty
