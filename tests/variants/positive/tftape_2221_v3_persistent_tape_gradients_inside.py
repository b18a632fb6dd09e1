# source: variant of 2221_tf_dcgan_gradients_inside_tape_block.py
# framework: tf
# family: B
# kind: tf-tape-scope
# pitfall: a single persistent tape serves the actor and the critic, and both gradient calls are indented into its `with` block; the persistent tape keeps recording, so it records the backward computations too (TensorFlow warns "Calling GradientTape.gradient on a persistent tape inside its context is significantly less efficient")
# expect: line 25 — tape.gradient called on the persistent tape inside its own `with` block
# checked: ran (trains; TensorFlow logs the "persistent tape inside its context is significantly less efficient" warning)
import tensorflow as tf


class A2C:
    def __init__(self):
        self.actor = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(2)])
        self.critic = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(1)])
        self.a_opt = tf.keras.optimizers.Adam(1e-3)
        self.c_opt = tf.keras.optimizers.Adam(1e-3)

    def learn(self, states, actions, returns):
        with tf.GradientTape(persistent=True) as tape:
            values = tf.squeeze(self.critic(states), -1)
            adv = returns - values
            logp = -tf.nn.sparse_softmax_cross_entropy_with_logits(labels=actions, logits=self.actor(states))
            actor_loss = -tf.reduce_mean(logp * tf.stop_gradient(adv))
            critic_loss = tf.reduce_mean(tf.square(adv))
            a_grads = tape.gradient(actor_loss, self.actor.trainable_variables)
            c_grads = tape.gradient(critic_loss, self.critic.trainable_variables)
        self.a_opt.apply_gradients(zip(a_grads, self.actor.trainable_variables))
        self.c_opt.apply_gradients(zip(c_grads, self.critic.trainable_variables))
        del tape


A2C().learn(tf.random.normal((6, 4)), tf.constant([0, 1, 0, 1, 1, 0]), tf.ones(6))
