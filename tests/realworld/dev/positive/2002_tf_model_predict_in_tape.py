# source: https://github.com/tensorflow/tensorflow/issues/20630
# framework: tf
# family: B
# kind: tf-tape-conversion
# pitfall: model.predict() returns a NumPy array, so the loss built from it inside the tape is disconnected from the model's variables and every gradient is None
# expect: line 28 — model.predict(x) inside the tape leaves the graph (NumPy result)
# checked: ran, reproduces (ValueError: No gradients provided for any variable)
import tensorflow as tf

n = 10
x = tf.random.normal([n, 2])
noise = tf.random.normal([n, 2])

y = x * 3 + 2 + noise

class Model(tf.keras.Model):
    def __init__(self):
        super(Model, self).__init__()
        self.dense1 = tf.keras.layers.Dense(units = 1, activation='relu')
    def call(self, inputs):
        return self.dense1(inputs)

optimizer = tf.keras.optimizers.SGD(learning_rate=0.01)

model = Model()
model(x)
with tf.GradientTape() as tape:
  error = model.predict(x) - y
  loss_value = tf.reduce_mean(tf.square(error))
gradients = tape.gradient(loss_value, model.variables)
optimizer.apply_gradients(zip(gradients, model.variables))
