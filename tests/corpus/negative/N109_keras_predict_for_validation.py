# source: https://keras.io/guides/writing_a_training_loop_from_scratch/
# family: A
# negative: model(x, training=True) inside the tape; model.predict() is used only after the update, outside any tape, for validation
# mimics: model.predict near a GradientTape
# expect: no finding

import numpy as np
import tensorflow as tf
from tensorflow import keras

model = keras.Sequential([keras.layers.Dense(64, activation="relu"), keras.layers.Dense(3)])
loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
opt = keras.optimizers.Adam(1e-3)
x_train, y_train = np.random.randn(256, 8).astype("float32"), np.random.randint(0, 3, 256)
x_val, y_val = np.random.randn(64, 8).astype("float32"), np.random.randint(0, 3, 64)

for epoch in range(5):
    with tf.GradientTape() as tape:
        logits = model(x_train, training=True)
        loss = loss_fn(y_train, logits)
    grads = tape.gradient(loss, model.trainable_weights)
    opt.apply_gradients(zip(grads, model.trainable_weights))
    val_pred = model.predict(x_val, verbose=0)
    print(epoch, float(loss), np.mean(np.argmax(val_pred, axis=1) == y_val))
