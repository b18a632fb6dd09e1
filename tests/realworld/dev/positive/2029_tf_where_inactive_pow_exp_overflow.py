# source: https://github.com/tensorflow/tensorflow/issues/38349
# framework: tf
# family: E
# kind: where-nan-gradient
# pitfall: the inactive branch pow(10, exp(a)) overflows to inf; tf.where multiplies its infinite gradient by zero and the gradient with respect to a is nan
# expect: line 12 — tf.where whose unselected branch overflows to inf
# checked: ran, reproduces (gradient nan)
import tensorflow as tf

a = tf.Variable(10.)
with tf.GradientTape() as tape:
  out = tf.where(a < 15., a, tf.math.pow(10.0, tf.math.exp(a)))
  grads = tape.gradient(out, a)

print(grads)
# tf.Tensor(nan, shape=(), dtype=float32)
