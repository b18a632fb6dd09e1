# source: variant of 2029_tf_where_inactive_pow_exp_overflow.py
# framework: tf
# family: E
# kind: where-nan-gradient
# pitfall: a custom ELU layer computes tf.where(x > 0, x, alpha * tf.math.expm1(x)); for large positive x the inactive expm1(x) overflows to inf and its infinite gradient times where's zero cotangent is NaN
# expect: line 17 — tf.where whose unselected expm1 branch overflows for large inputs
# checked: ran, reproduces (gradient nan for x = 100)
import tensorflow as tf


class CustomELU(tf.keras.layers.Layer):
    def __init__(self, alpha=1.0, **kwargs):
        super().__init__(**kwargs)
        self.alpha = alpha

    def call(self, x):
        return tf.where(x > 0.0, x, self.alpha * tf.math.expm1(x))


x = tf.Variable([-1.0, 100.0])
with tf.GradientTape() as tape:
    y = tf.reduce_sum(CustomELU()(x))
print(tape.gradient(y, x))  # [0.37, nan]
