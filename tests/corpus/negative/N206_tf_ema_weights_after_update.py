# source: https://www.tensorflow.org/api_docs/python/tf/train/ExponentialMovingAverage
# family: B
# negative: EMA shadow weights are updated with assign() after apply_gradients, outside the tape; the loss never reads them
# mimics: tf.Variable.assign in a training step
# expect: no finding

import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(16, activation="relu"), tf.keras.layers.Dense(1)])
model.build((None, 4))
shadow = [tf.Variable(v, trainable=False) for v in model.trainable_variables]
opt = tf.keras.optimizers.Adam(1e-3)
decay = 0.99

for step in range(100):
    x, y = tf.random.normal((32, 4)), tf.random.normal((32, 1))
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(x, training=True) - y))
    grads = tape.gradient(loss, model.trainable_variables)
    opt.apply_gradients(zip(grads, model.trainable_variables))
    for s, v in zip(shadow, model.trainable_variables):
        s.assign(decay * s + (1.0 - decay) * v)
