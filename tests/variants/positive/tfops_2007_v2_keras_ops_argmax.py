# source: variant of 2007_keras_lambda_tf_argmax_layer.py
# framework: tf
# family: E
# kind: keras-lambda-nondiff
# pitfall: a Keras 3 Lambda layer takes keras.ops.argmax of the class scores as the model output; argmax has no gradient, so fit() finds no gradient for any variable
# expect: line 17 — keras.ops.argmax in the Lambda layer that produces the model output
# checked: ran, reproduces (ValueError: No gradients provided for any variable)
import numpy as np
import keras
from keras import layers, ops


def build_model(n_features=4, n_classes=3):
    inp = keras.Input(shape=(n_features,))
    h = layers.Dense(16, activation="relu")(inp)
    scores = layers.Dense(n_classes)(h)
    label = layers.Lambda(lambda s: ops.cast(ops.argmax(s, axis=-1), "float32"), name="label")(scores)
    return keras.Model(inp, label)


model = build_model()
model.compile(optimizer="adam", loss="mse")
model.fit(np.random.rand(32, 4), np.random.randint(0, 3, (32,)).astype("float32"), epochs=1, verbose=0)
