# source: variant of 2007_keras_lambda_tf_argmax_layer.py
# framework: tf
# family: E
# kind: keras-lambda-nondiff
# pitfall: a subclassed Model keeps an argmax Lambda layer on self and applies it last in call(); argmax has no gradient, so fit() finds no gradient for any variable
# expect: line 16 — the Lambda(lambda q: tf.argmax ...) layer built in __init__ and used as the output
# checked: ran, reproduces (ValueError: No gradients provided for any variable)
import numpy as np
import tensorflow as tf


class Classifier(tf.keras.Model):
    def __init__(self, n_classes=3):
        super().__init__()
        self.dense = tf.keras.layers.Dense(n_classes)
        self.to_label = tf.keras.layers.Lambda(lambda q: tf.cast(tf.argmax(q, axis=-1), tf.float32))

    def call(self, x):
        return self.to_label(self.dense(x))


model = Classifier()
model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mae")
model.fit(np.ones((32, 4)), np.zeros((32,)), epochs=1, verbose=0)
