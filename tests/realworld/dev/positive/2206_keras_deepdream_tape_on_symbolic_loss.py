# source: https://github.com/fchollet/deep-learning-with-python-notebooks/issues/181
# framework: tf
# family: B
# kind: keras-symbolic-tensor
# pitfall: porting the DeepDream listing from K.gradients to TF2, the loss is still built from the symbolic layer outputs of the functional model and the tape is opened only around the gradient call; a tape cannot differentiate symbolic KerasTensors (AttributeError: 'KerasTensor' object has no attribute '_id'), and nothing was recorded inside it anyway
# expect: line 36 — gtape.gradient of a loss built from symbolic layer outputs with respect to model.input; the tape recorded no computation
# checked: parse-only (needs the InceptionV3 weights)
from keras.applications import inception_v3
from keras import backend as K
import tensorflow as tf

K.set_learning_phase(0)

model = inception_v3.InceptionV3(weights='imagenet',include_top=False)
#设置deepdream配置
layer_contributions = {
    'mixed2':0.2,
    'mixed3':3.,
    'mixed4':2.,
    'mixed5':1.5,
}
#定义需要最大化损失
layer_dict = dict([(layer.name,layer) for layer in model.layers])
loss = K.variable(0.)
for layer_name in layer_contributions:
    coeff = layer_contributions[layer_name]
    activation = layer_dict[layer_name].output

    scaling = K.prod(K.cast(K.shape(activation),'float32'))
    loss = loss + coeff * K.sum(K.square(activation[:, 2 :-2, 2: -2, :])) / scaling
#梯度上升过程
dream = model.input


with tf.GradientTape() as gtape:
    grads = gtape.gradient(loss,dream)[0]

# grads = K.gradients(loss,dream)[0]
grads /= K.maximum(K.mean(K.abs(grads)),1e-7)
outputs = [loss,grads]
fetch_loss_and_grads = K.function([dream],outputs)
