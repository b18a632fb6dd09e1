# source: https://github.com/jxyyjm/tensorflow_test/issues/3
# framework: tf
# family: E
# kind: nan-grad-singular-point
# pitfall: -tf.reduce_sum(y_ * tf.log(y)) takes the log of softmax probabilities; a zero probability makes the loss and its gradient NaN
# expect: line 15 — tf.log(y) of a softmax output without an epsilon
# checked: parse only (TF1 graph API: tf.placeholder)
import tensorflow as tf

x = tf.placeholder(tf.float32, [None, 784])
W = tf.Variable(tf.zeros([784, 10]), name='W')
b = tf.Variable(tf.zeros([10]), name='b')
y = tf.nn.softmax(tf.matmul(x, W) + b)
y_ = tf.placeholder(tf.float32, [None, 10])
cross_entropy = -tf.reduce_sum(y_ * tf.log(y))
train_step = tf.train.GradientDescentOptimizer(0.01).minimize(cross_entropy)
