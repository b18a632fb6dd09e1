# source: variant of 2214_keras_round_output_layer_xor.py
# framework: tf
# family: E
# kind: nondiff-op-on-loss-path
# pitfall: to constrain the XOR network's output to integers a custom Round layer (K.round in call) is appended; rounding has no gradient, so fit() finds no gradient for any variable
# expect: line 17 — K.round as the output layer of the trained network
# checked: ran, reproduces (ValueError: No gradients provided for any variable)
import numpy as np
from tensorflow.keras import backend as K
from tensorflow.keras.layers import Dense, Activation, Layer
from tensorflow.keras.models import Sequential
from tensorflow.keras.optimizers import SGD


class Round(Layer):
    def call(self, x):
        return K.round(x)


def build_and_train_mlp_network(X_train, y_train):
    model = Sequential()
    model.add(Dense(2, input_shape=(X_train.shape[1],)))
    model.add(Activation("sigmoid"))
    model.add(Dense(1))
    model.add(Round())
    model.compile(loss="mean_absolute_error", optimizer=SGD(learning_rate=0.1))
    model.fit(X_train, y_train, epochs=2, batch_size=4, verbose=0)
    return model


X = np.array([[0, 0], [0, 1], [1, 0], [1, 1]], dtype="float32")
y = np.array([[0], [1], [1], [0]], dtype="float32")
build_and_train_mlp_network(X, y)
