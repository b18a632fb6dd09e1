# source: https://github.com/vpetren/gradnorm_tf/issues/2
# framework: tf
# kind: missing-stop-gradient
# negative: the accepted fix — C1 = tf.stop_gradient(tf.identity(C1)) (and C2), as the maintainer agreed
# mimics: positive/2027_tf1_gradnorm_target_not_constant.py
# expect: no finding
# checked: parse only (TF1 API)
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
    C1 = tf.stop_gradient(tf.identity(C1))
    C2 = tf.stop_gradient(tf.identity(C2))

    # GradNorm loss (Eq. 2 in paper)
    loss_gradnorm = tf.add(
        tf.reduce_sum(tf.abs(tf.subtract(G1, C1))),
        tf.reduce_sum(tf.abs(tf.subtract(G2, C2))))
    return loss_gradnorm
