# source: variant of 2016_keras_int32_trainable_variable.py
# framework: tf
# family: B
# kind: int-dtype-parameter
# pitfall: the layer's trainable weight is created with add_weight(dtype="int32"); integer weights are not differentiable, so fit() raises "No gradients provided for any variable"
# expect: line 15 — add_weight with dtype "int32" creates a trainable weight that can never receive a gradient
# checked: ran, reproduces (ValueError: No gradients provided for any variable)
import numpy as np
import keras


class Scale(keras.layers.Layer):
    def build(self, input_shape):
        self.alpha = self.add_weight(
            name="alpha", shape=(1,), initializer="ones", dtype="int32", trainable=True)

    def call(self, inputs):
        return inputs * self.alpha


inp = keras.Input((1,), dtype="int32")
model = keras.Model(inp, Scale()(inp))
model.compile(optimizer="sgd", loss="mse")
values = np.arange(20).reshape(-1, 1)
model.fit(values, 2 * values, epochs=1, verbose=0)
