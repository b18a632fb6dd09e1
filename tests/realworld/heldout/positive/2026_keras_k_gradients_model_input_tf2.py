# source: https://github.com/tensorflow/tensorflow/issues/46194
# framework: tf
# family: B
# kind: keras-symbolic-tensor
# pitfall: the filter-visualisation recipe differentiates a symbolic layer output with K.gradients(loss, model.input) (or a tape over KerasTensors); in TF2 eager the symbolic graph has no gradient and the call fails
# expect: line 20 — K.gradients of a loss built from symbolic layer outputs with respect to model.input
# checked: parse only (needs the VGG16 ImageNet weights download; Keras 2 K.gradients)
from keras.applications import VGG16
from keras import backend as K
import tensorflow as tf

model = VGG16(weights='imagenet', include_top=False)

layer_name = 'block3_conv1'
filter_index = 0

layer_output = model.get_layer(layer_name).output
loss = K.mean(layer_output[:, :, :, filter_index])

grads = K.gradients(loss, model.input)[0]

grads /= (K.sqrt(K.mean(K.square(grads))) + 1e-5)

iterate = K.function([model.input], [loss, grads])
