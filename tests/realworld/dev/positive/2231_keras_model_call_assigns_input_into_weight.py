# source: https://github.com/tensorflow/tensorflow/issues/54532
# framework: tf
# family: B
# kind: tf-variable-assign-in-tape
# pitfall: to evaluate a log-posterior at x, the model's call assigns x into its weight (self.w.assign(x)) and computes from the weight; assign is not differentiable, so tape.gradient of the result with respect to x is None and Hamiltonian Monte Carlo cannot run
# expect: line 17 — Variable.assign of the differentiated input inside the model's call; the tape cannot connect the output to x
# checked: ran (tensorflow-cpu 2.21, with add_weight(name=...) as Keras 3 requires), reproduces (gradient None); the thread's excerpt shows the model up to add_weight, the call that reassigns w with x is reconstructed from the reporter's description ("I reassign its parameter w with x", expected gradient: w)
import tensorflow as tf

class DummyModel(tf.keras.Model):
    def __init__(self):
        super().__init__()
        pass
    def build(self, input_shape):
        self.w = self.add_weight('w', shape=(), dtype=tf.float64, trainable=True)
    def call(self, x):
        self.w.assign(x)
        return 0.5 * self.w ** 2

model = DummyModel()
x = tf.constant(2.0, dtype=tf.float64)
model(x)
with tf.GradientTape() as tape:
    tape.watch(x)
    y = model(x)
print(tape.gradient(y, x))  # None
