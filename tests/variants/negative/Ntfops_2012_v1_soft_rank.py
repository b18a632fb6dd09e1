# source: variant of 2012_keras_loss_double_argsort_ranks.py
# framework: tf
# kind: nondiff-op-on-loss-path
# negative: soft ranks from pairwise sigmoids of score differences (differentiable), argsort kept only for the labels
# mimics: positive/2012_v1_loss_subclass_argsort.py
# expect: no finding
# checked: ran (fit trains)
import numpy as np
import tensorflow as tf


def soft_rank(scores, temperature=0.1):
    diff = scores[..., :, None] - scores[..., None, :]
    return tf.reduce_sum(tf.sigmoid(-diff / temperature), axis=-1) - 0.5


class RankLoss(tf.keras.losses.Loss):
    def call(self, y_true, y_pred):
        true_ranks = tf.cast(tf.argsort(tf.argsort(y_true, axis=-1), axis=-1), tf.float32)
        pred_ranks = soft_rank(y_pred)
        return tf.reduce_mean(tf.abs(true_ranks - pred_ranks), axis=-1)


model = tf.keras.Sequential([tf.keras.Input((6,)), tf.keras.layers.Dense(5)])
model.compile(optimizer="adam", loss=RankLoss())
model.fit(np.random.rand(8, 6), np.random.rand(8, 5), verbose=0)
