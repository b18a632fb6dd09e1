# source: variant of 2028_keras_loss_ignores_y_pred_hidden_layer.py
# framework: tf
# family: D
# kind: params-unused-by-loss
# pitfall: the activity-sparsity loss built by a factory only uses the hidden layer's output, never y_pred, so the output Dense layer's weights never reach the loss and get no gradient
# expect: line 15 — the loss references the hidden layer output only, so the output Dense layer's weights get no gradient
# checked: ran on Keras 3, reproduces (fit fails: the closed-over KerasTensor cannot be used in the compiled loss; under Keras 2 the output layer's gradient is None)
import numpy as np
import keras
from keras import layers


def sparsity_loss(hidden):
    def loss(y_true, y_pred):
        return keras.ops.mean(keras.ops.abs(hidden))
    return loss


inputs = keras.Input((5,))
hidden = layers.Dense(3, activation="relu", name="code")(inputs)
outputs = layers.Dense(1)(hidden)
model = keras.Model(inputs, outputs)
model.compile(optimizer="adam", loss=sparsity_loss(hidden))
model.fit(np.random.rand(10, 5), np.random.rand(10, 1), epochs=1, verbose=0)
