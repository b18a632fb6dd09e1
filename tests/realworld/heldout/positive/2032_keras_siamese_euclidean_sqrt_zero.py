# source: https://github.com/keras-team/keras/issues/9097
# framework: tf
# family: E
# kind: nan-grad-singular-point
# pitfall: the siamese distance K.sqrt(K.sum(K.square(x - y))) is differentiated at zero when both inputs are identical, giving a NaN loss gradient
# expect: line 12 — K.sqrt of a sum of squares that is exactly zero for identical pairs
# checked: parse only (Keras 2 backend function)
from keras import backend as K

def euclidean_distance(vects):
    x, y = vects
    return K.sqrt(K.sum(K.square(x - y), axis=1, keepdims=True))
