# source: variant of 2009_tf_gradient_wrt_model_variables_bn.py
# framework: tf
# family: B
# kind: tf-tape-scope
# pitfall: gradients are requested for self.model.weights, which includes BatchNormalization's non-trainable moving statistics; those come back None and apply_gradients gets None gradients
# expect: line 21 — tape.gradient(loss, self.model.weights) asks for non-trainable variables
# checked: ran with a Dense+BatchNormalization model, reproduces (2 None gradients for the moving statistics)
import tensorflow as tf


class Trainer:
    def __init__(self):
        self.model = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(8),
                                          tf.keras.layers.BatchNormalization(), tf.keras.layers.Dense(1)])
        self.optimizer = tf.keras.optimizers.Adam(1e-3)
        self.loss_fn = tf.keras.losses.MeanSquaredError()

    def train_step(self, x, y):
        with tf.GradientTape() as tape:
            loss = self.loss_fn(y, self.model(x, training=True))
        grads = tape.gradient(loss, self.model.weights)
        print([g is None for g in grads])
        self.optimizer.apply_gradients(zip(grads, self.model.weights))
        return loss


Trainer().train_step(tf.random.normal((8, 4)), tf.random.normal((8, 1)))
