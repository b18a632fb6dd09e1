# source: fixed twin of 2037_v1_freeze_layers_after_compile.py
# framework: tf
# family: D
# kind: frozen-but-trained
# pitfall: none (the model is recompiled after the backbone layers are frozen, as the Keras FAQ asks)
# checked: ran, trains
import numpy as np
from tensorflow import keras

base = keras.Sequential([keras.Input((4,)), keras.layers.Dense(8, activation="relu"), keras.layers.Dense(8, activation="relu")])
model = keras.Sequential([base, keras.layers.Dense(1)])
model.compile(optimizer="adam", loss="mse")
model.fit(np.random.rand(16, 4), np.random.rand(16, 1), epochs=1, verbose=0)

for layer in base.layers:
    layer.trainable = False
model.compile(optimizer="adam", loss="mse")
model.fit(np.random.rand(16, 4), np.random.rand(16, 1), epochs=1, verbose=0)
