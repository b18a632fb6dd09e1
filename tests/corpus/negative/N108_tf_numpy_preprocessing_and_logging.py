# source: https://www.tensorflow.org/guide/basic_training_loops
# family: A
# negative: NumPy builds and normalises the dataset before the tape; inside the tape only TF ops are used; .numpy() only for logging afterwards
# mimics: NumPy and .numpy() around a GradientTape
# expect: no finding

import numpy as np
import tensorflow as tf

raw = np.random.randn(512, 6).astype(np.float32) * 5 + 2
x_np = (raw - raw.mean(axis=0)) / raw.std(axis=0)
y_np = np.sin(x_np[:, :1]) + 0.1 * np.random.randn(512, 1).astype(np.float32)
x, y = tf.constant(x_np), tf.constant(y_np)

model = tf.keras.Sequential([tf.keras.layers.Dense(32, activation="relu"), tf.keras.layers.Dense(1)])
opt = tf.keras.optimizers.Adam(1e-2)
history = []
for epoch in range(50):
    with tf.GradientTape() as tape:
        pred = model(x, training=True)
        loss = tf.reduce_mean(tf.square(pred - y))
    grads = tape.gradient(loss, model.trainable_variables)
    opt.apply_gradients(zip(grads, model.trainable_variables))
    history.append(loss.numpy())
print(np.min(history), np.abs(pred.numpy() - y_np).max())
