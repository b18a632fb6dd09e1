# source: https://github.com/keras-team/keras/issues/4401
# framework: tf
# family: D
# kind: params-not-in-optimizer
# pitfall: the custom normalisation layer builds its variables and immediately wraps them in K.expand_dims, then registers the resulting tensors as trainable_weights; tensors are not trainable (the optimizer fails with 'TensorVariable' object has no attribute 'get_value') and the underlying variables are never registered
# expect: line 26 — trainable_weights lists the expand_dims tensors, not the K.variable objects they were computed from (the maintainer: 'The problem is here')
# checked: parse only (Keras 1 layer API on the Theano backend); the layer's call body is reconstructed from the answer ('and whatever')
import numpy as np
from keras import backend as K
from keras.engine.topology import Layer


class Normalization2D(Layer):
    def __init__(self, means, stds, **kwargs):
        self.means = means
        self.stds = stds
        super(Normalization2D, self).__init__(**kwargs)

    def build(self, input_shape):
        self.means = K.expand_dims(K.variable(np.array(self.means),
                                              name='{}_means'.format(self.name)),
                                   dim=1) # (n_mels, 1)
        self.stds = K.expand_dims(K.variable(np.array(self.stds),
                                             name='{}_stds'.format(self.name)),
                                  dim=1)
        self.trainable_weights = [self.means, self.stds]

    def call(self, x, mask=None):
        return (x - self.means) / self.stds
