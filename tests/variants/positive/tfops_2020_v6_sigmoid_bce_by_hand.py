# source: variant of 2020_tf1_log_of_softmax_cross_entropy.py
# framework: tf
# family: E
# kind: nan-grad-singular-point
# pitfall: a hand-written binary cross entropy takes tf.math.log(p) and tf.math.log(1 - p) of sigmoid probabilities; once a probability saturates to 0 or 1 in float32 the log is -inf and the loss and gradients become NaN
# expect: line 13 — tf.math.log of sigmoid probabilities that can reach 0 / 1
# checked: ran, reproduces (loss inf/nan and NaN gradient for a saturated logit)
import tensorflow as tf


def bce(y_true, logits):
    p = tf.sigmoid(logits)
    return -tf.reduce_mean(y_true * tf.math.log(p) + (1.0 - y_true) * tf.math.log(1.0 - p))


logits = tf.Variable([[40.0, -3.0]])
with tf.GradientTape() as tape:
    loss = bce(tf.constant([[0.0, 1.0]]), logits)
print(loss.numpy(), tape.gradient(loss, logits).numpy())  # inf, nan
