# source: https://github.com/jxyyjm/tensorflow_test/issues/3
# framework: tf
# kind: nan-grad-singular-point
# negative: the accepted fix — tf.log(y + 1e-8)
# mimics: positive/2021_tf1_cross_entropy_log_y.py
# expect: no finding
# checked: parse only (TF1 graph API)
import tensorflow as tf

x = tf.placeholder(tf.float32, [None, 784])
W = tf.Variable(tf.zeros([784, 10]), name='W')
b = tf.Variable(tf.zeros([10]), name='b')
y = tf.nn.softmax(tf.matmul(x, W) + b)
y_ = tf.placeholder(tf.float32, [None, 10])
cross_entropy = -tf.reduce_sum(y_ * tf.log(y + 1e-8))
train_step = tf.train.GradientDescentOptimizer(0.01).minimize(cross_entropy)
