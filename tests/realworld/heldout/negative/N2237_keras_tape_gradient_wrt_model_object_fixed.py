# source: https://github.com/keras-team/keras/issues/14287
# framework: tf
# kind: tf-gradient-wrt-model-object
# negative: the reporter's fix — the gradient is taken with respect to training_model.trainable_variables
# mimics: positive/2237_keras_tape_gradient_wrt_model_object.py
# expect: no finding
# checked: parse-only
import numpy as np
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
        grads = tape.gradient(loss, training_model.trainable_variables)
        RMSprop().apply_gradients(zip(grads, training_model.trainable_variables))
        self.branch_2_model[action_index] = training_model
