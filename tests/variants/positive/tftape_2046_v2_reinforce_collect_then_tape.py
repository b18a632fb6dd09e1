# source: variant of 2046_keras_actor_critic_tape_moved_after_rollout.py
# framework: tf
# family: B
# kind: tf-tape-scope
# pitfall: REINFORCE: the policy is evaluated on every step of the rollout loop before the tape exists; the tape wrapped around the final loss records only a sum of constants, so no policy weight gets a gradient
# expect: line 18 — logits = policy(obs[None]) runs in the rollout loop, outside the GradientTape opened afterwards
# checked: ran, reproduces (ValueError: No gradients provided for any variable)
import numpy as np
import tensorflow as tf

policy = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(2)])
optimizer = tf.keras.optimizers.Adam(1e-3)

for episode in range(2):
    logps, rewards = [], []
    obs = np.random.rand(3).astype(np.float32)
    for t in range(5):
        logits = policy(obs[None])
        action = int(tf.random.categorical(logits, 1)[0, 0])
        logps.append(tf.nn.log_softmax(logits)[0, action])
        obs = np.random.rand(3).astype(np.float32)
        rewards.append(float(action))
    ret = np.cumsum(rewards[::-1])[::-1].astype(np.float32)
    with tf.GradientTape() as tape:
        loss = -tf.reduce_sum(tf.stack(logps) * ret)
    grads = tape.gradient(loss, policy.trainable_variables)
    optimizer.apply_gradients(zip(grads, policy.trainable_variables))
