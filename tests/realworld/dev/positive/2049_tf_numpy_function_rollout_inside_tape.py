# source: https://github.com/tensorflow/tensorflow/issues/47288
# framework: tf
# family: B
# kind: tf-tape-conversion
# pitfall: the policy and value logits come out of tf.numpy_function(self.np_train_step, ...), which runs the model in NumPy and has no gradient; everything the loss is built from is disconnected from the model's variables, so apply_gradients reports No gradients provided for any variable
# expect: line 23 — tf.numpy_function produces the logits the loss is built from; numpy_function has no gradient
# checked: ran a reduced equivalent (model called inside the numpy function, loss from its outputs): gradients [None, None]; the report's loss and update lines after `returns` are cut off in the thread and completed minimally here
import tensorflow as tf


class Agent:
    def train_step(self):
        with tf.GradientTape() as tape:
            (
                _,
                rewards,
                actions,
                value_logits,
                dones,
                _,
                entropies,
                actor_logits,
            ) = tf.numpy_function(
                self.np_train_step, [], [tf.float32 for _ in range(8)]
            )
            action_probs = tf.nn.softmax(actor_logits)
            values = tf.reduce_sum(action_probs * value_logits, axis=-1)
            action_indices = self.get_action_indices(self.batch_indices, actions)
            selected_probs = tf.gather_nd(action_probs, action_indices)
            selected_logits = tf.gather_nd(value_logits, action_indices)
            importance_ratio = action_probs / (action_probs + self.epsilon)
            action_importance = tf.gather_nd(importance_ratio, action_indices)
            loss = -tf.reduce_mean(tf.math.log(selected_probs) * action_importance) + tf.reduce_mean(
                tf.square(selected_logits - values)
            )
        grads = tape.gradient(loss, self.model.trainable_variables)
        self.model.optimizer.apply_gradients(zip(grads, self.model.trainable_variables))
