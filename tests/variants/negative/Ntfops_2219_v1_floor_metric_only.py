# source: variant of 2219_tf1_floor_threshold_prediction_in_loss.py
# framework: tf
# kind: nondiff-op-on-loss-path
# negative: the L1 loss uses the sigmoid probabilities; the floor threshold is only reported as a metric
# mimics: positive/2219_v1_tf2_floor_tape.py
# expect: no finding
# checked: ran (gradients not None)
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.Input((20,)), tf.keras.layers.Dense(1), tf.keras.layers.Dropout(0.5)])
optimizer = tf.keras.optimizers.SGD(0.005)


def train_step(x, y_true):
    with tf.GradientTape() as tape:
        y_prob = tf.sigmoid(model(x, training=True))
        loss = tf.reduce_mean(tf.abs(y_true - y_prob))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    y_pred = tf.floor(y_prob + 0.5)
    acc = tf.reduce_mean(tf.cast(tf.equal(y_pred, y_true), tf.float32))
    return loss, acc


print(train_step(tf.random.normal((8, 20)), tf.ones((8, 1))))
