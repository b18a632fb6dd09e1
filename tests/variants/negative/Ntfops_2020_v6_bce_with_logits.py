# source: variant of 2020_tf1_log_of_softmax_cross_entropy.py
# framework: tf
# kind: nan-grad-singular-point
# negative: the binary cross entropy is computed from the logits with tf.nn.sigmoid_cross_entropy_with_logits
# mimics: positive/2020_v6_sigmoid_bce_by_hand.py
# expect: no finding
# checked: ran (finite loss and gradient for the saturated logit)
import tensorflow as tf


def bce(y_true, logits):
    return tf.reduce_mean(tf.nn.sigmoid_cross_entropy_with_logits(labels=y_true, logits=logits))


logits = tf.Variable([[40.0, -3.0]])
with tf.GradientTape() as tape:
    loss = bce(tf.constant([[0.0, 1.0]]), logits)
print(loss.numpy(), tape.gradient(loss, logits).numpy())
