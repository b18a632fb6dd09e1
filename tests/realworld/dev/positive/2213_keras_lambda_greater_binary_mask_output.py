# source: https://github.com/keras-team/keras/issues/7401
# framework: tf
# family: E
# kind: keras-lambda-nondiff
# pitfall: the Lambda layer returns K.cast(K.greater(pred1, pred2)) as the model output; a comparison has no gradient, so the optimizer receives None gradients (the answer: "You have created a layer with outputs pred1 > pred2. This is not differentiable")
# expect: line 21 — K.greater mask returned from a Lambda layer that is the model's output
# checked: parse-only; the thread's slices x(:, :units) are written as x[:, :units] to parse, and the surrounding model is a small stand-in
from keras import backend as K
from keras.layers import Dense, Input, Lambda
from keras.models import Model

units = 4


def binary_mask(x):
    # Mask is half the size of x.
    # 1 if pred1 > pred2 element-wise, 0 otherwise.

    pred1 = x[:, :units]
    pred2 = x[:, units:]
    mask = K.greater(pred1, pred2)
    mask = K.cast(mask, K.floatx())
    return mask

def mask_output_shape(input_shape):
    return (input_shape[0], units)


x_in = Input(shape=(10,))
inputs = Dense(2 * units)(x_in)
outputs = Lambda(binary_mask, output_shape=mask_output_shape)(inputs)
model = Model(x_in, outputs)
model.compile(optimizer='adam', loss='binary_crossentropy')
