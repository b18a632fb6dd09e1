# source: https://github.com/tensorflow/tensorflow/issues/8625
# framework: tf
# family: E
# kind: nondiff-op-on-loss-path
# pitfall: the prediction is thresholded with tf.floor(sigmoid(...)) before the L1 loss; floor has no gradient, so minimize() finds no gradient for any variable (the answer: "tf.floor doesn't have a gradient")
# expect: line 19 — tf.floor threshold of the model's probabilities, used as y_pred in the loss
# checked: parse-only (TF1 graph code; the layers above layer_dropped are not shown and are a small stand-in)
import tensorflow as tf

x = tf.placeholder(tf.float32, [None, 20])
y_true = tf.placeholder(tf.float32, [None, 1])
keep_prob = tf.placeholder(tf.float32)
layer = tf.layers.dense(x, 1)
layer_dropped = tf.nn.dropout(layer, keep_prob)

y_prob = tf.sigmoid(layer_dropped)

# Set a thresholds value
y_pred = tf.floor(y_prob)

# Loss Operation
loss_op = tf.reduce_mean(tf.abs(y_true - y_pred))
optimizer_op = tf.train.GradientDescentOptimizer(0.005).minimize(loss_op)
