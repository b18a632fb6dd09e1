# source: variant of 2068_keras_gradcam_tape_on_symbolic_model_output.py
# framework: tf
# family: B
# kind: keras-symbolic-tensor
# pitfall: the Grad-CAM helper asks a GradientTape for the gradient of the symbolic model.output w.r.t. the symbolic conv_layer.output; nothing was computed eagerly on the tape, so the gradient cannot be taken
# expect: line 21 — tape.gradient of the symbolic model.output with respect to a layer's symbolic output; no eager forward pass ran inside the tape
# checked: ran on Keras 3, reproduces (AttributeError: 'KerasTensor' object has no attribute '_id' / not a tf.Tensor)
import tensorflow as tf
import keras

inp = keras.Input((8, 8, 3))
conv = keras.layers.Conv2D(4, 3, name="last_conv")(inp)
out = keras.layers.Dense(2)(keras.layers.GlobalAveragePooling2D()(conv))
model = keras.Model(inp, out)


def make_heatmap(model, layer_name, class_idx):
    conv_layer = model.get_layer(layer_name)
    with tf.GradientTape() as tape:
        class_score = model.output[:, class_idx]
    grads = tape.gradient(class_score, conv_layer.output)
    return tf.reduce_mean(grads, axis=(0, 1, 2))


make_heatmap(model, "last_conv", 1)
