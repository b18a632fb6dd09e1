# source: synthetic
# family: B
# pitfall: hand-written optimiser rebuilds the parameter list with a comprehension `params = [p - lr * g ...]`, replacing the tf.Variables by tensors
# expect: line 26 — the comprehension rebinds params to EagerTensors: from the second step on the tape watches nothing and grads are all None

import tensorflow as tf


def init_params(sizes):
    return [tf.Variable(tf.random.normal((m, n)) * 0.1) for m, n in zip(sizes[:-1], sizes[1:])]


def forward(params, x):
    for W in params[:-1]:
        x = tf.nn.relu(x @ W)
    return x @ params[-1]


params = init_params([8, 32, 1])
x, y = tf.random.normal((128, 8)), tf.random.normal((128, 1))
lr = 0.01
for step in range(50):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean((forward(params, x) - y) ** 2)
    grads = tape.gradient(loss, params)
    params = [p - lr * g for p, g in zip(params, grads)]
