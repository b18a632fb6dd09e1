# source: https://github.com/osh/KerasGAN/issues/10
# framework: tf
# family: D
# kind: frozen-but-trained
# pitfall: make_trainable(discriminator, False) flips the layers' trainable flags, but the discriminator was compiled before and is never recompiled, so train_on_batch keeps updating the "frozen" weights
# expect: line 26 — trainable flags changed after compile(); the compiled training function still updates these weights
# checked: ran, does not reproduce on Keras 3.15 (the trainable flag now takes effect without recompiling; Keras 2 behaviour per the thread)
import numpy as np
from keras.layers import Input, Dense
from keras.models import Model


def make_trainable(net, val):
    net.trainable = val
    for l in net.layers:
        l.trainable = val


d_input = Input(shape=(2,))
discriminator = Model(d_input, Dense(2, activation='softmax')(Dense(8)(d_input)))
discriminator.compile(loss='categorical_crossentropy', optimizer='adam')

X = np.random.random((2, 2))
y = np.array([[1, 0], [0, 1]])
print(discriminator.predict(X))
make_trainable(discriminator, False)
discriminator.train_on_batch(X, y)
print(discriminator.predict(X))
