# source: synthetic
# family: E
# pitfall: "directly optimise accuracy": the tape loss is 1 - accuracy computed from tf.argmax and tf.equal on the logits
# expect: line 15 — argmax/equal are not differentiable: the only path from the model to the loss is cut, tape.gradient returns None for every variable

import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(32, activation="relu"), tf.keras.layers.Dense(10)])
opt = tf.keras.optimizers.Adam(1e-3)
x = tf.random.normal((128, 16))
y = tf.random.uniform((128,), maxval=10, dtype=tf.int64)

with tf.GradientTape() as tape:
    logits = model(x, training=True)
    correct = tf.equal(tf.argmax(logits, axis=1), y)
    loss = 1.0 - tf.reduce_mean(tf.cast(correct, tf.float32))
grads = tape.gradient(loss, model.trainable_variables)
opt.apply_gradients(zip(grads, model.trainable_variables))  # ValueError: No gradients provided
