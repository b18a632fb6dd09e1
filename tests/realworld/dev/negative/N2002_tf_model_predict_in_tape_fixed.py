# source: https://github.com/tensorflow/tensorflow/issues/20630
# framework: tf
# kind: tf-tape-conversion
# negative: the accepted fix — call the model directly, model(x), inside the tape
# mimics: positive/2002_tf_model_predict_in_tape.py
# expect: no finding
# checked: ran, trains without error
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
with tf.GradientTape() as tape:
  error = model(x) - y  # NOT model.predict(x) - y
  loss_value = tf.reduce_mean(tf.square(error))
gradients = tape.gradient(loss_value, model.variables)
optimizer.apply_gradients(zip(gradients, model.variables))
