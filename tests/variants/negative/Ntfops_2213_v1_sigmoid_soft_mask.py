# source: variant of 2213_keras_lambda_greater_binary_mask_output.py
# framework: tf
# kind: keras-lambda-nondiff
# negative: a soft mask sigmoid((pred1 - pred2) / T) instead of the comparison
# mimics: positive/2213_v1_operator_gt.py
# expect: no finding
# checked: ran (fit trains)
import numpy as np
import tensorflow as tf
from tensorflow.keras.layers import Dense, Input, Lambda
from tensorflow.keras.models import Model

units = 4


def soft_mask(x, temperature=0.1):
    pred1, pred2 = x[:, :units], x[:, units:]
    return tf.sigmoid((pred1 - pred2) / temperature)


x_in = Input(shape=(10,))
inputs = Dense(2 * units)(x_in)
outputs = Lambda(soft_mask, output_shape=(units,))(inputs)
model = Model(x_in, outputs)
model.compile(optimizer="adam", loss="binary_crossentropy")
model.fit(np.random.rand(8, 10), np.random.randint(0, 2, (8, units)).astype("float32"), verbose=0)
