# source: fixed twin of 2049_v2_py_function_numpy_model.py
# framework: tf
# family: B
# kind: tf-tape-conversion
# pitfall: none (the model runs inside the tape; tf.py_function only wraps a TensorFlow-op transform of its tensor input, so the gradient flows back through the py_function's input)
# checked: ran, gradients present
import tensorflow as tf

critic = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(1)])
optimizer = tf.keras.optimizers.Adam(1e-3)


def softplus_tf(v):
    return tf.math.log1p(tf.exp(v))


def train_critic(states, returns):
    with tf.GradientTape() as tape:
        raw = critic(states)[:, 0]
        values = tf.py_function(softplus_tf, [raw], tf.float32)
        loss = tf.reduce_mean(tf.square(returns - values))
    grads = tape.gradient(loss, critic.trainable_variables)
    print([g is None for g in grads])
    optimizer.apply_gradients(zip(grads, critic.trainable_variables))


train_critic(tf.random.normal((6, 3)), tf.ones(6))
