# source: variant of 2020_tf1_log_of_softmax_cross_entropy.py
# framework: tf
# kind: nan-grad-singular-point
# negative: the log of the softmax-layer output is clipped away from 0 (what keras.losses.categorical_crossentropy does)
# mimics: positive/2020_v1_compile_loss_softmax_model.py
# expect: no finding
# checked: ran (finite loss and gradient for the large-logit input)
import numpy as np
import tensorflow as tf


def cross_entropy(y_true, y_pred, eps=1e-7):
    y_pred = tf.clip_by_value(y_pred, eps, 1.0 - eps)
    return tf.reduce_mean(-tf.reduce_sum(y_true * tf.math.log(y_pred), axis=-1))


model = tf.keras.Sequential([
    tf.keras.Input(shape=(784,)),
    tf.keras.layers.Dense(10, activation="softmax"),
])
model.compile(optimizer=tf.keras.optimizers.SGD(0.01), loss=cross_entropy)

x = np.zeros((1, 784), np.float32)
x[0, 0] = 100.0
y = np.eye(10, dtype=np.float32)[[3]]
model.layers[0].kernel.assign(np.eye(784, 10, dtype=np.float32) * 10.0)
with tf.GradientTape() as tape:
    loss = cross_entropy(y, model(x))
print(loss.numpy(), np.isnan(tape.gradient(loss, model.layers[0].kernel).numpy()).any())
