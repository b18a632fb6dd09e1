# source: https://github.com/keras-team/keras/issues/14287
# framework: tf
# family: B
# kind: tf-gradient-wrt-model-object
# pitfall: tape.gradient is asked for the gradient with respect to the Keras model object itself instead of its variables; the tape cannot use a Model as a source (AttributeError: 'Sequential' object has no attribute '_id'); the reporter's fix: tape.gradient(loss, training_model.trainable_variables)
# expect: line 28 — tape.gradient with a keras Model, not its trainable_variables, as the sources
# checked: parse-only (the method of a larger successor-features agent; the branch models and the R layer live elsewhere in the reporter's class)
import numpy as np
from tensorflow import GradientTape
from tensorflow.keras.losses import mean_squared_error
from tensorflow.keras.optimizers import RMSprop
import tensorflow as tf


class SFAgent:
    def learn_mu(self, state, state_, action_index):
        w = self.branch_1_model.get_layer('R').get_weights()[0]
        mus_ = []
        for i in range(self.n_actions):
            mus_.append(self.branch_2_model[i](state_))
        mus_ = np.squeeze(mus_)
        max_index = np.argmax(np.squeeze(np.matmul(mus_, w)), axis=0)
        training_model = self.branch_2_model[action_index]
        with tf.GradientTape() as tape:
            pred = training_model(state)
            label = state + self.gamma * mus_[max_index]
            loss = mean_squared_error(label, pred)
        grads = tape.gradient(loss, training_model)     # error position
        RMSprop().apply_gradients(zip(grads, training_model.trainable_variables))
        self.branch_2_model[action_index] = training_model
