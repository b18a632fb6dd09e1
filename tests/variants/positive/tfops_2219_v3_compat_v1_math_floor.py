# source: variant of 2219_tf1_floor_threshold_prediction_in_loss.py
# framework: tf
# family: E
# kind: nondiff-op-on-loss-path
# pitfall: tf.compat.v1 graph code thresholds the prediction with tf.math.floor(sigmoid(...)) before the L1 loss; floor has no gradient, so minimize() finds no gradient for any variable
# expect: line 18 — tf.math.floor threshold of the model's probabilities, used as y_pred in the loss
# checked: ran, reproduces (ValueError: No gradients provided for any variable)
import tensorflow as tf

tf1 = tf.compat.v1
tf1.disable_eager_execution()

x = tf1.placeholder(tf.float32, [None, 20])
y_true = tf1.placeholder(tf.float32, [None, 1])
W = tf1.get_variable("W", [20, 1])
b = tf1.get_variable("b", [1], initializer=tf1.zeros_initializer())
y_prob = tf.sigmoid(tf.matmul(x, W) + b)
y_pred = tf.math.floor(y_prob + 0.5)
loss_op = tf.reduce_mean(tf.abs(y_true - y_pred))
optimizer_op = tf1.train.GradientDescentOptimizer(0.005).minimize(loss_op)
