# source: fixed twin of 2046_v1_agent_rollout_method.py
# framework: tf
# family: B
# kind: tf-tape-scope
# pitfall: none (the tape is opened around the whole episode, as in the keras-io example)
# checked: ran, trains
import numpy as np
import tensorflow as tf
from tensorflow import keras


class StubEnv:
    def reset(self):
        self.t = 0
        return np.zeros(4, dtype=np.float32)

    def step(self, action):
        self.t += 1
        return np.random.rand(4).astype(np.float32), 1.0, self.t >= 5


class ActorCritic:
    def __init__(self, num_actions=2, gamma=0.99):
        inputs = keras.Input((4,))
        common = keras.layers.Dense(16, activation="relu")(inputs)
        self.model = keras.Model(inputs, [keras.layers.Dense(num_actions, activation="softmax")(common),
                                          keras.layers.Dense(1)(common)])
        self.optimizer = keras.optimizers.Adam(1e-2)
        self.huber = keras.losses.Huber()
        self.gamma = gamma
        self.num_actions = num_actions

    def run_episode(self, env):
        log_probs, values, rewards = [], [], []
        state = env.reset()
        done = False
        while not done:
            probs, value = self.model(tf.expand_dims(state, 0))
            action = np.random.choice(self.num_actions, p=np.squeeze(probs))
            log_probs.append(tf.math.log(probs[0, action]))
            values.append(value[0, 0])
            state, reward, done = env.step(action)
            rewards.append(reward)
        return log_probs, values, rewards

    def train_episode(self, env):
        with tf.GradientTape() as tape:
            log_probs, values, rewards = self.run_episode(env)
            returns, g = [], 0.0
            for r in rewards[::-1]:
                g = r + self.gamma * g
                returns.insert(0, g)
            actor = [-lp * (ret - v) for lp, v, ret in zip(log_probs, values, returns)]
            critic = [self.huber([[v]], [[ret]]) for v, ret in zip(values, returns)]
            loss = tf.add_n(actor) + tf.add_n(critic)
        grads = tape.gradient(loss, self.model.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.model.trainable_variables))


ActorCritic().train_episode(StubEnv())
