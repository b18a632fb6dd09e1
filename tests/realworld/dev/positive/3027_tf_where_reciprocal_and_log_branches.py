# source: https://github.com/tensorflow/tensorflow/issues/20355
# framework: tf
# family: E
# kind: where-nan-gradient
# pitfall: transfer = tf.where(x < 0, 1./(1.-x), tf.log(x+1)) evaluates both branches: at x = 1 the unselected 1/(1-x) is inf, at x = -1 the unselected log(x+1) is -inf, and their infinite derivatives times where's 0 cotangent give NaN gradients.
# expect: line 11 — tf.where(x < 0, 1./(1.-x), tf.log(x+1)) with an infinite unselected branch
# checked: not run (tensorflow not installed; TF1 graph-mode code); the issue prints [1, 2, nan] and [-1, 0.5, nan]
from __future__ import absolute_import, division, print_function
import tensorflow as tf

transfer = lambda x: tf.where(x < 0, 1./(1.-x), tf.log(x+1))


def f(x):
    xt = tf.placeholder(tf.float32, shape=(1,))
    yt  = transfer(xt)
    dydx = tf.gradients(ys=yt, xs=xt)[0]
    with tf.Session() as sess:
        rval = sess.run([xt, yt, dydx], feed_dict={xt:[x]})
    return rval


print(f(1.))  # [1, 2, nan]
print(f(-1.)) # [-1, 0.5, nan]
print(f(0.)) # [0, 0, 1] (no nan here, interestingly)
