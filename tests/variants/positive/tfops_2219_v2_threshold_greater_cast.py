# source: variant of 2219_tf1_floor_threshold_prediction_in_loss.py
# framework: tf
# family: E
# kind: nondiff-op-on-loss-path
# pitfall: the loss thresholds the predicted probabilities with tf.cast(tf.greater(y_prob, 0.5), tf.float32) before the L1 loss; the comparison has no gradient, so fit() finds no gradient for any variable
# expect: line 13 — the tf.greater threshold of the model's probabilities, used as y_pred in the loss
# checked: ran, reproduces (ValueError: No gradients provided for any variable)
import numpy as np
import tensorflow as tf


def thresholded_l1(y_true, y_prob):
    y_pred = tf.cast(tf.greater(y_prob, 0.5), tf.float32)
    return tf.reduce_mean(tf.abs(y_true - y_pred))


model = tf.keras.Sequential([tf.keras.Input((20,)), tf.keras.layers.Dense(1, activation="sigmoid")])
model.compile(optimizer="sgd", loss=thresholded_l1)
model.fit(np.random.rand(8, 20), np.ones((8, 1)), verbose=0)
