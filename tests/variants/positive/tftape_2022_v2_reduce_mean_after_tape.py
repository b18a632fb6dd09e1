# source: variant of 2022_tf_gradient_target_computed_after_tape.py
# framework: tf
# family: B
# kind: tf-tape-scope
# pitfall: the per-example losses are recorded inside the tape, but the mean is taken after the block closed; tape.gradient of the unrecorded mean returns None for every variable
# expect: line 18 — loss = tf.reduce_mean(per_example) is computed after the `with tf.GradientTape()` block
# checked: ran, reproduces (ValueError: No gradients provided for any variable)
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
    return loss


train_step(tf.random.normal((4, 3)), tf.constant([0, 1, 0, 1]))
