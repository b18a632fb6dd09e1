# source: variant of 2012_keras_loss_double_argsort_ranks.py
# framework: tf
# family: E
# kind: nondiff-op-on-loss-path
# pitfall: a Keras 3 ranking loss (keras.ops) compares ops.argsort(ops.argsort(...)) integer ranks of the scores inside a custom train_step; argsort has no gradient, so the tape gives None for every variable
# expect: line 15 — ops.argsort of the predicted scores yields integer ranks with no gradient
# checked: ran, reproduces (tape.gradient returns [None, None])
import tensorflow as tf
import keras
from keras import ops


def spearman_like_loss(y_true, y_pred):
    r_true = ops.cast(ops.argsort(ops.argsort(y_true)), "float32")
    r_pred = ops.cast(ops.argsort(ops.argsort(y_pred)), "float32")
    return ops.mean(ops.square(r_true - r_pred))


class Ranker(keras.Model):
    def __init__(self):
        super().__init__()
        self.score = keras.layers.Dense(5)

    def call(self, x):
        return self.score(x)

    def train_step(self, data):
        x, y = data
        with tf.GradientTape() as tape:
            loss = spearman_like_loss(y, self(x, training=True))
        grads = tape.gradient(loss, self.trainable_variables)
        print(grads)  # [None, None]
        return {"loss": loss}


model = Ranker()
model.build((None, 6))
model.train_step((tf.random.normal((8, 6)), tf.random.normal((8, 5))))
