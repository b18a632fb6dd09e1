# source: variant of 2007_keras_lambda_tf_argmax_layer.py
# framework: tf
# family: E
# kind: keras-lambda-nondiff
# pitfall: the model's output is an inline keras.layers.Lambda computing tf.argmax (cast back to float), so fit() finds no gradient for the Dense layer
# expect: line 14 — Lambda(lambda q: tf.cast(tf.argmax(q, axis=-1), ...)) as the model output has no gradient
# checked: ran, reproduces (ValueError: No gradients provided for any variable)
import numpy as np
import tensorflow as tf
import keras

inputs = keras.Input(shape=(4,))
logits = keras.layers.Dense(3)(inputs)
out = keras.layers.Lambda(lambda q: tf.cast(tf.argmax(q, axis=-1), tf.float32))(logits)
model = keras.Model(inputs, out)
model.compile(optimizer=keras.optimizers.SGD(0.1), loss="mae")
model.fit(np.ones((32, 4)), np.zeros((32,)), batch_size=32, epochs=1, verbose=0)
