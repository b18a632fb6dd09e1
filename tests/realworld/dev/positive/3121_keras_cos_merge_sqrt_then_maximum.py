# source: https://github.com/keras-team/keras/issues/3941
# framework: tf
# family: E
# kind: nan-grad-singular-point
# pitfall: the cosine merge takes K.sqrt of the product of squared norms and only then clamps it with K.maximum(denominator, K.epsilon()); the clamp protects the forward division but not the backward pass, so a zero-norm vector gives an inf/NaN gradient through the sqrt.
# expect: line 21 — K.sqrt(K.batch_dot(l1, l1, ...) * K.batch_dot(l2, l2, ...)) with the guard applied after the sqrt
# checked: not run (TF/Keras not installed); the reporter states "gradients computed through `Merge` layer may become inf/nan" and that they hit this in practice
from keras import backend as K
from keras.engine.topology import Layer


class CosMerge(Layer):
    # Stub wrapper: the three lines in call() are verbatim from the issue, which quotes
    # keras/engine/topology.py, Merge.call for mode='cos' (the Merge class itself is not reproduced).
    def __init__(self, dot_axes, **kwargs):
        super(CosMerge, self).__init__(**kwargs)
        self.dot_axes = dot_axes

    def call(self, inputs, mask=None):
        l1, l2 = inputs
        denominator = K.sqrt(K.batch_dot(l1, l1, self.dot_axes) *
                             K.batch_dot(l2, l2, self.dot_axes))
        denominator = K.maximum(denominator, K.epsilon())
        output = K.batch_dot(l1, l2, self.dot_axes) / denominator
        return output
