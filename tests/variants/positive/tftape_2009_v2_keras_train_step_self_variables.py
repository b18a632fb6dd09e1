# source: variant of 2009_tf_gradient_wrt_model_variables_bn.py
# framework: tf
# family: B
# kind: tf-tape-scope
# pitfall: a custom train_step differentiates with respect to self.variables, which includes BatchNormalization's moving mean/variance; their gradients are None and the optimizer is handed non-trainable variables
# expect: line 28 — tape.gradient(loss, self.variables) asks for non-trainable variables
# checked: ran with run_eagerly=True, reproduces (2 None gradients for the moving statistics; the optimizer then raises on the unknown variables)
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
        grads = tape.gradient(loss, self.variables)
        print(sum(g is None for g in grads), "None gradients")
        self.optimizer.apply_gradients(zip(grads, self.variables))
        return {"loss": loss}


model = Net()
model.compile(optimizer="adam", run_eagerly=True)
model.fit(np.random.rand(16, 4).astype("float32"), np.random.rand(16, 1).astype("float32"), epochs=1, batch_size=8, verbose=0)
