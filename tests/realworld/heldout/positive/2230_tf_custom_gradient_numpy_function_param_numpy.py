# source: https://github.com/tensorflow/tensorflow/issues/41836
# framework: tf
# family: B
# kind: tf-tape-conversion
# pitfall: the tf.custom_gradient op feeds param.numpy() and input.numpy() to tf.numpy_function; calling the model eagerly works, but inside fit()/tf.function the tensors are symbolic and .numpy() does not exist, so training fails
# expect: line 24 — .numpy() on the layer's weight and input inside the custom-gradient op used by the model's call
# checked: parse-only (the numba-jitted kernels are kept; the failing loss/fit part after the model is cut off in the thread)
import numpy as np
import numba
import tensorflow as tf

@numba.jit(nopython = True)
def func(param, input):
    return param*input**2

@numba.jit(nopython = True)
def gradfunc(param, input):
    return input**2

@tf.custom_gradient
def func_tf(param, input):
    def grad(dy):
        return tf.numpy_function(gradfunc, (param.numpy(), input.numpy()), tf.float32), 2*param*input
    return tf.numpy_function(func, (param.numpy(), input.numpy()), tf.float32), grad

class myLayer(tf.keras.layers.Layer):
    def __init__(self):
        super().__init__()

    def build(self, input_shape):
        self.param = self.add_weight("param")

    def call(self, input):
        return func_tf(self.param, input)

class myModel(tf.keras.Model):
    def __init__(self, num_layers):
        super().__init__(name='')
        self._layers = [myLayer() for _ in range(num_layers)]

    def call(self, input_tensor):
        for layer in self._layers:
            input_tensor = layer(input_tensor)
        return input_tensor

model = myModel(3)
print(model(1.5)) # <-- this works
