# source: https://www.tensorflow.org/guide/advanced_autodiff#jacobians
# family: B
# negative: per-example gradients obtained with a single tape.jacobian call on the per-example loss vector (one use of a non-persistent tape)
# mimics: per-example gradients from one GradientTape
# expect: no finding

import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(16, activation="relu"), tf.keras.layers.Dense(2)])
loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True, reduction="none")
opt = tf.keras.optimizers.SGD(0.1)
x, y = tf.random.normal((8, 5)), tf.random.uniform((8,), maxval=2, dtype=tf.int32)

with tf.GradientTape() as tape:
    per_example = loss_fn(y, model(x, training=True))

jac = tape.jacobian(per_example, model.trainable_variables)
clipped = [tf.clip_by_norm(j, 1.0, axes=list(range(1, len(j.shape)))) for j in jac]
opt.apply_gradients(zip([tf.reduce_mean(c, axis=0) for c in clipped], model.trainable_variables))
