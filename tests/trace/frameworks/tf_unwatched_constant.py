import tensorflow as tf

x = tf.constant(3.0)
with tf.GradientTape() as tape:
    y = x * x
print(tape.gradient(y, x))  # expect: GL113
