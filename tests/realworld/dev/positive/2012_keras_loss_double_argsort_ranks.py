# source: https://github.com/keras-team/keras/issues/16663
# framework: tf
# family: E
# kind: nondiff-op-on-loss-path
# pitfall: the ranking loss compares tf.argsort(tf.argsort(y_pred)) integer ranks, which have no gradient, so fit() reports "No gradients provided for any variable"
# expect: line 20 — tf.argsort of the predictions yields integer ranks with no gradient
# checked: ran the loss under a tape, reproduces (gradient None)
import tensorflow as tf


def calculate_loss(pad_val, max_val):
    def loss(y_true, y_pred):
        pad_indices = tf.where(y_true == pad_val)
        y_true = tf.tensor_scatter_nd_update(
            y_true,
            pad_indices,
            tf.ones(tf.shape(pad_indices)[0], y_true.dtype) * max_val,
        )
        actual_orders = tf.argsort(tf.argsort(y_true))
        predicted_orders = tf.argsort(tf.argsort(y_pred))
        return tf.reduce_sum(tf.abs(actual_orders - predicted_orders))

    return loss  # change this with 'mse' and the error is gone
