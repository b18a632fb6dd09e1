# source: variant of 2057_keras_lambda_round_clip_intermediate.py
# framework: tf
# family: E
# kind: keras-lambda-nondiff
# pitfall: a Keras 3 Sequential model quantizes its hidden activation with Lambda(lambda x: ops.round(ops.clip(x, 0, 1))); round has no gradient, so the first Dense layer never learns
# expect: line 17 — Lambda layer applying ops.round to the intermediate activation
# checked: ran, reproduces (gradients of the first Dense kernel/bias are None under a GradientTape)
import tensorflow as tf
import keras
from keras import ops


def make_model(units=8):
    return keras.Sequential([
        keras.Input(shape=(16,)),
        keras.layers.Dense(units),
        keras.layers.Lambda(lambda x: ops.round(ops.clip(x, 0.0, 1.0))),
        keras.layers.Dense(1),
    ])


model = make_model()
model.compile(loss="mse", optimizer="adam")
with tf.GradientTape() as tape:
    loss = tf.reduce_mean(tf.square(model(tf.random.normal((4, 16)))))
print(tape.gradient(loss, model.trainable_variables)[:2])  # [None, None]
