# source: https://github.com/tensorflow/tensorflow/issues/8625
# framework: tf
# kind: nondiff-op-on-loss-path
# negative: the reporter's working variant — the loss compares y_true with the sigmoid probabilities, not the floored prediction
# mimics: positive/2219_tf1_floor_threshold_prediction_in_loss.py
# expect: no finding
# checked: parse-only (TF1 graph code)
import tensorflow as tf

x = tf.placeholder(tf.float32, [None, 20])
y_true = tf.placeholder(tf.float32, [None, 1])
keep_prob = tf.placeholder(tf.float32)
layer = tf.layers.dense(x, 1)
layer_dropped = tf.nn.dropout(layer, keep_prob)

y_prob = tf.sigmoid(layer_dropped)

loss_op = tf.reduce_mean(tf.abs(y_true - y_prob))
optimizer_op = tf.train.GradientDescentOptimizer(0.005).minimize(loss_op)
