# source: variant of 3113_tf_lstm_noise_input_not_watched.py
# framework: tf
# family: F
# kind: tf-tape-scope
# pitfall: saliency map: the image is cast and scaled to [0, 1] before the tape; the result is a plain tf.Tensor the tape never watched, so tape.gradient returns None
# expect: line 18 — tape.gradient(top_score, img) where `img` is an unwatched tf.Tensor (no tape.watch(img))
# checked: ran, reproduces (None)
import numpy as np
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.Input((4, 4, 3)), tf.keras.layers.Flatten(), tf.keras.layers.Dense(5)])
raw = np.random.randint(0, 255, (1, 4, 4, 3)).astype("uint8")

img = tf.cast(raw, tf.float32) / 255.0
with tf.GradientTape() as tape:
    logits = model(img, training=False)
    top_score = tf.reduce_max(logits, axis=-1)
saliency = tape.gradient(top_score, img)
print(saliency)
