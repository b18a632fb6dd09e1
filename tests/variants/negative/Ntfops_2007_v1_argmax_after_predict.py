# source: variant of 2007_keras_lambda_tf_argmax_layer.py
# framework: tf
# kind: keras-lambda-nondiff
# negative: the model is trained on softmax probabilities; argmax is applied to model.predict(...) outside the trained model
# mimics: positive/2007_v1_inline_lambda_k3.py
# expect: no finding
# checked: ran (fit trains)
import numpy as np
import tensorflow as tf
import keras

inputs = keras.Input(shape=(4,))
probs = keras.layers.Dense(3, activation="softmax")(inputs)
model = keras.Model(inputs, probs)
model.compile(optimizer=keras.optimizers.SGD(0.1), loss="sparse_categorical_crossentropy")
model.fit(np.ones((32, 4)), np.zeros((32,)), batch_size=32, epochs=1, verbose=0)
labels = tf.argmax(model.predict(np.ones((4, 4)), verbose=0), axis=-1)
print(labels)
