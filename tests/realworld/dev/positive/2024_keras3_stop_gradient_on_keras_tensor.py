# source: https://github.com/keras-team/keras/issues/20124
# framework: tf
# family: B
# kind: keras-symbolic-tensor
# pitfall: while building a functional model, ops.stop_gradient is called directly on a symbolic KerasTensor; the TensorFlow backend op cannot take a KerasTensor and raises
# expect: line 13 — a backend op applied directly to a symbolic KerasTensor in a functional model
# checked: parse only (fragment)
from keras import Input, Model, layers, ops

a = Input(shape=(2,))
b = layers.Dense(4)(a)
c = layers.Dense(4)(b)
d = ops.stop_gradient(b) + c
model = Model(inputs=a, outputs=d)

print(model(ops.convert_to_tensor([[1,2]])))
