# source: variant of 3106_tf1_histogram_fixed_width_l2.py
# framework: tf
# family: B
# kind: nondiff-op-on-loss-path
# pitfall: the same histogram L2 loss written against tf.compat.v1 graph mode; histogram_fixed_width has no registered gradient, so minimize() finds no gradient for any variable
# expect: line 16 — tf.histogram_fixed_width on the trainable variable feeds the loss
# checked: ran, reproduces (ValueError: No gradients provided for any variable)
import tensorflow as tf

tf1 = tf.compat.v1
tf1.disable_eager_execution()

input1 = tf1.Variable([1.0, 2.0, 3.0, 4.0, 5.0, 6.0], name="input1")
input2 = tf1.Variable([2.0, 3.0, 4.0, 6.0, 8.0, 9.0], name="input2")
values_range = tf.constant([0.0, 10.0], dtype=tf.float32)
source_hist = tf.cast(tf.histogram_fixed_width(input1, values_range, 11), tf.float32)
template_hist = tf.cast(tf.histogram_fixed_width(input2, values_range, 11), tf.float32)
loss = 2 * tf.nn.l2_loss(source_hist - template_hist)
train_step = tf1.train.AdamOptimizer(0.001).minimize(loss)
with tf1.Session() as sess:
    sess.run(tf1.global_variables_initializer())
    for i in range(10):
        sess.run(train_step)
