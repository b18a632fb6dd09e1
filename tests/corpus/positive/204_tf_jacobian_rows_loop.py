# source: https://www.tensorflow.org/guide/advanced_autodiff#jacobians
# family: B
# pitfall: Jacobian built row by row: one non-persistent tape records the outputs, then tape.gradient is called once per output inside a for-loop
# expect: line 18 — the loop calls gradient() on the same non-persistent tape again on its second iteration: RuntimeError (use persistent=True or tape.jacobian)

import tensorflow as tf

layer = tf.keras.layers.Dense(3, activation="tanh")
x = tf.random.normal([1, 4])

with tf.GradientTape() as tape:
    tape.watch(x)
    y = layer(x)
    outputs = [y[0, i] for i in range(3)]

rows = []
for out in outputs:
    rows.append(tape.gradient(out, x))
jacobian = tf.concat(rows, axis=0)
print(jacobian.shape)
