# source: https://thinbug.com/q/51257037
# framework: tf
# family: D
# kind: params-unused-by-loss
# pitfall: the custom loss only sums a hidden layer's activations, so the output layer's weights never reach the loss; Keras then finds a None gradient for them and fit() fails
# expect: line 20 — the loss references hidden_a only, so the output Dense layer's weights get no gradient
# checked: parse only (Keras 2 backend: K.sum no longer in keras.backend)
import numpy as np
from keras.layers import Input, Dense
from keras.models import Model
from keras import backend as K

input_1 = Input((5,))
hidden_a = Dense(2)(input_1)
output = Dense(1)(hidden_a)

m3 = Model(input_1, output)

def myLoss (y_true, y_pred):
    return K.sum(hidden_a)                    # (A)
    #return K.sum(hidden_a) + 0*K.sum(y_pred) # (B)

m3.compile(optimizer='adam', loss=myLoss)

x = np.random.random(size=(10,5))
y = np.random.random(size=(10,1))

m3.fit(x,y, epochs=25)
