# source: fixed twin of 3113_v3_saliency_scaled_image_not_watched.py
# framework: tf
# family: F
# kind: tf-tape-scope
# pitfall: none (tape.watch(img) before the forward pass)
# checked: ran, gradient present
import numpy as np
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.Input((4, 4, 3)), tf.keras.layers.Flatten(), tf.keras.layers.Dense(5)])
raw = np.random.randint(0, 255, (1, 4, 4, 3)).astype("uint8")

img = tf.cast(raw, tf.float32) / 255.0
with tf.GradientTape() as tape:
    tape.watch(img)
    logits = model(img, training=False)
    top_score = tf.reduce_max(logits, axis=-1)
saliency = tape.gradient(top_score, img)
print(saliency.shape)
