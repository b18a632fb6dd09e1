# source: https://github.com/sounakdey/SigNet/issues/1
# framework: tf
# kind: nan-grad-singular-point
# negative: the Euclidean distance clamps the sum of squares with K.maximum(..., K.epsilon()) before K.sqrt, so identical pairs give a finite gradient
# mimics: positive/2032_keras_siamese_euclidean_sqrt_zero.py
# expect: no finding
# checked: parse only (Keras 2 backend function)
from keras import backend as K

def euclidean_distance(vects):
    x, y = vects
    return K.sqrt(K.maximum(K.sum(K.square(x - y), axis=1, keepdims=True), K.epsilon()))
