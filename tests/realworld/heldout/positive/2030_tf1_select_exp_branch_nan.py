# source: https://github.com/tensorflow/tensorflow/issues/2540
# framework: tf
# family: E
# kind: where-nan-gradient
# pitfall: tf.select picks 0 for x > 0 but still differentiates exp(x), which overflows at x = 1e10; 0 * inf makes the gradient NaN
# expect: line 10 — tf.select with an exp branch that overflows where it is not selected
# checked: parse only (TF1 graph API: tf.select, tf.placeholder)
import tensorflow as tf
x = tf.placeholder(tf.float32)
y = tf.select(x>0, 0., tf.exp(x))
z = tf.gradients(y,x)[0]

with tf.Session() as sess:
    yv,zv = sess.run([y,z],{x: 1e10})
    print(yv) # correctly outputs 0
    print(zv) # this is NaN, but should be 0
