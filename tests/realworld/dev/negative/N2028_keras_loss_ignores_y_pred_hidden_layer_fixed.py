# source: https://thinbug.com/q/51257037
# framework: tf
# kind: params-unused-by-loss
# negative: the accepted fix — freeze the output layer that the loss does not use (the accepted answer)
# mimics: positive/2028_keras_loss_ignores_y_pred_hidden_layer.py
# expect: no finding
# checked: parse only (Keras 2 backend)
import numpy as np
from keras.layers import Input, Dense
from keras.models import Model
from keras import backend as K

input_1 = Input((5,))
hidden_a = Dense(2)(input_1)
output = Dense(1, trainable = False)(hidden_a)

m3 = Model(input_1, output)

def myLoss (y_true, y_pred):
    return K.sum(hidden_a)

m3.compile(optimizer='adam', loss=myLoss)

x = np.random.random(size=(10,5))
y = np.random.random(size=(10,1))

m3.fit(x,y, epochs=25)
