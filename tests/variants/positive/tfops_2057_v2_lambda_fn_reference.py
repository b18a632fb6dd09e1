# source: variant of 2057_keras_lambda_round_clip_intermediate.py
# framework: tf
# family: E
# kind: keras-lambda-nondiff
# pitfall: a Lambda layer is given tf.math.round directly as its function, between two Dense layers; round has no gradient, so the first Dense layer never learns
# expect: line 14 — Lambda(tf.math.round) on the intermediate activation
# checked: ran, reproduces (gradients of the first Dense kernel/bias are None under a GradientTape)
import tensorflow as tf
from tensorflow import keras

model = keras.Sequential([
    keras.Input(shape=(16,)),
    keras.layers.Dense(8, activation="sigmoid"),
    keras.layers.Lambda(tf.math.round),
    keras.layers.Dense(1),
])
model.compile(loss="mse", optimizer="adam")

with tf.GradientTape() as tape:
    loss = tf.reduce_mean(tf.square(model(tf.random.normal((4, 16)))))
print(tape.gradient(loss, model.trainable_variables)[:2])  # [None, None]
