# source: https://github.com/keras-team/keras/issues/20058
# framework: tf
# family: B
# kind: int-dtype-parameter
# pitfall: the layer's trainable variable is created with an integer dtype; integer tensors are not differentiable, so fit() raises "No gradients provided for any variable"
# expect: line 19 — add_variable with dtype int32 creates a trainable weight that can never receive a gradient
# checked: ran, reproduces (ValueError: No gradients provided for any variable)
import keras
import tensorflow as tf
import numpy as np

variable_dtype = tf.int32
# variable_dtype = tf.float32   # Uncommenting this fixes the issue


class BugTestLayer(keras.layers.Layer):
    # Layer is just y = self.var * x
    def build(self, input_shape):
        self.var = self.add_variable(
            (1,), initializer="zeros", dtype=variable_dtype)

    def call(self, input):
        return input * self.var


input_layer = keras.Input((1,), dtype=tf.int32)
test_layer = BugTestLayer()

output = test_layer(input_layer)
model = keras.Model(inputs=[input_layer], outputs=[output])

values = np.array([[i] for i in range(1000)])

model.compile(
    loss=[keras.losses.MeanSquaredError()],
    optimizer=keras.optimizers.RMSprop(),
    metrics=[keras.metrics.MeanSquaredError()],
)

# This will always raise a `ValueError: No gradients provided for any variable.`
# when using an integer type
history = model.fit(values, values, batch_size=1, epochs=2)
