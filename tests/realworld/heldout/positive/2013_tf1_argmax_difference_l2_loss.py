# source: https://github.com/tensorflow/tensorflow/issues/1511
# framework: tf
# family: E
# kind: nondiff-op-on-loss-path
# pitfall: the loss is the squared difference of arg_max indices cast to float; arg_max has no gradient, so minimize() finds no gradient for the softmax weights
# expect: line 18 — arg_max of the logits, cast to float, as the loss input
# checked: parse only (TF1 graph API)
import tensorflow as tf

SIZE_LSTM_UNITS = 64
NUM_CLASSES = 10
LEARNING_RATE = 0.01

def build(out, train_labels):
    softmax_w = tf.Variable(tf.zeros([SIZE_LSTM_UNITS, NUM_CLASSES], dtype=tf.float32))
    softmax_b = tf.Variable(tf.zeros([NUM_CLASSES], dtype=tf.float32))
    logits = tf.matmul(out, softmax_w) + softmax_b
    predDiff = tf.cast(tf.sub(tf.arg_max(logits, 1), tf.arg_max(train_labels, 1)), tf.float32)
    l2loss = tf.nn.l2_loss(predDiff)
    trainStep = tf.train.GradientDescentOptimizer(LEARNING_RATE).minimize(l2loss)
    return trainStep
