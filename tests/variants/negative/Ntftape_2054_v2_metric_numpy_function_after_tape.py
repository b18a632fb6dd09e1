# source: fixed twin of 2054_v2_tape_loop_numpy_function_loss.py
# framework: tf
# family: B
# kind: tf-tape-conversion
# pitfall: none (the rank correlation via numpy_function is only a logged metric, computed after the tape; the loss is MSE)
# checked: ran, gradients present
import numpy as np
import tensorflow as tf


def _ranks(a):
    return np.argsort(np.argsort(a)).astype(np.float32)


def spearman(y_true, y_pred):
    r_true = tf.numpy_function(_ranks, [y_true], tf.float32)
    r_pred = tf.numpy_function(_ranks, [y_pred], tf.float32)
    n = tf.cast(tf.size(y_pred), tf.float32)
    return 1.0 - 6.0 * tf.reduce_sum(tf.square(r_true - r_pred)) / (n ** 3 - n)


model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(1)])
optimizer = tf.keras.optimizers.Adam(1e-3)
x, y = tf.random.normal((8, 3)), tf.random.normal((8,))
with tf.GradientTape() as tape:
    pred = tf.squeeze(model(x, training=True), -1)
    loss = tf.reduce_mean(tf.square(y - pred))
grads = tape.gradient(loss, model.trainable_variables)
optimizer.apply_gradients(zip(grads, model.trainable_variables))
print(float(spearman(y, pred)))
