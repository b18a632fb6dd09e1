# source: https://github.com/ageron/handson-ml2/issues/604
# framework: tf
# kind: nondiff-op-on-loss-path
# negative: the sampled action (a comparison cast to float) is used only as the label y_target of the loss; the gradient flows through left_proba, and int(action) is used after the tape for env.step
# mimics: positive/2012_keras_loss_double_argsort_ranks.py
# expect: no finding
# checked: parse only (needs a gym environment)
import numpy as np
import tensorflow as tf


def play_one_step(env, obs, model, loss_fn):
    with tf.GradientTape() as tape:
        left_proba = model(obs[np.newaxis])
        action = (tf.random.uniform([1, 1]) > left_proba)
        y_target = tf.constant([[1.]]) - tf.cast(action, tf.float32)
        loss = tf.reduce_mean(loss_fn(y_target, left_proba))

    grads = tape.gradient(loss, model.trainable_variables)
    obs, reward, done, truncated, info = env.step(int(action))
    return obs, reward, done, truncated, grads
