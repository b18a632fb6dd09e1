# source: https://github.com/tensorflow/tensorflow/issues/14894
# framework: tf
# family: B
# kind: nondiff-op-on-loss-path
# pitfall: An L2 loss between tf.histogram_fixed_width counts of two variables; the histogram op has no registered gradient, so AdamOptimizer.minimize finds no gradient for any variable.
# expect: line 12 — `tf.histogram_fixed_width(...)` on the trainable variable feeds the loss
# checked: not run (TensorFlow not installed); the issue shows "ValueError: No gradients provided for any variable, check your graph for ops that do not support gradients"
import tensorflow as tf
input1=tf.Variable([1.0,2.0,3.0,4.0,5.0,6.0],name='input1')
input2=tf.Variable([2.0,3.0,4.0,6.0,8.0,9.0],name='input2')
values_range = tf.constant([0., 10.], dtype = tf.float32)
source_hist = tf.histogram_fixed_width(tf.to_float(input1), values_range, 11)
template_hist = tf.histogram_fixed_width(tf.to_float(input2), values_range, 11)
source_hist=tf.cast(source_hist,tf.float32)
template_hist=tf.cast(template_hist,tf.float32)
loss=2*tf.nn.l2_loss(source_hist-template_hist)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    writer=tf.summary.FileWriter('./',sess.graph)
    train_step=tf.train.AdamOptimizer(0.001).minimize(loss)
    for i in range(0,10000,1):
        sess.run(train_step)
        print('input1_value',input1.eval())
        print('input2_value',input2.eval())
    writer.close()
