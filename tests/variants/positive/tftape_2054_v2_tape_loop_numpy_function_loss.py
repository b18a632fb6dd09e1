# source: variant of 2054_keras_spearman_loss_numpy_function_rankdata.py
# framework: tf
# family: B
# kind: tf-tape-conversion
# pitfall: a custom training loop uses a ranking loss that sorts the predictions with np.argsort through tf.numpy_function; numpy_function has no gradient, so every gradient is None
# expect: line 18 — tf.numpy_function(_ranks, [y_pred], ...) inside the loss: no gradient reaches the model
# checked: ran, reproduces (ValueError: No gradients provided for any variable)
import numpy as np
import tensorflow as tf


def _ranks(a):
    return np.argsort(np.argsort(a)).astype(np.float32)


def rank_loss(y_true, y_pred):
    r_true = tf.numpy_function(_ranks, [y_true], tf.float32)
    r_pred = tf.numpy_function(_ranks, [y_pred], tf.float32)
    return tf.reduce_mean(tf.square(r_true - r_pred))


model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(1)])
optimizer = tf.keras.optimizers.Adam(1e-3)
x, y = tf.random.normal((8, 3)), tf.random.normal((8,))
with tf.GradientTape() as tape:
    pred = tf.squeeze(model(x, training=True), -1)
    loss = rank_loss(y, pred)
grads = tape.gradient(loss, model.trainable_variables)
optimizer.apply_gradients(zip(grads, model.trainable_variables))
