# source: https://github.com/aymericdamien/TensorFlow-Examples/issues/383
# framework: tf
# family: E
# kind: nan-grad-singular-point
# pitfall: the cross-entropy is written as y * tf.log(pred) on softmax probabilities; once a probability underflows to 0 the log is -inf and loss and gradients become NaN
# expect: line 18 — tf.log of a softmax output that can reach 0
# checked: parse only (TF1 graph API: tf.placeholder)
import tensorflow as tf

x = tf.placeholder(tf.float32, [None, 784])
y = tf.placeholder(tf.float32, [None, 10])

W = tf.Variable(tf.zeros([784, 10]))
b = tf.Variable(tf.zeros([10]))

pred = tf.nn.softmax(tf.matmul(x, W) + b) # Softmax

cost = tf.reduce_mean(-tf.reduce_sum(y*tf.log(pred), reduction_indices=1))
optimizer = tf.train.GradientDescentOptimizer(0.01).minimize(cost)
