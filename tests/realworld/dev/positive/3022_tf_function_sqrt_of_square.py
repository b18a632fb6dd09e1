# source: https://github.com/tensorflow/tensorflow/issues/42602
# framework: tf
# family: E
# kind: nan-grad-singular-point
# pitfall: v = tf.sqrt(tf.square(v)) (a hand-written |v|) has sqrt' = inf at v == 0; under GradientTape the gradient w.r.t. the 0.0 entry of x is NaN (inf * 0).
# expect: line 14 — tf.sqrt(v) with v == 0
# checked: not run (tensorflow not installed); the issue shows the refactored (tf.function) version printing NaN gradients
import tensorflow as tf


@tf.function # Happens in both eager and graph
def fun(v):
    v = tf.square(v)
    v = tf.sqrt(v)
    return tf.reduce_sum(v, axis=-1)


x = tf.Variable([[1.0, 0.0]])
with tf.GradientTape() as tape:
    z = fun(x)
    loss = tf.nn.l2_loss(z)

tf.print(z, loss)
tf.print(tape.gradient(loss, x))
