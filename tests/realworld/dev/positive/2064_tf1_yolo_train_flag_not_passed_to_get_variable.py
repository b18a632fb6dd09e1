# source: https://github.com/nilboy/tensorflow-yolo/issues/4
# framework: tf
# family: D
# kind: frozen-but-trained
# pitfall: layers built with train=False are meant to stay frozen, but _variable_on_cpu only uses the flag to fill a private list; tf.get_variable is called without trainable=train, so every variable lands in TRAINABLE_VARIABLES and the optimizer's default var_list updates the 'frozen' layers too
# expect: line 24 — tf.get_variable is called without trainable=train, so variables requested as non-trainable are still trainable
# checked: parse only (TF1 graph API: tf.get_variable, tf.variable_scope)
import tensorflow as tf


class Net(object):
  """Base Net class
  """
  def __init__(self, common_params, net_params):
    #pretrained variable collection
    self.pretrained_collection = []
    #trainable variable collection
    self.trainable_collection = []

  def _variable_on_cpu(self, name, shape, initializer, pretrain=True, train=True):
    """Helper to create a Variable stored on CPU memory.
    """
    with tf.device('/cpu:0'):
      var = tf.get_variable(name, shape, initializer=initializer, dtype=tf.float32)
      if pretrain:
        self.pretrained_collection.append(var)
      if train:
        self.trainable_collection.append(var)
    return var

  def _variable_with_weight_decay(self, name, shape, stddev, wd, pretrain=True, train=True):
    var = self._variable_on_cpu(name, shape,
      tf.truncated_normal_initializer(stddev=stddev, dtype=tf.float32), pretrain, train)
    if wd is not None:
      weight_decay = tf.multiply(tf.nn.l2_loss(var), wd, name='weight_loss')
      tf.add_to_collection('losses', weight_decay)
    return var

  def conv2d(self, scope, input, kernel_size, stride=1, pretrain=True, train=True):
    with tf.variable_scope(scope) as scope:
      kernel = self._variable_with_weight_decay('weights',
                                      shape=kernel_size,
                                      stddev=5e-2,
                                      wd=self.weight_decay, pretrain=pretrain, train=train)
      conv = tf.nn.conv2d(input, kernel, [1, stride, stride, 1], padding='SAME')

      biases = self._variable_on_cpu('biases', kernel_size[3:], tf.constant_initializer(0.0), pretrain, train)
      conv1 = tf.nn.bias_add(conv, biases)
      output = self.leaky_relu(conv1)

    return output
