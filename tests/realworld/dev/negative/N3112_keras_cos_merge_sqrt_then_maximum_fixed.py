# source: https://github.com/keras-team/keras/issues/3941
# framework: tf
# family: E
# kind: nan-grad-singular-point
# pitfall: fixed version: K.epsilon() is added inside the sqrt, so its argument is never 0 and the gradient stays finite.
# expect: no finding
# checked: not run (TF/Keras not installed); this is the replacement the reporter proposes ("Following code would assure smooth function ... and avoid this problem")
from keras import backend as K
from keras.engine.topology import Layer


class CosMerge(Layer):
    # Stub wrapper around the reporter's proposed lines for Merge.call, mode='cos'.
    def __init__(self, dot_axes, **kwargs):
        super(CosMerge, self).__init__(**kwargs)
        self.dot_axes = dot_axes

    def call(self, inputs, mask=None):
        l1, l2 = inputs
        denominator = K.sqrt(K.batch_dot(l1, l1, self.dot_axes) *
                             K.batch_dot(l2, l2, self.dot_axes) + K.epsilon() )
        output = K.batch_dot(l1, l2, self.dot_axes) / denominator
        return output
