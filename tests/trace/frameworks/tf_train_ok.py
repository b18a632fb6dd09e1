# Correct: a Keras model trained with a GradientTape; .numpy() only for logging, after the tape.
import tensorflow as tf

tf.random.set_seed(0)
model = tf.keras.Sequential([tf.keras.Input((8,)), tf.keras.layers.Dense(16, activation="relu"),
                             tf.keras.layers.Dense(1)])
opt = tf.keras.optimizers.SGD(0.01)
for step in range(20):
    x, y = tf.random.normal([32, 8]), tf.random.normal([32, 1])
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean((model(x) - y) ** 2)
    grads = tape.gradient(loss, model.trainable_variables)
    opt.apply_gradients(zip(grads, model.trainable_variables))
    print(step, float(loss.numpy()))
