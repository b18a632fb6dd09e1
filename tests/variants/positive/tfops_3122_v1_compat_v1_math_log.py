# source: variant of 3122_tf1_log_of_softmax_cross_entropy.py
# framework: tf
# family: E
# kind: nan-grad-singular-point
# pitfall: a hand-written cross entropy in tf.compat.v1 graph code takes tf.math.log of a tf.nn.softmax output; once a probability underflows to 0 the log is -inf and the loss and gradients become NaN
# expect: line 24 — tf.math.log(calculated_output) of a tf.nn.softmax output
# checked: ran, reproduces (Total Error: nan after a few steps with large initial weights)
import numpy as np
import tensorflow as tf

tf1 = tf.compat.v1
tf1.disable_eager_execution()

x_input = tf1.placeholder(tf.float32, shape=(None, 10))
y_input = tf1.placeholder(tf.float32, shape=(None, 10))

weights_1 = tf1.Variable(tf1.truncated_normal([10, 10], stddev=30.0))
bias_1 = tf1.Variable(0.1)
hidden_output = tf.nn.relu(tf.matmul(x_input, weights_1) + bias_1)
weights_2 = tf1.Variable(tf1.truncated_normal([10, 10], stddev=30.0))
bias_2 = tf1.Variable(0.1)
calculated_output = tf.nn.softmax(tf.matmul(hidden_output, weights_2) + bias_2)

cross_entropy = -tf.reduce_mean(y_input * tf.math.log(calculated_output))
optimizer = tf1.train.GradientDescentOptimizer(0.5).minimize(cross_entropy)

with tf1.Session() as sess:
    sess.run(tf1.global_variables_initializer())
    x = np.random.rand(4, 10).astype(np.float32) * 10
    y = np.eye(10, dtype=np.float32)[[1, 2, 3, 4]]
    for i in range(5):
        _, error = sess.run([optimizer, cross_entropy], feed_dict={x_input: x, y_input: y})
    print("Total Error: ", error)
