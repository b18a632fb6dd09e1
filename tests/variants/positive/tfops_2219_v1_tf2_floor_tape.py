# source: variant of 2219_tf1_floor_threshold_prediction_in_loss.py
# framework: tf
# family: E
# kind: nondiff-op-on-loss-path
# pitfall: the train step thresholds the sigmoid probabilities with tf.floor before the L1 loss; floor has no gradient, so the tape returns None for every weight
# expect: line 17 — tf.floor threshold of the model's probabilities, used as y_pred in the loss
# checked: ran, reproduces (gradients [None, None])
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.Input((20,)), tf.keras.layers.Dense(1), tf.keras.layers.Dropout(0.5)])
optimizer = tf.keras.optimizers.SGD(0.005)


def train_step(x, y_true):
    with tf.GradientTape() as tape:
        y_prob = tf.sigmoid(model(x, training=True))
        y_pred = tf.floor(y_prob + 0.5)
        loss = tf.reduce_mean(tf.abs(y_true - y_pred))
    grads = tape.gradient(loss, model.trainable_variables)
    print(grads)  # [None, None]
    return loss


train_step(tf.random.normal((8, 20)), tf.ones((8, 1)))
