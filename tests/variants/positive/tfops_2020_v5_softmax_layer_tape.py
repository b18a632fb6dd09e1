# source: variant of 2020_tf1_log_of_softmax_cross_entropy.py
# framework: tf
# family: E
# kind: nan-grad-singular-point
# pitfall: the model ends in a tf.keras.layers.Softmax() layer and the train step takes tf.math.log of its output for a hand-written cross entropy; once a probability underflows to 0 the log is -inf and the gradients become NaN
# expect: line 23 — tf.math.log(probs) of the softmax-layer output that can reach 0
# checked: ran, reproduces (loss nan, NaN kernel gradient for a large-logit input)
import numpy as np
import tensorflow as tf

model = tf.keras.Sequential([
    tf.keras.Input(shape=(4,)),
    tf.keras.layers.Dense(10),
    tf.keras.layers.Softmax(),
])
model.layers[0].kernel.assign(np.eye(4, 10, dtype=np.float32) * 100.0)
optimizer = tf.keras.optimizers.SGD(0.01)


def train_step(x, y):
    with tf.GradientTape() as tape:
        probs = model(x, training=True)
        loss = -tf.reduce_mean(tf.reduce_sum(y * tf.math.log(probs), axis=-1))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss, grads


loss, grads = train_step(np.full((1, 4), 10.0, np.float32) * np.eye(1, 4, dtype=np.float32), np.eye(10, dtype=np.float32)[[5]])
print(loss.numpy(), np.isnan(grads[0].numpy()).any())  # nan True
