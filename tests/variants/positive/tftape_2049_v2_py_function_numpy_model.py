# source: variant of 2049_tf_numpy_function_rollout_inside_tape.py
# framework: tf
# family: B
# kind: tf-tape-conversion
# pitfall: the value estimates come out of tf.py_function wrapping a function that runs the model and returns NumPy; the NumPy round trip has no gradient, so the critic loss is disconnected from the model's variables
# expect: line 21 — tf.py_function(np_values, ...) produces the values the loss is built from; the NumPy result carries no gradient
# checked: ran, reproduces (ValueError: No gradients provided for any variable)
import numpy as np
import tensorflow as tf

critic = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(1)])
optimizer = tf.keras.optimizers.Adam(1e-3)


def np_values(states):
    return critic(states).numpy()[:, 0]


def train_critic(states, returns):
    with tf.GradientTape() as tape:
        values = tf.py_function(np_values, [states], tf.float32)
        loss = tf.reduce_mean(tf.square(returns - values))
    grads = tape.gradient(loss, critic.trainable_variables)
    optimizer.apply_gradients(zip(grads, critic.trainable_variables))


train_critic(tf.random.normal((6, 3)), tf.ones(6))
