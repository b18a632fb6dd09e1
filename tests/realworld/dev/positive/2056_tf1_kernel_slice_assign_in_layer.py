# source: https://github.com/tensorflow/tensorflow/issues/15695
# framework: tf
# family: B
# kind: tf-variable-assign-in-tape
# pitfall: the conv kernel variable is replaced by the result of kernel[...].assign(zeros) and that assign op feeds the convolution; assign has no gradient, so training raises LookupError: No gradient defined for operation
# expect: line 17 — the layer uses the output of a variable slice assign as its kernel; assignment ops are not differentiable
# checked: parse only (TF1 graph API: tf.truncated_normal, tf.name_scope layers built for a Session)
import tensorflow as tf


class VGG:
    def convlayers(self, images):
        self.parameters = []
        with tf.name_scope('conv1_1') as scope:
            kernel = tf.Variable(tf.truncated_normal([3, 3, 3, 64], dtype=tf.float32,
                                                     stddev=1e-1), name='weights')
            kernel = kernel[:, :, : 0:32].assign(tf.zeros([3, 3, 3, 32]))
            conv = tf.nn.conv2d(images, kernel, [1, 1, 1, 1], padding='SAME')
            biases = tf.Variable(tf.constant(0.0, shape=[64], dtype=tf.float32),
                                 trainable=True, name='biases')
            out = tf.nn.bias_add(conv, biases)
            self.conv1_1 = tf.nn.relu(out, name=scope)
            self.parameters += [kernel, biases]
