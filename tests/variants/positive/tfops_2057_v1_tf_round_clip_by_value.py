# source: variant of 2057_keras_lambda_round_clip_intermediate.py
# framework: tf
# family: E
# kind: keras-lambda-nondiff
# pitfall: an intermediate activation is clipped and rounded in a Lambda layer (tf.round(tf.clip_by_value(...))); round has no gradient, so the Dense layer before it never learns
# expect: line 14 — Lambda layer applying tf.round to an intermediate activation on the path to the loss
# checked: ran, reproduces (gradients of the first Dense kernel/bias are None under a GradientTape)
import tensorflow as tf
from tensorflow.keras.layers import Input, Dense, Lambda
from tensorflow.keras.models import Model

inp = Input(shape=(16,))
hidden = Dense(8)(inp)
quantized = Lambda(lambda x: tf.round(tf.clip_by_value(x, 0.0, 1.0)))(hidden)
pred = Dense(1)(quantized)

model = Model(inp, pred)
model.compile(loss="mse", optimizer="adam")

with tf.GradientTape() as tape:
    loss = tf.reduce_mean(tf.square(model(tf.random.normal((4, 16)))))
print(tape.gradient(loss, model.trainable_variables)[:2])  # [None, None]
