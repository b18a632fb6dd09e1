# source: https://github.com/aymericdamien/TensorFlow-Examples/issues/383
# framework: tf
# kind: nan-grad-singular-point
# negative: the accepted fix — add a small constant (or clip) inside the log
# mimics: positive/2020_tf1_log_of_softmax_cross_entropy.py
# expect: no finding
# checked: parse only (TF1 graph API)
import tensorflow as tf

x = tf.placeholder(tf.float32, [None, 784])
y = tf.placeholder(tf.float32, [None, 10])

W = tf.Variable(tf.zeros([784, 10]))
b = tf.Variable(tf.zeros([10]))

pred = tf.nn.softmax(tf.matmul(x, W) + b) # Softmax

cost = tf.reduce_mean(-tf.reduce_sum(y*tf.log(tf.clip_by_value(pred,1e-10,1.0)), reduction_indices=1))
optimizer = tf.train.GradientDescentOptimizer(0.01).minimize(cost)
