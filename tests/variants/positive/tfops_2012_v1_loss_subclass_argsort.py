# source: variant of 2012_keras_loss_double_argsort_ranks.py
# framework: tf
# family: E
# kind: nondiff-op-on-loss-path
# pitfall: a keras.losses.Loss subclass compares rank vectors obtained with tf.argsort(tf.argsort(y_pred)); argsort returns integer indices with no gradient, so fit() finds no gradient for any variable
# expect: line 15 — tf.argsort of the predictions yields integer ranks with no gradient
# checked: ran, reproduces (ValueError: No gradients provided for any variable)
import numpy as np
import tensorflow as tf


class RankLoss(tf.keras.losses.Loss):
    def call(self, y_true, y_pred):
        true_ranks = tf.cast(tf.argsort(tf.argsort(y_true, axis=-1), axis=-1), tf.float32)
        pred_ranks = tf.cast(tf.argsort(tf.argsort(y_pred, axis=-1), axis=-1), tf.float32)
        return tf.reduce_mean(tf.abs(true_ranks - pred_ranks), axis=-1)


model = tf.keras.Sequential([tf.keras.Input((6,)), tf.keras.layers.Dense(5)])
model.compile(optimizer="adam", loss=RankLoss())
model.fit(np.random.rand(8, 6), np.random.rand(8, 5), verbose=0)
