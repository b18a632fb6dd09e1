# source: variant of 2049_tf_numpy_function_rollout_inside_tape.py
# framework: tf
# family: B
# kind: tf-tape-conversion
# pitfall: the policy logits are produced by a NumPy forward pass wrapped in tf.numpy_function inside the tape; numpy_function has no gradient, so the loss is disconnected from the model's variables
# expect: line 22 — tf.numpy_function produces the logits the loss is built from; numpy_function has no gradient
# checked: ran, reproduces (ValueError: No gradients provided for any variable)
import numpy as np
import tensorflow as tf


class Agent:
    def __init__(self):
        self.model = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(2)])
        self.optimizer = tf.keras.optimizers.Adam(1e-3)

    def _np_policy(self, obs):
        return self.model(obs).numpy().astype(np.float32)

    def train_step(self, obs, actions, returns):
        with tf.GradientTape() as tape:
            logits = tf.numpy_function(self._np_policy, [obs], tf.float32)
            neg_logp = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=actions, logits=logits)
            loss = tf.reduce_mean(neg_logp * returns)
        grads = tape.gradient(loss, self.model.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.model.trainable_variables))
        return loss


Agent().train_step(np.random.rand(5, 4).astype(np.float32), np.array([0, 1, 0, 1, 1]), np.ones(5, np.float32))
