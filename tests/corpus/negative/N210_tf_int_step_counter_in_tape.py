# source: https://www.tensorflow.org/api_docs/python/tf/Variable
# family: B
# negative: an integer non-trainable step counter is incremented with assign_add inside the tape; the loss does not depend on it and it is not a gradient source
# mimics: integer tf.Variable / Variable.assign inside GradientTape
# expect: no finding

import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(8, activation="relu"), tf.keras.layers.Dense(1)])
opt = tf.keras.optimizers.Adam(1e-3)
global_step = tf.Variable(0, trainable=False, dtype=tf.int64)


@tf.function
def train_step(x, y):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(x, training=True) - y))
        global_step.assign_add(1)
    grads = tape.gradient(loss, model.trainable_variables)
    opt.apply_gradients(zip(grads, model.trainable_variables))
    return loss


for _ in range(10):
    train_step(tf.random.normal((16, 3)), tf.random.normal((16, 1)))
print(int(global_step))
