# source: https://github.com/tensorflow/tensorflow/issues/15682
# framework: tf
# family: B
# kind: tf-tape-scope
# pitfall: v + 1 is computed once outside the loss function handed to implicit_value_and_gradients; the loss only reads the precomputed tensor, so no trainable variable is accessed while it runs and no gradient exists
# expect: line 13 — v_add_1 is computed outside the function whose gradient is taken
# checked: parse only (tf.contrib.eager no longer exists)
import tensorflow as tf
import tensorflow.contrib.eager as tfe

tfe.enable_eager_execution()
v = tf.get_variable(name='v', initializer=1., trainable=True)
v_add_1 = v + 1.  # this causes the problem

def loss():
    return 2. * v_add_1
value_and_gradients_fn = tfe.implicit_value_and_gradients(loss)
print (value_and_gradients_fn())
