# source: https://github.com/keras-team/keras/issues/5107
# framework: tf
# family: E
# kind: keras-lambda-nondiff
# pitfall: an intermediate layer's output is clipped and rounded in a Lambda layer; K.round has no gradient (piecewise constant), so fit() fails with 'None values not supported' and nothing before the rounding could learn anyway (the maintainer's answer)
# expect: line 14 — Lambda layer applying K.round to an intermediate activation on the path to the loss
# checked: parse only (Keras 2 backend API; the thread shows only the Lambda line, wrapped here in a minimal model and with the closing parenthesis the post lost)
from keras import backend as K
from keras.layers import Input, Dense, Lambda
from keras.models import Model

inp = Input(shape=(16,))
input = Dense(8)(inp)
output = Lambda(lambda x: K.round(K.clip(x)))(input)
pred = Dense(1)(output)

model = Model(inp, pred)
model.compile(loss='mse', optimizer='adam')
