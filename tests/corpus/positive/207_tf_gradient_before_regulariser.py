# source: synthetic
# family: B
# pitfall: tape.gradient is called inside the with-block and the L2 regulariser is added to the loss afterwards, still inside the block
# expect: line 16 — gradient taken inside the tape context before the loss is complete: the weight-decay term never reaches the gradients

import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(128, activation="relu"), tf.keras.layers.Dense(10)])
opt = tf.keras.optimizers.SGD(0.05)
ce = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
x, y = tf.random.normal((64, 20)), tf.random.uniform((64,), maxval=10, dtype=tf.int32)

for step in range(100):
    with tf.GradientTape() as tape:
        loss = ce(y, model(x, training=True))
        grads = tape.gradient(loss, model.trainable_variables)
        l2 = tf.add_n([tf.nn.l2_loss(v) for v in model.trainable_variables if "kernel" in v.name])
        loss += 5e-4 * l2
    opt.apply_gradients(zip(grads, model.trainable_variables))
