# source: synthetic
# family: B
# pitfall: per-example gradients for DP-SGD-style clipping computed with a list comprehension of tape.gradient calls on one non-persistent tape
# expect: line 17 — the comprehension calls gradient() repeatedly on a non-persistent tape; every call after the first raises RuntimeError

import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(16, activation="relu"), tf.keras.layers.Dense(2)])
loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True, reduction="none")
opt = tf.keras.optimizers.SGD(0.1)
x, y = tf.random.normal((8, 5)), tf.random.uniform((8,), maxval=2, dtype=tf.int32)

with tf.GradientTape() as tape:
    logits = model(x, training=True)
    per_example = tf.unstack(loss_fn(y, logits))

per_ex_grads = [tape.gradient(l, model.trainable_variables) for l in per_example]
clipped = [[tf.clip_by_norm(g, 1.0) for g in grads] for grads in per_ex_grads]
mean_grads = [tf.add_n(gs) / len(gs) for gs in zip(*clipped)]
opt.apply_gradients(zip(mean_grads, model.trainable_variables))
