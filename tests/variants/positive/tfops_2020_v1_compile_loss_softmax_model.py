# source: variant of 2020_tf1_log_of_softmax_cross_entropy.py
# framework: tf
# family: E
# kind: nan-grad-singular-point
# pitfall: a custom cross-entropy passed to model.compile takes tf.math.log of the softmax output layer's probabilities; once a probability underflows to 0 the log is -inf and the loss and gradients become NaN
# expect: line 13 — tf.math.log(y_pred) where y_pred is the softmax output of the model
# checked: ran, reproduces (with a large-logit input the loss is nan and the kernel gradient is all NaN)
import numpy as np
import tensorflow as tf


def cross_entropy(y_true, y_pred):
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
print(loss.numpy(), np.isnan(tape.gradient(loss, model.layers[0].kernel).numpy()).any())  # nan True
