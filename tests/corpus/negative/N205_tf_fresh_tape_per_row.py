# source: https://www.tensorflow.org/api_docs/python/tf/GradientTape
# family: B
# negative: Jacobian rows computed in a loop, but each iteration records the forward pass on its own new tape
# mimics: tape.gradient called inside a for-loop
# expect: no finding

import tensorflow as tf

layer = tf.keras.layers.Dense(3, activation="tanh")
x = tf.random.normal([1, 4])

rows = []
for i in range(3):
    with tf.GradientTape() as tape:
        tape.watch(x)
        out_i = layer(x)[0, i]
    rows.append(tape.gradient(out_i, x))
jacobian = tf.concat(rows, axis=0)
print(jacobian.shape)
