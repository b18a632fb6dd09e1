# source: variant of 2042_tf_tape_watch_model_inputs_symbolic.py
# framework: tf
# family: B
# kind: tf-tape-scope
# pitfall: the saliency explainer watches self.model.inputs (the model's symbolic Keras inputs) instead of the eager batch it feeds to the model, so no input gradient can be computed
# expect: line 17 — tape.watch(self.model.inputs) watches symbolic placeholders, not the tensor passed to the model
# checked: ran on Keras 3, reproduces (tape.watch rejects the symbolic KerasTensor)
import tensorflow as tf


class SaliencyExplainer:
    def __init__(self, model):
        self.model = model

    def explain(self, batch, class_idx):
        with tf.GradientTape() as tape:
            tape.watch(self.model.inputs)
            scores = self.model(batch)[:, class_idx]
        grads = tape.gradient(scores, self.model.inputs)
        return tf.reduce_max(tf.abs(grads[0]), axis=-1)


model = tf.keras.Sequential([tf.keras.Input((6, 3)), tf.keras.layers.Flatten(), tf.keras.layers.Dense(4)])
SaliencyExplainer(model).explain(tf.random.normal((2, 6, 3)), 1)
