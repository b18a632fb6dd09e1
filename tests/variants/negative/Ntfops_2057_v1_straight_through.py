# source: variant of 2057_keras_lambda_round_clip_intermediate.py
# framework: tf
# kind: keras-lambda-nondiff
# negative: the rounding in the Lambda layer uses a straight-through estimator x + stop_gradient(round(x) - x)
# mimics: positive/2057_v1_tf_round_clip_by_value.py
# expect: no finding
# checked: ran (first Dense kernel/bias gradients are not None)
import tensorflow as tf
from tensorflow.keras.layers import Input, Dense, Lambda
from tensorflow.keras.models import Model

inp = Input(shape=(16,))
hidden = Dense(8)(inp)
clipped = Lambda(lambda x: tf.clip_by_value(x, 0.0, 1.0))(hidden)
quantized = Lambda(lambda x: x + tf.stop_gradient(tf.round(x) - x))(clipped)
pred = Dense(1)(quantized)

model = Model(inp, pred)
model.compile(loss="mse", optimizer="adam")

with tf.GradientTape() as tape:
    loss = tf.reduce_mean(tf.square(model(tf.random.normal((4, 16)))))
print(tape.gradient(loss, model.trainable_variables)[:2])
