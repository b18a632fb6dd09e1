# source: variant of 2020_tf1_log_of_softmax_cross_entropy.py
# framework: tf
# family: E
# kind: nan-grad-singular-point
# pitfall: a Keras-backend loss takes K.log(K.softmax(logits)) for the cross entropy; once a softmax probability underflows to 0 the log is -inf and loss and gradients become NaN
# expect: line 15 — K.log of a K.softmax output that can reach 0
# checked: ran, reproduces (loss nan and NaN gradient for a large-logit input)
import numpy as np
import tensorflow as tf
from tensorflow.keras import backend as K


def softmax_xent_from_logits(y_true, logits):
    probs = K.softmax(logits)
    return -K.mean(K.sum(y_true * K.log(probs), axis=-1))


logits = tf.Variable([[1000.0, 0.0, -10.0]])
with tf.GradientTape() as tape:
    loss = softmax_xent_from_logits(tf.constant([[0.0, 1.0, 0.0]]), logits)
print(loss.numpy(), tape.gradient(loss, logits).numpy())  # inf/nan
