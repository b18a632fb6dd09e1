# source: https://keras.io/examples/rl/ddpg_pendulum/
# family: A
# pitfall: DDPG actor update obtains the actions with actor_model.predict(...) inside the tape before feeding them to the critic
# expect: line 19 — predict() leaves the tape: -Q(s, mu(s)) is not connected to the actor weights and actor_grad is a list of None

import numpy as np
import tensorflow as tf
from tensorflow import keras

num_states, num_actions = 3, 1
actor_model = keras.Sequential([keras.layers.Dense(64, activation="relu"), keras.layers.Dense(num_actions, activation="tanh")])
critic_model = keras.Sequential([keras.layers.Dense(64, activation="relu"), keras.layers.Dense(1)])
actor_model.build((None, num_states))
actor_optimizer = keras.optimizers.Adam(1e-3)

state_batch = tf.convert_to_tensor(np.random.randn(64, num_states), dtype=tf.float32)

with tf.GradientTape() as tape:
    actions = actor_model.predict(state_batch, verbose=0)
    critic_value = critic_model(tf.concat([state_batch, actions], axis=1), training=True)
    actor_loss = -tf.math.reduce_mean(critic_value)

actor_grad = tape.gradient(actor_loss, actor_model.trainable_variables)
actor_optimizer.apply_gradients(zip(actor_grad, actor_model.trainable_variables))
