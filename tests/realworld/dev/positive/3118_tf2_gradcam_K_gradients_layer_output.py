# source: https://github.com/tensorflow/tensorflow/issues/33135
# framework: tf
# family: F
# kind: keras-symbolic-tensor
# pitfall: Grad-CAM code from standalone Keras differentiates the symbolic `model.output[...]` w.r.t. the symbolic `conv_layer.output` with K.gradients; under TF2 eager execution this raises "tf.gradients is not supported when eager execution is enabled. Use tf.GradientTape instead."
# expect: line 34 — K.gradients(model_prediction, conv_layer.output) on symbolic Keras tensors in TF2 eager mode
# checked: not run (TF not installed); the thread shows the error "tf.gradients is not support[ed when eager execution is enabled]" raised at K.gradients()
import os

import numpy as np
from tensorflow.keras import backend as K
from tensorflow.keras.applications.vgg16 import preprocess_input
from tensorflow.keras.models import load_model
from tensorflow.keras.preprocessing import image

# --- stubs (not in the thread): paths ---
model_folder = "models"
image_path = "cat.jpg"
# --- end stubs ---

# verbatim from the issue
# load model and image, then predict the class this image belongs to
model = load_model(os.path.join(model_folder, "custom_model.h5"))
image = image.load_img(image_path)
img_tensor = image.img_to_array(image)
img_tensor = np.expand_dims(img_tensor, axis=0)
img_tensor = preprocess_input(img_tensor)

preds = model.predict(img_tensor)
model_prediction = model.output[:, np.argmax(preds[0])]

# Calculate pooled grads for heatmap
conv_layer = model.get_layer("block5_conv3")  # last conv. layer
grads = K.gradients(model_prediction, conv_layer.output)[0]
pooled_grads = K.mean(grads, axis=(0, 1, 2))

# Get values of pooled grads and model conv. layer output as Numpy arrays
input_layer = model.get_layer("model_input")
iterate = K.function([input_layer], [pooled_grads, conv_layer.output[0]])
pooled_grads_value, conv_layer_output_value = iterate([img_tensor])

# Continue with heatmap generation ...
