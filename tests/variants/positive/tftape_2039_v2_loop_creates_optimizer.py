# source: variant of 2039_tf_function_optimizer_created_each_step.py
# framework: tf
# family: F
# kind: optimizer-created-in-step
# pitfall: the optimizer is constructed inside the batch loop, so every batch gets a fresh Adam whose moment estimates and step count start from zero
# expect: line 16 — the optimizer is constructed inside the per-batch loop
# checked: ran, reproduces (optimizer.iterations is 1 after every batch)
import tensorflow as tf
import keras

model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
dataset = tf.data.Dataset.from_tensor_slices((tf.random.normal((12, 3)), tf.random.normal((12, 1)))).batch(4)

for epoch in range(2):
    for x, y in dataset:
        opt = keras.optimizers.Adam(learning_rate=1e-3)
        with tf.GradientTape() as tape:
            loss = keras.ops.mean(keras.ops.square(model(x) - y))
        grads = tape.gradient(loss, model.trainable_weights)
        opt.apply_gradients(zip(grads, model.trainable_weights))
    print(int(opt.iterations))
