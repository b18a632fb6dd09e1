# source: variant of 3055_tf1_round_network_output_in_loss.py
# framework: tf
# family: B
# kind: tf-tape-conversion
# pitfall: tf.round is applied to the network output inside the tape; Round has no gradient, so no model variable gets a gradient
# expect: line 17 — tf.round on the network output on the path to the loss (no gradient)
# checked: ran, reproduces (ValueError: No gradients provided for any variable)
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(1)])
optimizer = tf.keras.optimizers.Adam(1e-3)


@tf.function
def train_step(x, y):
    with tf.GradientTape() as tape:
        pred = tf.round(model(x, training=True))
        loss = tf.reduce_mean(tf.square(pred - y))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss


train_step(tf.random.normal((8, 4)), tf.ones((8, 1)))
