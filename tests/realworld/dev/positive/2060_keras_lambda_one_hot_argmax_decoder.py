# source: https://github.com/keras-team/keras/issues/9169
# framework: tf
# family: E
# kind: keras-lambda-nondiff
# pitfall: the relay's output goes through a Lambda that takes K.one_hot(K.argmax(softmax(x))); argmax has no gradient, so fit() fails with 'None values not supported'
# expect: line 21 — K.one_hot(K.argmax(x)) in the Lambda layer that produces the model output
# checked: ran a Keras 3 port (keras.ops), reproduces (ValueError: No gradients provided for any variable); the original uses the Keras 2 backend
import numpy as np
from keras import backend as K
from keras.activations import softmax
from keras.layers import Input, Dense, Lambda
from keras.models import Model
from keras.optimizers import Adam

M = 16
onehot_symbols = np.eye(M)


def decodeSignal(x):
    x = softmax(x)
    Y = K.one_hot(K.argmax(x), num_classes=M)
    return Y


input_layer = Input(shape=(M,))

# Relay
relay = Dense(M,activation='relu')(input_layer)
relay = Dense(M,)(relay)
relay_softmax = Lambda(decodeSignal,output_shape=(M,))(relay)


model = Model(input_layer,relay_softmax)
model.compile(optimizer=Adam(lr=.001),loss='categorical_crossentropy')
print(model.summary())
model.fit(onehot_symbols,onehot_symbols,epochs=1000,shuffle=True,verbose=False)
