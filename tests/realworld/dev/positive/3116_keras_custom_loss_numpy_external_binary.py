# source: https://github.com/keras-team/keras/issues/12057
# framework: tf
# family: F
# kind: tf-tape-conversion
# pitfall: a Keras custom loss converts y_pred with .numpy(), writes it to a wav file, runs an external evaluator and adds the Python number it returns to the loss; that term (and anything computed from the numpy copy) carries no gradient.
# expect: line 28 — y_pred.numpy() inside the custom loss
# checked: not run (TF/Keras not installed); the answer (ParikhKadam) explains TensorFlow only differentiates along tensor ops from y_true/y_pred to the returned value, so the numpy/external part is ignored
import os

import librosa
import numpy as np
from keras import backend as K
from keras.layers import Dense
from keras.models import Sequential


# --- stub (not in the thread): the reporter's readresult() helper that parses the evaluator's output ---
def readresult():
    with open('./tools/result.txt') as f:
        return float(f.read())
# --- end stub ---


# verbatim from the issue ("demo code like below")
def mse_my_loss(y_true,y_pred):

    Q1 = K.mean(K.square(y_pred - y_true), axis=-1)
    y_in = y_pred.numpy()
    file_wave = './tools/data.raw'
    librosa.output.write_wav(file_wave, y_pred, 16000)
    CMD = './tools/EVAL +16000 ' + file_wave
    os.system(CMD)
    loss = readresult()
    return Q1 + loss


# --- stub (not in the thread): a model compiled with the loss ---
model = Sequential([Dense(16000, input_shape=(16000,))])
model.compile(optimizer='adam', loss=mse_my_loss)
model.fit(np.zeros((4, 16000)), np.zeros((4, 16000)), epochs=1)
