# source: https://github.com/keras-team/keras/issues/6926
# framework: tf
# family: E
# kind: nondiff-op-on-loss-path
# pitfall: the custom ThresholdLayer's trainable threshold is only used through tf.greater_equal and a tf.where that selects constant ones/zeros; neither carries a gradient to the kernel, so the "trainable threshold" never receives one (the reporter gets weird results)
# expect: line 24 — a trainable weight used only in a comparison (tf.greater_equal) that picks between constant ones and zeros
# checked: parse-only (Keras 2 / TF1 era; the pickled data is not available); the tail of the script after the layer is cut off in the thread
import tensorflow as tf
from keras import initializers
from keras.engine.topology import Layer
from keras.layers import Input


class ThresholdLayer(Layer):
    def __init__(self, **kwargs):
        super(ThresholdLayer, self).__init__(**kwargs)

    def build(self, input_shape):
        # Create a trainable weight variable for this layer.
        self.kernel = self.add_weight(name='threshold', shape=(1,), initializer=initializers.constant(0.2))
        super(ThresholdLayer, self).build(input_shape)  # Be sure to call this somewhere!

    def call(self, x):
        ge = tf.greater_equal(x, self.kernel)
        return tf.where(ge, x=tf.ones_like(x), y=tf.zeros_like(x))

    def compute_output_shape(self, input_shape):
        return input_shape


input_layer = Input(shape=(17,))
output = ThresholdLayer()(input_layer)
