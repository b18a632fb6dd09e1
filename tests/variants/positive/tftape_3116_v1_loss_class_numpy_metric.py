# source: variant of 3116_keras_custom_loss_numpy_external_binary.py
# framework: tf
# family: F
# kind: tf-tape-conversion
# pitfall: a keras.losses.Loss subclass converts y_pred with np.array() to compute an external perceptual score and adds the Python number to the loss; that term carries no gradient (and in a compiled train step the conversion raises)
# expect: line 19 — np.array(y_pred) inside the custom loss
# checked: ran, reproduces (NotImplementedError: numpy() is only available when eager execution is enabled / Cannot convert a symbolic tf.Tensor to a numpy array, raised from the traced train step)
import numpy as np
import keras


def external_score(signal):
    return float(np.mean(np.abs(np.fft.rfft(signal, axis=-1))))


class PerceptualLoss(keras.losses.Loss):
    def call(self, y_true, y_pred):
        mse = keras.ops.mean(keras.ops.square(y_pred - y_true), axis=-1)
        signal = np.array(y_pred)
        return mse + external_score(signal)


model = keras.Sequential([keras.Input((16,)), keras.layers.Dense(16)])
model.compile(optimizer="adam", loss=PerceptualLoss())
model.fit(np.zeros((4, 16)), np.zeros((4, 16)), epochs=1, verbose=0)
