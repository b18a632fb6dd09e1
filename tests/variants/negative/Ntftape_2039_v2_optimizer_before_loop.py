# source: fixed twin of 2039_v2_loop_creates_optimizer.py
# framework: tf
# family: F
# kind: optimizer-created-in-step
# pitfall: none (one optimizer, created before the loop)
# checked: ran, iterations count up
import tensorflow as tf
import keras

model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
dataset = tf.data.Dataset.from_tensor_slices((tf.random.normal((12, 3)), tf.random.normal((12, 1)))).batch(4)
opt = keras.optimizers.Adam(learning_rate=1e-3)

for epoch in range(2):
    for x, y in dataset:
        with tf.GradientTape() as tape:
            loss = keras.ops.mean(keras.ops.square(model(x) - y))
        grads = tape.gradient(loss, model.trainable_weights)
        opt.apply_gradients(zip(grads, model.trainable_weights))
    print(int(opt.iterations))
