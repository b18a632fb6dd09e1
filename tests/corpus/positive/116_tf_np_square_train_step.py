# source: https://www.tensorflow.org/guide/autodiff#cases_where_gradient_returns_none
# family: A
# pitfall: eager train_step helper squares the residual with np.square inside the tape (NumPy ufunc on an EagerTensor)
# expect: line 18 — np.square converts the residual to an ndarray: the tape cannot trace through it, gradients are None ("No gradients provided for any variable")

import numpy as np
import tensorflow as tf
from tensorflow import keras


def build_model():
    return keras.Sequential([keras.layers.Dense(32, activation="tanh"), keras.layers.Dense(1)])


def train_step(model, opt, x, y):
    with tf.GradientTape() as tape:
        y_pred = model(x, training=True)
        sq = np.square(y - y_pred)
        loss = tf.reduce_mean(sq)
    grads = tape.gradient(loss, model.trainable_variables)
    opt.apply_gradients(zip(grads, model.trainable_variables))
    return float(loss)


if __name__ == "__main__":
    model, opt = build_model(), keras.optimizers.SGD(0.01)
    x = tf.random.normal((256, 4))
    y = tf.reduce_sum(x, axis=1, keepdims=True)
    for epoch in range(10):
        print(epoch, train_step(model, opt, x, y))
