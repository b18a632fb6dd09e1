# source: variant of 2037_keras_make_trainable_without_recompile.py
# framework: tf
# family: D
# kind: frozen-but-trained
# pitfall: the backbone layers are frozen (layer.trainable = False) after the model was compiled and the model is never recompiled, so in Keras 2 the compiled training function keeps updating the "frozen" layers
# expect: line 17 — trainable flags changed after compile(); the compiled training function still updates these weights
# checked: ran, does not reproduce on Keras 3.15 (the flag takes effect without recompiling); Keras 2 behaviour per the Keras FAQ ("you need to call compile() again ... for the changes to be taken into account")
import numpy as np
from tensorflow import keras

base = keras.Sequential([keras.Input((4,)), keras.layers.Dense(8, activation="relu"), keras.layers.Dense(8, activation="relu")])
model = keras.Sequential([base, keras.layers.Dense(1)])
model.compile(optimizer="adam", loss="mse")
model.fit(np.random.rand(16, 4), np.random.rand(16, 1), epochs=1, verbose=0)

for layer in base.layers:
    layer.trainable = False
model.fit(np.random.rand(16, 4), np.random.rand(16, 1), epochs=1, verbose=0)
