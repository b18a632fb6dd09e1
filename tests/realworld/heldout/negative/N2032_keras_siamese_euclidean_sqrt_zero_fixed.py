# source: https://github.com/keras-team/keras/issues/9097
# framework: tf
# kind: nan-grad-singular-point
# negative: the accepted fix — add a small constant inside the sqrt
# mimics: positive/2032_keras_siamese_euclidean_sqrt_zero.py
# expect: no finding
# checked: parse only (Keras 2 backend function)
from keras import backend as K

def euclidean_distance(vects):
    x, y = vects
    return K.sqrt(K.sum(K.square(x - y), axis=1, keepdims=True) + 0.01)
