# source: fixed twin of 3055_v1_tf2_round_in_tape.py
# framework: tf
# family: B
# kind: tf-tape-conversion
# pitfall: none (round with a straight-through estimator: x + tf.stop_gradient(tf.round(x) - x))
# checked: ran, gradients present
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(1)])
optimizer = tf.keras.optimizers.Adam(1e-3)


@tf.function
def train_step(x, y):
    with tf.GradientTape() as tape:
        out = model(x, training=True)
        pred = out + tf.stop_gradient(tf.round(out) - out)
        loss = tf.reduce_mean(tf.square(pred - y))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss


train_step(tf.random.normal((8, 4)), tf.ones((8, 1)))
