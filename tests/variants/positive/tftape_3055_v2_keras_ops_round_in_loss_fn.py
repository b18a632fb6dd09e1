# source: variant of 3055_tf1_round_network_output_in_loss.py
# framework: tf
# family: B
# kind: tf-tape-conversion
# pitfall: the custom Keras loss rounds y_pred with keras.ops.round to compare integer counts; round has no gradient, so fit() finds no gradient path to any variable
# expect: line 14 — keras.ops.round(y_pred) on the path to the loss (no gradient)
# checked: ran, reproduces (ValueError: No gradients provided for any variable)
import numpy as np
import keras
from keras import ops


def count_loss(y_true, y_pred):
    counts = ops.round(y_pred)
    return ops.mean(ops.abs(counts - y_true))


model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1, activation="relu")])
model.compile(optimizer="adam", loss=count_loss)
model.fit(np.random.rand(16, 3), np.random.randint(0, 5, (16, 1)).astype("float32"), epochs=1, verbose=0)
