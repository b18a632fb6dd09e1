# source: https://github.com/tensorflow/tensorflow/issues/2403
# framework: tf
# family: E
# kind: nan-grad-singular-point
# pitfall: a hand-written cross entropy takes tf.log of a softmax output; once a softmax probability underflows to 0 the log is -inf and the loss and gradients become NaN.
# expect: line 46 — tf.log(calculated_output) of a tf.nn.softmax output
# checked: not run (TF not installed); the thread shows "('Total Error: ', nan)"
import tensorflow as tf
import numpy as np
import random

# verbatim from the issue; the post lost its indentation in markdown, restored here
#input data

lorange= 1
hirange= 10
amplitude= random.uniform(-10,10)
t= 10
random.seed()
tau=random.uniform(lorange,hirange)

def generate_data(randomsignal):
      x= np.arange(t)
      y= amplitude*np.exp(-x/tau)
      return x, y
#tensors for input data

x_input= tf.placeholder(tf.float32, shape=(10,))# t=10
y_input= tf.placeholder(tf.float32, shape=(10,))

#use 10 neurons-- just one layer for now

weights_1= tf.Variable(tf.truncated_normal([10,10], stddev= .1))
bias_1= tf.Variable(.1)

#hidden output
hidden_output= tf.nn.relu(tf.matmul(tf.reshape(x_input,[1,10]), weights_1) + bias_1)

weights_2 = tf.Variable(tf.truncated_normal([10, 10], stddev=.1))
bias_2= tf.Variable(.1)

calculated_output = tf.nn.softmax(tf.matmul(hidden_output, weights_2) +

bias_2)

cross_entropy = tf.reduce_mean(y_input * tf.log(calculated_output))

optimizer = tf.train.GradientDescentOptimizer(.5).minimize(cross_entropy)

sess = tf.Session()
#session
# The stored excerpt is cut at "sess.ru"; the session loop below is RECONSTRUCTED
# (initialise, feed generated data, print the error the reporter quotes).
sess.run(tf.initialize_all_variables())
for i in range(1000):
    x, y = generate_data(i)
    _, error = sess.run([optimizer, cross_entropy], feed_dict={x_input: x, y_input: y})
print('Total Error: ', error)
