# source: https://github.com/HaebinShin/grad-cam-text/issues/2
# framework: tf
# family: B
# kind: keras-symbolic-tensor
# pitfall: porting the TF1 Grad-CAM (tf.gradients on model.output) to TF2, the reporter asks a GradientTape for the gradient of model.output[:, 0], a symbolic Keras output that was never computed on the tape; nothing is recorded and the call fails (the maintainer: the repo only supports TF1)
# expect: line 13 — tape.gradient of the symbolic model.output with respect to layer outputs; no eager forward pass ran inside the tape
# checked: parse only (needs the repository's text CNN; the thread shows only these two lines, wrapped here in a function)
import tensorflow as tf


def grad_cam(model, layers_wt):
    with tf.GradientTape() as tape:
        grads = tape.gradient(model.output[:,0], layers_wt)[0]
    return grads
