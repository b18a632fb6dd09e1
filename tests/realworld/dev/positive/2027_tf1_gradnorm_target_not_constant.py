# source: https://github.com/vpetren/gradnorm_tf/issues/2
# framework: tf
# family: A
# kind: missing-stop-gradient
# pitfall: the GradNorm target C_i = G_avg * r_i^alpha must be a constant, but it is built from the loss weights without stop_gradient, so minimising |G_i - C_i| also pushes the target itself
# expect: line 32 — the GradNorm target is computed from differentiable quantities and never wrapped in stop_gradient
# checked: parse only (TF1 tf.gradients / tf.div inside a function that is never called)
import tensorflow as tf


def gradnorm_loss(l1, l2, l01, l02, weights_shared, alpha):
    # L2-norm of gradients of each task loss wrt shared parameters
    G1R = tf.gradients(l1, weights_shared)
    G1 = tf.norm(G1R, ord=2)
    G2R = tf.gradients(l2, weights_shared)
    G2 = tf.norm(G2R, ord=2)

    # Gradient averaged over all tasks
    G_avg = tf.div(tf.add(G1, G2), 2)

    # Relative losses L_hat_i(t)
    l_hat_1 = tf.div(l1, l01)
    l_hat_2 = tf.div(l2, l02)
    l_hat_avg = tf.div(tf.add(l_hat_1, l_hat_2), 2)

    # Inverse training rates r_i(t)
    inv_rate_1 = tf.div(l_hat_1, l_hat_avg)
    inv_rate_2 = tf.div(l_hat_2, l_hat_avg)

    # Constant target (Eq. 1 in paper)
    a = tf.constant(alpha)
    C1 = tf.multiply(G_avg, tf.pow(inv_rate_1, a))
    C2 = tf.multiply(G_avg, tf.pow(inv_rate_2, a))

    # GradNorm loss (Eq. 2 in paper)
    loss_gradnorm = tf.add(
        tf.reduce_sum(tf.abs(tf.subtract(G1, C1))),
        tf.reduce_sum(tf.abs(tf.subtract(G2, C2))))
    return loss_gradnorm
