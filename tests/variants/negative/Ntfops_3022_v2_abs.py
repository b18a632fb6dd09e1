# source: variant of 3022_tf_function_sqrt_of_square.py
# framework: tf
# kind: nan-grad-singular-point
# negative: the hand-written |v| is replaced by tf.abs, whose gradient at 0 is 0
# mimics: positive/3022_v2_pow_half.py
# expect: no finding
# checked: ran (gradient [[1, 0]])
import tensorflow as tf


@tf.function
def fun(v):
    v = tf.abs(v)
    return tf.reduce_sum(v, axis=-1)


x = tf.Variable([[1.0, 0.0]])
with tf.GradientTape() as tape:
    z = fun(x)
    loss = tf.nn.l2_loss(z)
tf.print(tape.gradient(loss, x))
