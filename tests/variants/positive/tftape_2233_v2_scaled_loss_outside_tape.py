# source: variant of 2233_tf_wae_gradient_of_negated_loss_outside_tape.py
# framework: tf
# family: B
# kind: tf-tape-scope
# pitfall: the loss is weighted (loss * self.loss_weight) in the gradient call, after the tape block closed; the product was never recorded, so tape.gradient returns None for every variable
# expect: line 20 — tape.gradient of loss * self.loss_weight, an expression built after the tape context closed
# checked: ran, reproduces (ValueError: No gradients provided for any variable)
import tensorflow as tf


class Learner:
    def __init__(self, model, loss_weight=0.5):
        self.model = model
        self.loss_weight = loss_weight
        self.opt = tf.keras.optimizers.Adam(1e-3)

    def update(self, x, y):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(self.model(x) - y))
        grads = tape.gradient(loss * self.loss_weight, self.model.trainable_variables)
        self.opt.apply_gradients(zip(grads, self.model.trainable_variables))
        return loss


Learner(tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(1)])).update(
    tf.random.normal((4, 3)), tf.random.normal((4, 1)))
