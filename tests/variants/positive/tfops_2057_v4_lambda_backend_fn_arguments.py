# source: variant of 2057_keras_lambda_round_clip_intermediate.py
# framework: tf
# family: E
# kind: keras-lambda-nondiff
# pitfall: a Lambda layer is given the backend function K.argmax itself, with its axis passed through Lambda's `arguments=`, on an intermediate activation; argmax has no gradient, so the layers before it never learn
# expect: line 15 — Lambda(K.argmax, arguments=...) on the intermediate activation
# checked: ran, reproduces (gradients of the first Dense kernel/bias are None under a GradientTape)
import tensorflow as tf
from tensorflow.keras import backend as K
from tensorflow.keras.layers import Input, Dense, Lambda
from tensorflow.keras.models import Model

inp = Input(shape=(16,))
h = Dense(8)(inp)
idx = Lambda(K.argmax, arguments={"axis": -1})(h)
idx = Lambda(lambda t: K.expand_dims(K.cast(t, "float32")))(idx)
pred = Dense(1)(idx)
model = Model(inp, pred)
model.compile(loss="mse", optimizer="adam")

with tf.GradientTape() as tape:
    loss = tf.reduce_mean(tf.square(model(tf.random.normal((4, 16)))))
print(tape.gradient(loss, model.trainable_variables)[:2])  # [None, None]
