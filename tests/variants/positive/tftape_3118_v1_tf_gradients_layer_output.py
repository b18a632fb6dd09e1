# source: variant of 3118_tf2_gradcam_K_gradients_layer_output.py
# framework: tf
# family: F
# kind: keras-symbolic-tensor
# pitfall: the Grad-CAM port replaces K.gradients with tf.gradients but still differentiates the symbolic model.output[...] w.r.t. the symbolic last_conv.output; in TF2 eager mode tf.gradients is unsupported and these KerasTensors have no graph
# expect: line 27 — tf.gradients(class_output, last_conv.output) on symbolic Keras tensors in TF2 eager mode
# checked: ran on Keras 3, reproduces (RuntimeError: tf.gradients is not supported when eager execution is enabled. Use tf.GradientTape instead.)
import numpy as np
import tensorflow as tf
import keras

inp = keras.Input((8, 8, 3))
conv = keras.layers.Conv2D(4, 3, name="last_conv")(inp)
out = keras.layers.Dense(3)(keras.layers.GlobalAveragePooling2D()(conv))
model = keras.Model(inp, out)


class GradCAM:
    def __init__(self, model, layer_name):
        self.model = model
        self.layer_name = layer_name

    def compute(self, image):
        preds = self.model.predict(image, verbose=0)
        class_output = self.model.output[:, int(np.argmax(preds[0]))]
        last_conv = self.model.get_layer(self.layer_name)
        grads = tf.gradients(class_output, last_conv.output)[0]
        return tf.reduce_mean(grads, axis=(0, 1, 2))


GradCAM(model, "last_conv").compute(np.random.rand(1, 8, 8, 3).astype("float32"))
