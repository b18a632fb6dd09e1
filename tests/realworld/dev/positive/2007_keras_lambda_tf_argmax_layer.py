# source: https://github.com/Mainak431/List-of-Differentiable--OPs-and-Non-differentiable-OPs--in-Tensorflow/issues/4
# framework: tf
# family: E
# kind: keras-lambda-nondiff
# pitfall: the model's output is a Lambda layer computing tf.math.argmax, so fit() finds no gradient for the Dense layer ("No gradients provided for any variable")
# expect: line 16 — Lambda(lambda q: tf.math.argmax(q, 2)) as the model output has no gradient
# checked: ran, reproduces (ValueError: No gradients provided for any variable)
import numpy as np
import tensorflow as tf
import tensorflow.keras.backend as K
from tensorflow.keras.layers import *
from tensorflow.keras.models import *
from tensorflow.keras.optimizers import *

def ArgMax():
    return Lambda(lambda q:tf.math.argmax(q, 2))
inputs1 = Input(shape = (1,1,))
d = Dense(3)(inputs1)
out = ArgMax()(d)

model = Model(inputs = [inputs1], outputs = [out], name = "test")

model.summary()
model.compile(SGD(0.1),loss="mae")
model.fit(
        x = [np.ones((100,1,1))],
        y = [np.zeros((100,1))],
        batch_size = 100,
        verbose = 2,
        epochs = 10)
