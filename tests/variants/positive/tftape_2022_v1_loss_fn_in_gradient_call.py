# source: variant of 2022_tf_gradient_target_computed_after_tape.py
# framework: tf
# family: B
# kind: tf-tape-scope
# pitfall: the loss is computed as the argument of tape.gradient, after the with-block closed; the tape recorded only the forward pass, not the loss, so every gradient is None
# expect: line 20 — the target self.loss_fn(y, pred) is computed in the gradient() call, outside the recording block
# checked: ran, reproduces (ValueError: No gradients provided for any variable)
import tensorflow as tf


class Trainer:
    def __init__(self, model):
        self.model = model
        self.loss_fn = tf.keras.losses.MeanSquaredError()
        self.optimizer = tf.keras.optimizers.SGD(0.01)

    def step(self, x, y):
        with tf.GradientTape() as tape:
            pred = self.model(x, training=True)
        grads = tape.gradient(self.loss_fn(y, pred), self.model.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.model.trainable_variables))


model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(1)])
Trainer(model).step(tf.random.normal((4, 3)), tf.random.normal((4, 1)))
