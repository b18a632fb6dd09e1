# source: https://github.com/keras-team/keras/issues/2218
# framework: tf
# family: E
# kind: nondiff-op-on-loss-path
# pitfall: to constrain the network's output to integers the user appends a custom Round layer (K.round) to an XOR MLP; rounding is piecewise constant, so the gradient of the loss with respect to every parameter below it is zero/None and nothing trains
# expect: line 26 — K.round as the output layer of the trained network (the answer: the gradient of the loss wrt. the parameters is always zero)
# checked: parse-only (Keras 0.3-era Layer API: get_output/get_input); the end of build_and_train_mlp_network after the last Dense is cut off in the thread and reconstructed
from __future__ import print_function

import numpy as np
from keras.callbacks import EarlyStopping
from keras.layers.core import Dense, Activation
from keras.models import Sequential
from keras.optimizers import SGD
from keras.layers import Layer
import keras.backend as K

np.random.seed(1337)  # for reproducibility

class Round(Layer):
    def __init__(self, **kwargs):
        super(Round, self).__init__(**kwargs)

    def get_output(self, train=False):
        X = self.get_input(train)
        return K.round(X)

    def get_config(self):
        config = {"name": self.__class__.__name__}
        base_config = super(Round, self).get_config()
        return dict(list(base_config.items()) + list(config.items()))


def build_and_train_mlp_network(X_train, y_train, X_test, y_test):

    nb_epoch = 1000
    batch_size = 4

    model = Sequential()
    model.add(Dense(2, input_shape=(X_train.shape[1],)))
    model.add(Activation('sigmoid'))
    model.add(Dense(1))
    model.add(Round())
    model.compile(loss='mean_absolute_error', optimizer=SGD(lr=0.1))
    model.fit(X_train, y_train, nb_epoch=nb_epoch, batch_size=batch_size,
              callbacks=[EarlyStopping(monitor='loss', patience=20)])
    return model
