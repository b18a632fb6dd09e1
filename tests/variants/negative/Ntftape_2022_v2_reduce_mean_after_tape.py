# source: fixed twin of 2022_v2_reduce_mean_after_tape.py
# framework: tf
# family: B
# kind: tf-tape-scope
# pitfall: none (the mean is taken inside the tape; a metric is computed after it)
# checked: ran, trains
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(2)])
optimizer = tf.keras.optimizers.Adam(1e-3)


def train_step(x, labels):
    with tf.GradientTape() as tape:
        logits = model(x, training=True)
        per_example = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits)
        loss = tf.reduce_mean(per_example)
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    accuracy = tf.reduce_mean(tf.cast(tf.argmax(logits, -1, output_type=tf.int32) == labels, tf.float32))
    return loss, accuracy


train_step(tf.random.normal((4, 3)), tf.constant([0, 1, 0, 1]))
