# source: variant of 2002_tf_model_predict_in_tape.py
# framework: tf
# family: B
# kind: tf-tape-conversion
# pitfall: the model output is converted with .numpy() inside the tape before the loss; the NumPy copy is disconnected from the model's variables, so every gradient is None
# expect: line 20 — model(x).numpy() inside the tape leaves the graph (NumPy result)
# checked: ran, reproduces (ValueError: No gradients provided for any variable)
import tensorflow as tf

n = 10
x = tf.random.normal([n, 2])
y = tf.reduce_sum(x * 3, axis=1, keepdims=True) + 2

model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
model(x)
optimizer = tf.keras.optimizers.SGD(learning_rate=0.01)

for epoch in range(2):
    with tf.GradientTape() as tape:
        pred = model(x, training=True).numpy()
        loss_value = tf.reduce_mean(tf.square(pred - y))
    gradients = tape.gradient(loss_value, model.trainable_variables)
    optimizer.apply_gradients(zip(gradients, model.trainable_variables))
