# source: variant of 2231_keras_model_call_assigns_input_into_weight.py
# framework: tf
# family: B
# kind: tf-variable-assign-in-tape
# pitfall: the potential-energy layer's call writes its input into a weight with self.position.assign(inputs) and computes from the weight; assign is not differentiable, so the gradient of the energy with respect to the input is None
# expect: line 17 — Variable.assign of the differentiated input inside the layer's call
# checked: ran, reproduces (gradient None)
import tensorflow as tf
import keras


class Potential(keras.layers.Layer):
    def build(self, input_shape):
        self.position = self.add_weight(name="position", shape=input_shape[1:], initializer="zeros")

    def call(self, inputs):
        self.position.assign(inputs[0])
        return 0.5 * keras.ops.sum(keras.ops.square(self.position))


energy = Potential()
q = tf.constant([[1.0, 2.0]])
energy(q)
with tf.GradientTape() as tape:
    tape.watch(q)
    u = energy(q)
print(tape.gradient(u, q))
