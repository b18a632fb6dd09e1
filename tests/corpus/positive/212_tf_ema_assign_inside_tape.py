# source: https://www.tensorflow.org/guide/autodiff#4_took_gradients_through_a_stateful_object
# family: B
# pitfall: exponential moving average of the prediction is kept in a tf.Variable updated with .assign() inside the tape, and the loss is computed from the variable
# expect: line 17 — assign() is a stateful write that the tape cannot differentiate: the loss reads ema, which has no gradient path to the model

import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(16, activation="relu"), tf.keras.layers.Dense(1)])
opt = tf.keras.optimizers.Adam(1e-3)
ema = tf.Variable(0.0, trainable=False)
target = 2.5

for step in range(100):
    x = tf.random.normal((32, 4))
    with tf.GradientTape() as tape:
        pred = tf.reduce_mean(model(x, training=True))
        ema.assign(0.9 * ema + 0.1 * pred)
        loss = tf.square(ema - target)
    grads = tape.gradient(loss, model.trainable_variables)
    opt.apply_gradients(zip(grads, model.trainable_variables))  # "No gradients provided"
