# source: https://github.com/tensorflow/tensorflow/issues/12071
# framework: tf
# family: E
# kind: nan-grad-singular-point
# pitfall: tf.norm's gradient is x / ||x||; for the all-zero row it is 0/0 = nan, and for a row whose square underflows (1e-19) it is inf, so any loss built on the norm gets nan/inf gradients
# expect: line 13 — tf.norm (Euclidean) evaluated on rows that are exactly zero or underflow when squared; its gradient is nan/inf there
# checked: parse only for the TF1 Session code; the TF2 eager equivalent ran on tensorflow 2.21 and still gives gradients [1, nan, 1, inf]
import numpy as np
import tensorflow as tf
print(tf.GIT_VERSION, "  ", tf.VERSION) #v1.2.0-5-g435cdfc    1.2.1

X = tf.placeholder(tf.float32, shape=(4,None))
Z = tf.norm(X, ord='euclidean', axis=1, name='logit')
var_grad = tf.gradients(Z, [X])

with tf.Session() as sess:
    X_ = np.array([
        [1],  # Grad OK
        [0],  # Grad NaN
        [1e-16],  # Grad OK
        [1e-19] #Grad Inf
    ], dtype=np.float32)
    sess.run(tf.global_variables_initializer())
    print(sess.run((Z, var_grad), feed_dict={X: X_}))
