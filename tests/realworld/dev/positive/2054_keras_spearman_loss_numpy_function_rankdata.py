# source: https://github.com/tensorflow/tensorflow/issues/35713
# framework: tf
# family: B
# kind: tf-tape-conversion
# pitfall: the Spearman-correlation loss ranks the targets and predictions with scipy's rankdata through tf.numpy_function; numpy_function has no gradient (and ranks are piecewise constant anyway), so fit() raises No gradients provided for any variable
# expect: line 19 — tf.numpy_function(rankdata, ...) on y_pred inside the loss: the ranks carry no gradient back to the model
# checked: ran the loss inside a GradientTape over a small Dense model, reproduces (gradients [None, None])
import tensorflow as tf
from scipy.stats import rankdata
BATCH_SIZE = 4


def custom_loss(num_targets):
    def custom_rhos(y_true, y_pred):
        rhos = []
        for ind in range(num_targets):
            a = tf.squeeze(tf.slice(y_true, [0, ind], [-1, 1]))
            b = tf.squeeze(tf.slice(y_pred, [0, ind], [-1, 1]))
            rank_a, rank_b = tf.numpy_function(rankdata, [a],  Tout=tf.float32), tf.numpy_function(rankdata, [b],  Tout=tf.float32)
            rho = 1 - 6 * tf.reduce_sum((rank_a - rank_b) ** 2) / (BATCH_SIZE ** 3 - BATCH_SIZE)
            rhos.append(rho)
        return -tf.reduce_sum(rhos)
    return custom_rhos
