# source: variant of 2213_keras_lambda_greater_binary_mask_output.py
# framework: tf
# family: E
# kind: keras-lambda-nondiff
# pitfall: the Lambda output layer binarizes the sigmoid output with tf.where(p > 0.5, 1.0, 0.0); both branches are constants and the condition has no gradient, so fit() finds no gradient for any variable
# expect: line 13 — the tf.where threshold in the Lambda layer that is the model's output
# checked: ran, reproduces (ValueError: No gradients provided for any variable)
import numpy as np
import tensorflow as tf

x_in = tf.keras.Input(shape=(10,))
p = tf.keras.layers.Dense(4, activation="sigmoid")(x_in)
binary = tf.keras.layers.Lambda(lambda t: tf.where(t > 0.5, 1.0, 0.0))(p)
model = tf.keras.Model(x_in, binary)
model.compile(optimizer="adam", loss="binary_crossentropy")
model.fit(np.random.rand(8, 10), np.random.randint(0, 2, (8, 4)).astype("float32"), verbose=0)
