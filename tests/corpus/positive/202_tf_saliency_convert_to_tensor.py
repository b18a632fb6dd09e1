# source: https://www.tensorflow.org/guide/autodiff#controlling_what_the_tape_watches
# family: B
# pitfall: saliency map computed w.r.t. an input image produced by tf.convert_to_tensor, without tape.watch
# expect: line 18 — plain tensors are not watched automatically; tape.gradient returns None for the image

import numpy as np
import tensorflow as tf
from tensorflow import keras

model = keras.Sequential([keras.layers.Conv2D(8, 3, activation="relu"), keras.layers.GlobalAveragePooling2D(), keras.layers.Dense(10)])


def saliency_map(model, image, class_idx):
    img = tf.convert_to_tensor(image[None], dtype=tf.float32)
    with tf.GradientTape() as tape:
        preds = model(img, training=False)
        score = preds[:, class_idx]
    grads = tape.gradient(score, img)
    return tf.reduce_max(tf.abs(grads), axis=-1)[0]


sal = saliency_map(model, np.random.rand(32, 32, 3), class_idx=3)
