# source: variant of 2206_keras_deepdream_tape_on_symbolic_loss.py
# framework: tf
# family: B
# kind: keras-symbolic-tensor
# pitfall: the feature-visualisation loss is built from a layer's symbolic .output and differentiated with a tape w.r.t. model.inputs[0]; the tape cannot differentiate symbolic KerasTensors and recorded nothing anyway
# expect: line 21 — tape.gradient of a loss built from symbolic layer outputs with respect to model.inputs[0]; the tape recorded no computation
# checked: ran on Keras 3, reproduces (the tape rejects the symbolic KerasTensor)
import tensorflow as tf
import keras

inp = keras.Input((8, 8, 3))
x = keras.layers.Conv2D(4, 3, activation="relu", name="block1")(inp)
x = keras.layers.Conv2D(4, 3, activation="relu", name="block2")(x)
model = keras.Model(inp, x)

activation = model.get_layer("block2").output
loss = keras.ops.mean(activation[:, :, :, 1])
image = model.inputs[0]
with tf.GradientTape() as tape:
    tape.watch(image)
    grads = tape.gradient(loss, image)
