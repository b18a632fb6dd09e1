# source: https://github.com/keras-team/keras/issues/2221
# framework: tf
# family: E
# kind: nondiff-op-on-loss-path
# pitfall: a custom Round layer at the end of the network makes the output piecewise constant; the gradient of the loss with respect to every parameter is zero, so nothing trains
# expect: line 21 — K.round in the output layer has a zero (or no) gradient
# checked: parse only (Keras 1 Layer API: get_output/get_input)
from keras.layers import Layer, Dense, Activation
from keras.models import Sequential
import keras.backend as K

max_features = 100

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

m = Sequential()
m.add(Dense(20, input_shape=(max_features,)))
m.add(Activation('relu'))
m.add(Dense(20))
m.add(Activation('relu'))
m.add(Dense(3))
m.add(Round())
m.compile(loss='mean_absolute_error', optimizer='adam')
