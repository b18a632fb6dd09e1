# source: https://github.com/tensorflow/tensorflow/issues/42183
# framework: tf
# family: F
# kind: optimizer-created-in-step
# pitfall: the tf.function run() constructs a new Adam optimizer on every call; minimize() creates the optimizer's variables (iterations, slots) inside the traced function, which raises "tf.function-decorated function tried to create variables on non-first call"
# expect: line 18 — tf.keras.optimizers.Adam(...) constructed inside the tf.function that applies it
# checked: parse-only
import  tensorflow as tf

y_N= tf.Variable([1., 2., 3.],name="dd")

@tf.function
def loss():
    return -tf.reduce_mean(input_tensor=tf.reduce_sum(input_tensor=tf.math.log(y_N), axis=0))

@tf.function
def run():
    tf.keras.optimizers.Adam(0.5).minimize(loss, var_list=[y_N])

run()
