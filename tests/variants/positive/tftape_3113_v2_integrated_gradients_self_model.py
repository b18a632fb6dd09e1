# source: variant of 3113_tf_lstm_noise_input_not_watched.py
# framework: tf
# family: F
# kind: tf-tape-scope
# pitfall: integrated gradients: the interpolated inputs are a plain tensor that the tape never watched, so the gradient of the class score w.r.t. them is None
# expect: line 22 — tape.gradient(probs, interpolated) where `interpolated` is an unwatched tf.Tensor (no tape.watch)
# checked: ran, reproduces (None)
import tensorflow as tf
import keras


class IntegratedGradients:
    def __init__(self, model, steps=8):
        self.model = model
        self.steps = steps

    def attributions(self, baseline, image, target):
        alphas = keras.ops.linspace(0.0, 1.0, self.steps)[:, None]
        interpolated = baseline + alphas * (image - baseline)
        with tf.GradientTape() as tape:
            probs = keras.ops.softmax(self.model(interpolated), axis=-1)[:, target]
        grads = tape.gradient(probs, interpolated)
        return grads


model = keras.Sequential([keras.Input((5,)), keras.layers.Dense(3)])
print(IntegratedGradients(model).attributions(tf.zeros((1, 5)), tf.ones((1, 5)), 2))
