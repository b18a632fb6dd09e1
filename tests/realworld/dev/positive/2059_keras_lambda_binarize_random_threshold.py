# source: https://github.com/tensorflow/tensorflow/issues/44125
# framework: tf
# family: E
# kind: keras-lambda-nondiff
# pitfall: the Lambda layer binarises the sigmoid output by comparing it with uniform noise and casting the boolean to float; the comparison has no gradient, so the Dense layer before it gets none (No gradients provided for any variable)
# expect: line 17 — K.cast(K.random_uniform(...) <= x2, 'float32') inside the Lambda: a comparison cast to float, which has no gradient
# checked: ran a Keras 3 port (keras.ops/keras.random instead of keras.backend), reproduces (ValueError: No gradients provided for any variable)
import numpy as np

from keras import backend as K
from keras.layers import *
from keras.models import Model


def binarize(d):
    x1, x2 = d
    return x1 * K.cast(K.random_uniform(shape=K.shape(x2)) <= x2, 'float32')


inp = Input((1,))
var = Dense(1, activation='sigmoid')(inp)
out = Lambda(binarize)([inp, var])

model = Model(inp, out)
model.compile(loss='mse', optimizer='sgd')

x = np.random.normal(size=(128, 1))
y = x >= 0
model.train_on_batch(x, y)
