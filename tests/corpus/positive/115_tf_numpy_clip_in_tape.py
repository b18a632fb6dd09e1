# source: https://www.tensorflow.org/guide/autodiff#cases_where_gradient_returns_none
# family: A
# pitfall: probabilities are clipped with NumPy (.numpy() + np.clip) inside the GradientTape before the cross-entropy
# expect: line 20 — .numpy() inside the tape leaves TensorFlow: the loss is computed from a constant and every gradient is None

import numpy as np
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(64, activation="relu"), tf.keras.layers.Dense(3)])
loss_fn = tf.keras.losses.CategoricalCrossentropy()
opt = tf.keras.optimizers.Adam(1e-3)

ds = tf.data.Dataset.from_tensor_slices(
    (tf.random.normal((128, 10)), tf.one_hot(tf.random.uniform((128,), maxval=3, dtype=tf.int32), 3))
).batch(32)

for x, y in ds:
    with tf.GradientTape() as tape:
        logits = model(x, training=True)
        probs = np.clip(tf.nn.softmax(logits).numpy(), 1e-7, 1 - 1e-7)
        loss = loss_fn(y, probs)
    grads = tape.gradient(loss, model.trainable_variables)
    opt.apply_gradients(zip(grads, model.trainable_variables))
