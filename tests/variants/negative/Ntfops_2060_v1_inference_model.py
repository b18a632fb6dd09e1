# source: variant of 2060_keras_lambda_one_hot_argmax_decoder.py
# framework: tf
# kind: keras-lambda-nondiff
# negative: the decoder is trained on the softmax; the hard one-hot decision is a separate inference Model built after training
# mimics: positive/2060_v1_keras_ops_one_hot.py
# expect: no finding
# checked: ran (fit trains)
import numpy as np
import keras
from keras import layers, ops

M = 16
onehot_symbols = np.eye(M, dtype="float32")

input_layer = keras.Input(shape=(M,))
relay = layers.Dense(M, activation="relu")(input_layer)
relay = layers.Dense(M)(relay)
probs = layers.Softmax()(relay)
model = keras.Model(input_layer, probs)
model.compile(optimizer=keras.optimizers.Adam(1e-3), loss="categorical_crossentropy")
model.fit(onehot_symbols, onehot_symbols, epochs=1, verbose=0)

decoded = layers.Lambda(lambda p: ops.one_hot(ops.argmax(p, axis=-1), M), output_shape=(M,))(probs)
decoder = keras.Model(input_layer, decoded)
print(decoder.predict(onehot_symbols[:2], verbose=0))
