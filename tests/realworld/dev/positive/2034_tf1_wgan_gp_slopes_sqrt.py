# source: https://github.com/tdeboissiere/DeepLearningImplementations/issues/68
# framework: tf
# family: E
# kind: nan-grad-singular-point
# pitfall: the gradient-penalty slope is tf.sqrt of a sum of squared critic gradients; when that sum is 0 the second-order gradient of sqrt is infinite and the summaries fill with NaN
# expect: line 16 — tf.sqrt of the squared-gradient sum without an epsilon
# checked: parse only (TF1 tf.gradients / tf.random_uniform)
import tensorflow as tf


def gradient_penalty(D, X_real, X_fake, batch_size, red_idx, lambda_gp=10.0):
    epsilon = tf.random_uniform(shape=[batch_size, 1, 1, 1], minval=0., maxval=1.)
    X_hat = X_real + epsilon * (X_fake - X_real)
    D_X_hat = D(X_hat, reuse=True)
    grad_D_X_hat = tf.gradients(D_X_hat, [X_hat])[0]
    slopes = tf.sqrt(tf.reduce_sum(tf.square(grad_D_X_hat), reduction_indices=red_idx))
    gradient_penalty = tf.reduce_mean((slopes - 1.) ** 2)
    return lambda_gp * gradient_penalty
