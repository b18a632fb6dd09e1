# source: variant of 2232_tf_train_step_receives_precomputed_logits.py
# framework: tf
# family: B
# kind: tf-tape-scope
# pitfall: train_step receives the model, the optimizer and predictions computed by the caller outside the tape; only the loss is recorded, so tape.gradient(loss, model.trainable_variables) is all None
# expect: line 25 — predictions = model(images) computed in the loop, outside the tape opened in train_step
# checked: ran, reproduces (ValueError: No gradients provided for any variable)
import tensorflow as tf


@tf.function
def train_step(model, optimizer, predictions, labels):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.keras.losses.categorical_crossentropy(labels, predictions))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss


model = tf.keras.Sequential([tf.keras.Input((5,)), tf.keras.layers.Dense(3, activation="softmax")])
optimizer = tf.keras.optimizers.SGD(0.1)
for step in range(2):
    images = tf.random.normal((4, 5))
    labels = tf.one_hot(tf.zeros((4,), tf.int32), 3)
    predictions = model(images)
    train_step(model, optimizer, predictions, labels)
