# source: https://github.com/keras-team/keras/issues/4401
# framework: tf
# kind: params-not-in-optimizer
# negative: the accepted fix — create the variables in build() and register them in trainable_weights, then apply K.expand_dims to them in call()
# mimics: positive/2067_keras1_trainable_weights_are_expanded_tensors.py
# expect: no finding
# checked: parse only (Keras 1 layer API)
import numpy as np
from keras import backend as K
from keras.engine.topology import Layer


class Normalization2D(Layer):
    def __init__(self, means, stds, **kwargs):
        self.means = means
        self.stds = stds
        super(Normalization2D, self).__init__(**kwargs)

    def build(self, input_shape):
        self.means = K.variable(np.array(self.means), name='{}_means'.format(self.name))
        self.stds = K.variable(np.array(self.stds), name='{}_stds'.format(self.name))
        self.trainable_weights = [self.means, self.stds]

    def call(self, x, mask=None):
        means = K.expand_dims(self.means, dim=1)  # (n_mels, 1)
        stds = K.expand_dims(self.stds, dim=1)
        return (x - means) / stds
