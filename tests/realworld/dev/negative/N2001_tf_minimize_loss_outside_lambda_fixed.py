# source: https://github.com/tensorflow/tensorflow/issues/42167
# framework: tf
# kind: tf-tape-scope
# negative: the accepted fix — the whole computation moves inside the lambda passed to minimize()
# mimics: positive/2001_tf_minimize_loss_outside_lambda.py
# expect: no finding
# checked: parse only (Keras 3 optimizers have no minimize())
import  tensorflow as tf

y_N= tf.Variable([1., 2., 3.],name="dd")

loss=lambda: -tf.reduce_mean(input_tensor=tf.reduce_sum(input_tensor=tf.math.log(y_N), axis=0))

train_step = tf.keras.optimizers.Adam(0.5).minimize(loss, var_list=[y_N])
