# source: variant of 2020_tf1_log_of_softmax_cross_entropy.py
# framework: tf
# family: E
# kind: nan-grad-singular-point
# pitfall: a Keras 3 keras.losses.Loss subclass computes the cross entropy as -sum(y * ops.log(ops.softmax(logits))); once a probability underflows to 0 the log is -inf and the gradients become NaN
# expect: line 17 — ops.log of an ops.softmax output that can reach 0
# checked: ran, reproduces (NaN gradient for a large-logit input)
import numpy as np
import tensorflow as tf
import keras
from keras import ops


class SoftmaxCrossEntropy(keras.losses.Loss):
    def call(self, y_true, logits):
        probs = ops.softmax(logits, axis=-1)
        return -ops.sum(y_true * ops.log(probs), axis=-1)


loss_fn = SoftmaxCrossEntropy()
logits = tf.Variable([[200.0, 0.0, -10.0]])
with tf.GradientTape() as tape:
    loss = loss_fn(tf.constant([[0.0, 1.0, 0.0]]), logits)
print(loss.numpy(), tape.gradient(loss, logits).numpy())  # nan gradient
