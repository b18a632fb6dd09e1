# source: variant of 2055_tf_custom_loss_count_nonzero_round.py
# framework: tf
# family: E
# kind: nondiff-op-on-loss-path
# pitfall: the custom loss counts correct predictions with tf.math.count_nonzero(tf.equal(tf.round(pred), y)); rounding, equality and counting have no gradient, so the tape returns None for every weight
# expect: line 12 — the loss is built from count_nonzero of an equality on rounded predictions
# checked: ran, reproduces (gradients [None, None])
import tensorflow as tf


def accuracy_loss(labels, prediction):
    correct = tf.math.count_nonzero(tf.equal(tf.round(prediction), labels))
    total = tf.size(labels, out_type=tf.int64)
    return 1.0 - tf.cast(correct, tf.float32) / tf.cast(total, tf.float32)


@tf.function
def train_step(model, optimizer, x, labels):
    with tf.GradientTape() as tape:
        prediction = model(x, training=True)
        loss = accuracy_loss(labels, prediction)
    grads = tape.gradient(loss, model.trainable_weights)
    return loss, grads


model = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(1, activation="sigmoid")])
loss, grads = train_step(model, tf.keras.optimizers.Adam(), tf.random.normal((8, 4)), tf.ones((8, 1)))
print(grads)  # [None, None]
