# source: variant of 2012_keras_loss_double_argsort_ranks.py
# framework: tf
# family: E
# kind: nondiff-op-on-loss-path
# pitfall: a listwise loss compares the integer positions returned by tf.math.top_k(y_pred, k).indices with those of the labels; indices have no gradient, so fit() finds no gradient for any variable
# expect: line 15 — top_k(...).indices of the predictions used as the loss input
# checked: ran, reproduces (ValueError: No gradients provided for any variable)
import numpy as np
import tensorflow as tf


def topk_order_loss(k):
    def loss(y_true, y_pred):
        true_idx = tf.math.top_k(y_true, k=k).indices
        pred_idx = tf.math.top_k(y_pred, k=k).indices
        return tf.reduce_mean(tf.cast(tf.abs(true_idx - pred_idx), tf.float32), axis=-1)
    return loss


model = tf.keras.Sequential([tf.keras.Input((6,)), tf.keras.layers.Dense(5)])
model.compile(optimizer="adam", loss=topk_order_loss(3))
model.fit(np.random.rand(8, 6), np.random.rand(8, 5), verbose=0)
