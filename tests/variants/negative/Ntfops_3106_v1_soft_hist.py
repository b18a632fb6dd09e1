# source: variant of 3106_tf1_histogram_fixed_width_l2.py
# framework: tf
# kind: nondiff-op-on-loss-path
# negative: soft (sigmoid-edge) bin memberships instead of histogram_fixed_width counts, so both variables get gradients
# mimics: positive/3106_v1_tf2_eager_minimize.py
# expect: no finding
# checked: ran (gradients not None; variables move)
import tensorflow as tf

input1 = tf.Variable([1.0, 2.0, 3.0, 4.0, 5.0, 6.0], name="input1")
input2 = tf.Variable([2.0, 3.0, 4.0, 6.0, 8.0, 9.0], name="input2")
edges = tf.linspace(0.0, 10.0, 12)


def soft_hist(v, sharpness=10.0):
    inside = tf.sigmoid(sharpness * (v[:, None] - edges[None, :-1])) - tf.sigmoid(sharpness * (v[:, None] - edges[None, 1:]))
    return tf.reduce_sum(inside, axis=0)


def loss_fn():
    return 2 * tf.nn.l2_loss(soft_hist(input1) - soft_hist(input2))


opt = tf.keras.optimizers.Adam(0.001)
for i in range(10):
    with tf.GradientTape() as tape:
        loss = loss_fn()
    grads = tape.gradient(loss, [input1, input2])
    opt.apply_gradients(zip(grads, [input1, input2]))
print(input1.numpy())
