# source: https://github.com/tensorflow/tensorflow/issues/29942
# framework: tf
# family: B
# kind: tf-tape-scope
# pitfall: x = x0 + x1 is computed before the tape and is a plain tensor, not a variable, so the tape never watches it; tape.gradient(z, x) returns None even though z = x + y
# expect: line 21 — the gradient is requested with respect to x, a tensor computed outside the tape and never watched
# checked: parse only (TF 1.14 API: tf.get_variable and tf.Session); the TF2 equivalent (x0 = tf.Variable(...)) ran and prints None
from __future__ import absolute_import
from __future__ import division
from __future__ import print_function

import tensorflow as tf

x0 = tf.get_variable('x0', shape=(), dtype=tf.float32)
x1 = tf.constant(3.)
x = x0 + x1
# x = tf.constant(3.0)
y = tf.constant(4.0)
with tf.GradientTape() as tape:
    z = x + y
    tape_grad = tape.gradient(z, x)
    print(tape_grad)  # None
tf_grad, = tf.gradients(z, x)

with tf.Session() as sess:
    print(sess.run(tf_grad))  # 1
