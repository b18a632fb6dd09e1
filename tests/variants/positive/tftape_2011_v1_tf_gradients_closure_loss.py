# source: variant of 2011_keras_gp_loss_k_gradients_symbolic.py
# framework: tf
# family: B
# kind: keras-symbolic-tensor
# pitfall: the WGAN-GP penalty is a compiled loss closure calling tf.gradients on the symbolic interpolated Input; in TF2 the loss runs inside Keras' train function, where the symbolic KerasTensor is not part of the traced graph, so the gradient cannot be computed
# expect: line 15 — tf.gradients(y_pred, interpolated) on a symbolic Keras input inside a compiled loss
# checked: ran, reproduces (fit() fails: the KerasTensor captured by the loss cannot be used inside the traced train function)
import numpy as np
import tensorflow as tf
import keras


def make_gp_loss(interpolated):
    def gp_loss(y_true, y_pred):
        grads = tf.gradients(y_pred, interpolated)[0]
        norm = tf.sqrt(tf.reduce_sum(tf.square(grads), axis=1) + 1e-12)
        return tf.reduce_mean(tf.square(1.0 - norm))
    return gp_loss


interp = keras.Input((4,))
critic_out = keras.layers.Dense(1)(keras.layers.Dense(8, activation="relu")(interp))
critic = keras.Model(interp, critic_out)
critic.compile(optimizer=keras.optimizers.RMSprop(5e-5), loss=make_gp_loss(interp))
critic.fit(np.random.rand(8, 4).astype("float32"), np.zeros((8, 1), "float32"), epochs=1, verbose=0)
