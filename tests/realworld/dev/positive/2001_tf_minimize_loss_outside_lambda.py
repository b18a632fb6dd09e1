# source: https://github.com/tensorflow/tensorflow/issues/42167
# framework: tf
# family: B
# kind: tf-tape-scope
# pitfall: the cost is computed eagerly before minimize(); the lambda only returns the finished tensor, so the optimizer's internal tape records nothing and no variable gets a gradient
# expect: line 11 — the cost is computed outside the loss callable, hence outside minimize()'s tape
# checked: parse only (Keras 3 optimizers have no minimize(); the thread used the TF 2.3 optimizer API)
import  tensorflow as tf

y_N= tf.Variable([1., 2., 3.],name="dd")
cost = -tf.reduce_mean(input_tensor=tf.reduce_sum(input_tensor=tf.math.log(y_N), axis=0))

loss=lambda:cost

train_step = tf.keras.optimizers.Adam(0.5).minimize(loss, var_list=[y_N])
