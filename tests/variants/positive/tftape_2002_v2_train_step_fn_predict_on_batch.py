# source: variant of 2002_tf_model_predict_in_tape.py
# framework: tf
# family: B
# kind: tf-tape-conversion
# pitfall: predict_on_batch returns a NumPy array, so the loss computed from it inside the tape has no path to the model's variables and every gradient is None
# expect: line 27 — model.predict_on_batch(images) inside the tape leaves the graph (NumPy result)
# checked: ran, reproduces (ValueError: No gradients provided for any variable)
import numpy as np
import tensorflow as tf


def build_model():
    return tf.keras.Sequential([
        tf.keras.Input((4,)),
        tf.keras.layers.Dense(16, activation="relu"),
        tf.keras.layers.Dense(3),
    ])


def compute_loss(labels, logits):
    return tf.reduce_mean(
        tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits))


def train_step(model, optimizer, images, labels):
    with tf.GradientTape() as tape:
        logits = model.predict_on_batch(images)
        loss = compute_loss(labels, logits)
    grads = tape.gradient(loss, model.trainable_weights)
    optimizer.apply_gradients(zip(grads, model.trainable_weights))
    return loss


model = build_model()
optimizer = tf.keras.optimizers.SGD(0.1)
images = np.random.rand(8, 4).astype("float32")
labels = np.random.randint(0, 3, size=(8,))
train_step(model, optimizer, images, labels)
