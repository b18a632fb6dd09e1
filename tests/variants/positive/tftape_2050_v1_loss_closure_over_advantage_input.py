# source: variant of 2050_keras_ppo_loss_closes_over_input_layers.py
# framework: tf
# family: B
# kind: keras-symbolic-tensor
# pitfall: the policy-gradient loss passed to compile() closes over the model's extra `advantage` Input layer; under TF2 / Keras 3 the compiled loss cannot use the symbolic KerasTensor, so fit() fails
# expect: line 22 — the compiled loss computes with advantages, a symbolic Input tensor captured from the model definition
# checked: ran, reproduces (ValueError: A KerasTensor cannot be used as input to a TensorFlow function)
import numpy as np
import tensorflow as tf
import keras
from keras import layers


def build_actor(state_dim, n_actions):
    state = layers.Input((state_dim,))
    advantages = layers.Input((1,))
    h = layers.Dense(16, activation="relu")(state)
    probs = layers.Dense(n_actions, activation="softmax")(h)

    def pg_loss(y_true, y_pred):
        log_lik = y_true * tf.math.log(tf.clip_by_value(y_pred, 1e-8, 1.0))
        return -tf.reduce_sum(log_lik * advantages)

    actor = keras.Model([state, advantages], probs)
    actor.compile(optimizer=keras.optimizers.Adam(1e-3), loss=pg_loss)
    return actor


actor = build_actor(4, 2)
actor.fit([np.random.rand(8, 4), np.random.rand(8, 1)], np.eye(2)[np.random.randint(0, 2, 8)], epochs=1, verbose=0)
