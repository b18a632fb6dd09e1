# source: variant of 3022_tf_function_sqrt_of_square.py
# framework: tf
# family: E
# kind: nan-grad-singular-point
# pitfall: a hand-written |v| as (v ** 2) ** 0.5 inside a tf.function; the power 0.5 has an infinite derivative at 0, so the gradient w.r.t. the 0.0 entry is NaN
# expect: line 14 — `v ** 0.5` with v == 0
# checked: ran, reproduces (gradient [[1, nan]])
import tensorflow as tf


@tf.function
def fun(v):
    v = v ** 2
    v = v ** 0.5
    return tf.reduce_sum(v, axis=-1)


x = tf.Variable([[1.0, 0.0]])
with tf.GradientTape() as tape:
    z = fun(x)
    loss = tf.nn.l2_loss(z)
tf.print(tape.gradient(loss, x))
