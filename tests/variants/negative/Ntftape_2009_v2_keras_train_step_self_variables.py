# source: fixed twin of 2009_v2_keras_train_step_self_variables.py
# framework: tf
# family: B
# kind: tf-tape-scope
# pitfall: none (gradients w.r.t. self.trainable_variables; BatchNormalization still in the model)
# checked: ran, trains
import numpy as np
import tensorflow as tf
import keras


class Net(keras.Model):
    def __init__(self):
        super().__init__()
        self.dense = keras.layers.Dense(8)
        self.bn = keras.layers.BatchNormalization()
        self.head = keras.layers.Dense(1)

    def call(self, x, training=False):
        return self.head(self.bn(self.dense(x), training=training))

    def train_step(self, data):
        x, y = data
        with tf.GradientTape() as tape:
            y_pred = self(x, training=True)
            loss = keras.ops.mean(keras.ops.square(y - y_pred))
        grads = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
        return {"loss": loss, "n_vars": len(self.variables)}


model = Net()
model.compile(optimizer="adam")
model.fit(np.random.rand(16, 4).astype("float32"), np.random.rand(16, 1).astype("float32"), epochs=1, batch_size=8, verbose=0)
